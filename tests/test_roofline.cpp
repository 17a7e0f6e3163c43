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
  // The weights read per step over the parameters multiplied per token, both without the
  // input embedding table (129,280 x 7,168 = 926,679,040), which a step only gathers rows of:
  // 295.37 x (671,026,404,352 - 926,679,040) / (37,552,282,624 - 926,679,040) = 5,404.
  const Architecture v3 = architecture_preset("deepseek-v3");
  const double b = critical_batch(make_roofline(v3, setup_on("h100-sxm", Precision::fp8, 16), "t"));
  const double table = 129280.0 * 7168;
  CHECK(b == Approx(295.3731343283582 * (v3.total_param_count() - table) /
                    (v3.active_param_count() - table))
                 .epsilon(1e-14));
  CHECK(b == Approx(5404.1).margin(0.1));
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
  // The talk's roofline (no attention FLOPs): per sequence 2 N / F against (row + S kv) / W,
  // with N = 37,552,282,624 - 926,679,040 (the input embedding is gathered, one row of 7168
  // bf16 elements per token): S* = (2 N W / F - 14,336) / 70,272 = 3,531 tokens.
  const Architecture v3 = architecture_preset("deepseek-v3");
  ServingSetup talk = setup_on("h100-sxm", Precision::bf16, 16);
  talk.attention_flops = false;
  const Roofline r = make_roofline(v3, talk, "t");
  const double n = 37552282624.0 - 926679040.0, F = 16 * 989e12, W = 16 * 3.35e12;
  const double expected = (2.0 * n * W / F - 7168 * 2) / 70272.0;
  CHECK(crossover_context(r) == Approx(expected).epsilon(1e-14));  // ~3.53K tokens
  CHECK(expected == Approx(3531).margin(1));
  // Counted (the default), the absorbed MLA attention adds 16,990,208 FLOPs per context token
  // against 70,272 bytes: 242 FLOP/byte, close to F/W = 295, so compute keeps up with the KV
  // read far longer: S* = (2 N W - 14,336 F) / (F 70,272 - 16,990,208 W) = 19.1K.
  const Roofline counted = make_roofline(v3, setup_on("h100-sxm", Precision::bf16, 16), "t");
  CHECK(crossover_context(counted) ==
        Approx((2.0 * n * W - 14336.0 * F) / (F * 70272.0 - 16990208.0 * W)).epsilon(1e-12));
}

TEST_CASE("cost per token against context: flat below S*, linear above, kink at S*", "[roofline]") {
  const Architecture model = architecture_preset("frontier-100b");
  const Roofline r = make_roofline(model, setup_on("h100-sxm", Precision::fp8), "t");
  REQUIRE_FALSE(r.attention_flops);  // direct totals: no shape, no attention FLOPs to count
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
  // N = 70,553,706,496 parameters, of which the input embedding E = 128,256 x 8,192 =
  // 1,050,673,152 is only gathered (one row of 8,192 bf16 elements per sequence); attention
  // a = 4 x 80 x 64 x 128 = 2,621,440 FLOPs per context token.
  const double n = 70553706496.0, e = 128256.0 * 8192, a = 2621440.0;
  // t_compute = B (2 (N - E) + a S) / F; t_memory = (2 (N - E) + B (2 d + S 327,680)) / W.
  CHECK(step.compute_seconds ==
        Approx(64 * (2 * (n - e) + a * 4096) / (8 * 989e12)).epsilon(1e-15));
  CHECK(step.memory_seconds ==
        Approx((2 * (n - e) + 64 * (2 * 8192 + 4096 * 327680.0)) / (8 * 3.35e12)).epsilon(1e-15));
  CHECK(step.memory_bound());
  // Cost per output token: t_step * 8 chips * $2/h / 3600 / B.
  CHECK(output_token_cost(r, step).usd ==
        Approx(step.memory_seconds * 8 * 2.0 / 3600 / 64).epsilon(1e-15));
  // Prefill of a 4096-token prompt: compute-bound (4096 tokens in flight, past B* = 295), per
  // token 2 (N - 2E) (both embedding matrices out), the output head 2E once per prompt, and
  // attention to 2048 earlier tokens on average.
  const PrefillToken prefill = prefill_token(r, 4096);
  CHECK(prefill.compute_seconds > prefill.memory_seconds);
  CHECK(prefill.seconds() ==
        Approx((2 * (n - 2 * e) + 2 * e / 4096 + a * 2048) / (8 * 989e12)).epsilon(1e-15));
  CHECK(hbm_bytes_needed(r, 64, 4096) == 2 * n + 64 * 4096 * 327680.0);
  // The talk's roofline, --no-attention-flops: t_compute = B 2 (N - E) / F.
  ServingSetup talk = setup_on("h100-sxm", Precision::bf16);
  talk.attention_flops = false;
  const Roofline plain = make_roofline(l70, talk, "t");
  CHECK(decode_step(plain, 64, 4096).compute_seconds ==
        Approx(64 * 2 * (n - e) / (8 * 989e12)).epsilon(1e-15));
}

TEST_CASE("sparse attention reads top-k tokens plus the indexer's keys", "[roofline]") {
  const Architecture v32 = architecture_preset("deepseek-v3.2");
  ServingSetup talk = setup_on("h100-sxm", Precision::fp8, 16);
  talk.attention_flops = false;  // the reads alone decide S* here
  const Roofline r = make_roofline(v32, talk, "t");
  // The indexer's keys as V3.2's inference code caches them: per layer 128 FP8 elements plus
  // one FP32 scale per 128 elements, 61 x (128 + 4) = 8,052 bytes per token.
  const double x = 61.0 * (128 + 4);
  // At S = 100K: 2048 tokens * 70,272 bytes (bf16 MLA) + 100K * x bytes of indexer keys.
  CHECK(kv_bytes_read_per_sequence(r, 100e3) == 2048 * 70272.0 + 100e3 * x);
  // Below k it reads every token.
  CHECK(kv_bytes_read_per_sequence(r, 1000) == 1000 * (70272.0 + x));
  // Below k every token is read, plus its indexer key: S* = 2 N W / (F (kv + x)) when that
  // is below k (here ~1.6K < 2048); otherwise past k only the indexer's read grows with S.
  // N = 38,403,791,872 active (V3 and the indexer's 851,509,248) less the input embedding
  // 926,679,040; each sequence gathers a row of 7,168 fp8 bytes.
  const double F = 16 * 1979e12, W = 16 * 3.35e12, n = 38403791872.0 - 926679040.0, k = 2048;
  const double row = 7168.0;
  const double slack = 2 * n / F - (row + k * (70272.0 + x)) / W;  // < 0: k past dense S*
  const double dense_root = (2 * n / F - row / W) / ((70272.0 + x) / W);
  CHECK(slack < 0.0);
  CHECK(crossover_context(r) == Approx(dense_root).epsilon(1e-14));
  Architecture wide = v32;
  wide.sparse_top_k = 512;  // now the kink comes first: the indexer term decides
  const Roofline rw = make_roofline(wide, talk, "t");
  const double at_k = 2 * n / F - (row + 512 * (70272.0 + x)) / W;
  CHECK(crossover_context(rw) == Approx(512 + at_k / (x / W)).epsilon(1e-14));
}

TEST_CASE("attention FLOPs, counted by default, add to decode compute", "[roofline]") {
  const Architecture v3 = architecture_preset("deepseek-v3");
  ServingSetup setup = setup_on("h100-sxm", Precision::fp8, 16);
  REQUIRE(setup.attention_flops);  // the default
  const Roofline r = make_roofline(v3, setup, "t");
  // 2 (37,552,282,624 - 926,679,040) + 16,990,208 S (absorbed MLA, docs/model.md).
  const double n = 37552282624.0 - 926679040.0;
  CHECK(decode_flops_per_token(r, 1000) == 2 * n + 16990208.0 * 1000);
  // S* solves (2N + a S) / F = (row + kv S) / W: (2 N W - row F) / (F kv - a W).
  const double F = 16 * 1979e12, W = 16 * 3.35e12;
  CHECK(crossover_context(r) ==
        Approx((2 * n * W - 7168.0 * F) / (F * 70272.0 - 16990208.0 * W)).epsilon(1e-13));
  // A model without a shape has none to count: 2 N per token, and it is said so.
  const Roofline direct = make_roofline(architecture_preset("frontier-100b"), setup, "inference");
  CHECK_FALSE(direct.attention_flops);
  CHECK(decode_flops_per_token(direct, 1e6) == 2 * 100e9);
}
