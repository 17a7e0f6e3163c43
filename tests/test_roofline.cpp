// The inference roofline (docs/model.md, Inference roofline): B*, S*, the talk's inverse, the shape
// of cost per token against context, and one decode step computed by hand.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

ServingSetup setup_on(const std::string& chip, Precision precision, double chips = 8.0) {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), chip);
  setup.precision = precision;
  setup.chips = chips;
  return setup;
}

}  // namespace

TEST_CASE("B* is ~295 for a dense model on an H100, in bf16 and fp8 alike", "[roofline]") {
  // docs/model.md, Critical batch: 1979e12 * 1 byte / (2 * 3.35e12) ~ 295; bf16: 989e12 * 2 / (2
  // * 3.35e12).
  const Architecture dense = architecture_preset("llama3-70b");
  const double bf16 =
      critical_batch(make_roofline(dense, setup_on("h100-sxm", Precision::bf16), "t"));
  const double fp8 =
      critical_batch(make_roofline(dense, setup_on("h100-sxm", Precision::fp8), "t"));
  CHECK(bf16 == Approx(989e12 * 2.0 / (2.0 * 3.35e12)).epsilon(1e-14));  // 295.22
  CHECK(fp8 == Approx(1979e12 * 1.0 / (2.0 * 3.35e12)).epsilon(1e-14));  // 295.37
  CHECK(bf16 == Approx(295).margin(0.5));
  CHECK(fp8 == Approx(295).margin(0.5));
  // The replica size cancels: F and W both scale with the chips.
  CHECK(critical_batch(make_roofline(dense, setup_on("h100-sxm", Precision::bf16, 3), "t")) ==
        Approx(bf16).epsilon(1e-14));
}

TEST_CASE("B* of a mixture of experts is ~300 / sparsity", "[roofline]") {
  const Architecture v3 = architecture_preset("deepseek-v3");
  const double b = critical_batch(make_roofline(v3, setup_on("h100-sxm", Precision::fp8, 16), "t"));
  CHECK(
      b ==
      Approx(295.3731343283582 * v3.total_param_count() / v3.active_param_count()).epsilon(1e-14));
}

TEST_CASE("the talk's inverse: 100B active, 600 FLOP/byte, S* = 200K -> 1667 bytes/token",
          "[roofline]") {
  // 2 * 100e9 / (600 * 200e3) = 5000/3 = 1666.67 ("about 1.7 KB").
  CHECK(kv_bytes_for_crossover(100e9, 600.0, 200e3) == Approx(5000.0 / 3.0).epsilon(1e-15));
  // With H100 fp8 figures, the talk's inverse gives 2e11 * 3.35e12 / (1979e12 * 2e5) = 1692.77.
  CHECK(kv_bytes_for_crossover(100e9, 1979e12 / 3.35e12, 200e3) == Approx(1692.77).epsilon(1e-5));
  // And forwards: the frontier model with 1667 bytes/token on a chip of F/W = 600 crosses at 200K.
  Architecture model = architecture_preset("frontier-100b");
  model.kv_bytes_per_token = kv_bytes_for_crossover(100e9, 600.0, 200e3);
  ServingSetup setup = setup_on("h100-sxm", Precision::fp8);
  setup.chip.fp8_flop_per_second = 600.0 * setup.chip.hbm_bytes_per_second;
  CHECK(crossover_context(make_roofline(model, setup, "t")) == Approx(200e3).epsilon(1e-14));
}

TEST_CASE("S* = 2 N_active W / (F kv_bytes) for dense attention", "[roofline]") {
  const Architecture v3 = architecture_preset("deepseek-v3");
  const Roofline r = make_roofline(v3, setup_on("h100-sxm", Precision::bf16, 16), "t");
  const double expected = 2.0 * 37552282624.0 * (16 * 3.35e12) / ((16 * 989e12) * 70272.0);
  CHECK(crossover_context(r) == Approx(expected).epsilon(1e-14));  // ~3.62K tokens
}

TEST_CASE("cost per token against context: flat below S*, linear above, kink at S*", "[roofline]") {
  const Architecture model = architecture_preset("frontier-100b");
  const Roofline r = make_roofline(model, setup_on("h100-sxm", Precision::fp8), "t");
  const double s_star = crossover_context(r);
  // Large batch, where the weight read is amortised away (docs/model.md, Context crossover: "large
  // batch"): with B = 1e9 the weights add 100GB / 1e9 = 100 bytes per token, 0.03% of the KV read
  // at S*.
  const double batch = 1e9;
  auto cost = [&](double context) {
    return output_token_cost(r, decode_step(r, batch, context)).usd;
  };
  const double flat = cost(0.0);
  // Flat: compute-bound, 2 N_active / F per token, to rounding, anywhere below S*.
  for (double f : {0.01, 0.1, 0.5, 0.9, 0.99})
    CHECK(cost(f * s_star) == Approx(flat).epsilon(1e-12));
  // Linear above: cost(S) = price * (weights / B + S kv) / W, so doubling S doubles the KV part.
  const double per_token_weights = r.weight_bytes / batch / r.bytes_per_second * r.usd_per_second();
  for (double f : {1.5, 2.0, 4.0, 10.0}) {
    CHECK((cost(2 * f * s_star) - per_token_weights) ==
          Approx(2 * (cost(f * s_star) - per_token_weights)).epsilon(1e-12));
  }
  // The kink: where cost first rises 1e-6 above flat, on a grid 0.1% apart: within 1% of S*.
  double kink = 0.0;
  for (double s = 0.5 * s_star; s < 2.0 * s_star; s *= 1.001) {
    if (cost(s) > flat * (1 + 1e-6)) {
      kink = s;
      break;
    }
  }
  CHECK(kink == Approx(s_star).epsilon(0.01));
}

TEST_CASE("one decode step of llama3-70b on 8 H100s, by hand", "[roofline]") {
  const Architecture l70 = architecture_preset("llama3-70b");
  const Roofline r = make_roofline(l70, setup_on("h100-sxm", Precision::bf16), "t");
  const DecodeStep step = decode_step(r, 64, 4096);
  const double n = 70553706496.0;
  // t_compute = B 2 N / F; t_memory = (2 N + B S 327,680) / W, F and W of 8 chips.
  CHECK(step.compute_seconds == Approx(64 * 2 * n / (8 * 989e12)).epsilon(1e-15));
  CHECK(step.memory_seconds ==
        Approx((2 * n + 64 * 4096 * 327680.0) / (8 * 3.35e12)).epsilon(1e-15));
  CHECK(step.memory_bound());
  // Cost per output token: t_step * 8 chips * $2/h / 3600 / B.
  CHECK(output_token_cost(r, step).usd ==
        Approx(step.memory_seconds * 8 * 2.0 / 3600 / 64).epsilon(1e-15));
  // Prefill: compute-bound, 2 N / F per token.
  const PrefillToken prefill = prefill_token(r, 4096);
  CHECK(prefill.seconds() == Approx(2 * n / (8 * 989e12)).epsilon(1e-15));
  CHECK(hbm_bytes_needed(r, 64, 4096) == 2 * n + 64 * 4096 * 327680.0);
}

TEST_CASE("sparse attention reads top-k tokens plus the indexer's keys", "[roofline]") {
  const Architecture v32 = architecture_preset("deepseek-v3.2");
  const Roofline r = make_roofline(v32, setup_on("h100-sxm", Precision::fp8, 16), "t");
  // At S = 100K: 2048 tokens * 70,272 bytes (bf16 MLA) + 100K * 7,808 bytes of FP8 indexer keys.
  CHECK(kv_bytes_read_per_sequence(r, 100e3) == 2048 * 70272.0 + 100e3 * 7808.0);
  // Below k it reads every token.
  CHECK(kv_bytes_read_per_sequence(r, 1000) == 1000 * (70272.0 + 7808.0));
  // Below k every token is read, plus its indexer key: S* = 2 N W / (F (kv + x)) when that
  // is below k (here ~1.6K < 2048); otherwise past k only the indexer's read grows with S.
  const double F = 16 * 1979e12, W = 16 * 3.35e12, n = 37552282624.0, k = 2048;
  const double slack = 2 * n / F - k * (70272.0 + 7808.0) / W;  // < 0: k is past dense S*
  const double dense_root = 2 * n / F / ((70272.0 + 7808.0) / W);
  CHECK(slack < 0.0);
  CHECK(crossover_context(r) == Approx(dense_root).epsilon(1e-14));
  Architecture wide = v32;
  wide.sparse_top_k = 512;  // now the kink comes first: the indexer term decides
  const Roofline rw = make_roofline(wide, setup_on("h100-sxm", Precision::fp8, 16), "t");
  const double at_k = 2 * n / F - 512 * (70272.0 + 7808.0) / W;
  CHECK(crossover_context(rw) == Approx(512 + at_k / (7808.0 / W)).epsilon(1e-14));
}

TEST_CASE("attention FLOPs, when counted, add to decode compute", "[roofline]") {
  const Architecture v3 = architecture_preset("deepseek-v3");
  ServingSetup setup = setup_on("h100-sxm", Precision::fp8, 16);
  setup.attention_flops = true;
  const Roofline r = make_roofline(v3, setup, "t");
  CHECK(decode_flops_per_token(r, 1000) == 2 * 37552282624.0 + 16990208.0 * 1000);
  // S* solves (2N + a S) / F = kv S / W: 2 N W / (F kv - a W).
  const double F = 16 * 1979e12, W = 16 * 3.35e12;
  CHECK(crossover_context(r) ==
        Approx(2 * 37552282624.0 * W / (F * 70272.0 - 16990208.0 * W)).epsilon(1e-13));
  Architecture direct = architecture_preset("frontier-100b");
  CHECK_THROWS_WITH(make_roofline(direct, setup, "inference"),
                    Catch::StartsWith("inference.attention_flops: needs the model's shape"));
}
