// The best batch: chosen by root finding where a constraint binds (compute-bound, HBM full,
// latency target), checked against the closed forms of those constraints, and never beaten
// by any other feasible batch.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

ServingSetup h100s(double chips, Precision precision = Precision::bf16) {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), "h100-sxm");
  setup.chips = chips;
  setup.precision = precision;
  return setup;
}

}  // namespace

TEST_CASE("with HBM to spare the best batch is where decode turns compute-bound", "[serving]") {
  const Architecture model = architecture_preset("frontier-100b");
  const ServingSetup setup = h100s(8, Precision::fp8);
  const Roofline r = make_roofline(model, setup, "t");
  const double S = 10e3;
  const ServingPlan plan = plan_serving(r, setup, S, "inference");
  REQUIRE(plan.status == Status::converged);
  CHECK(plan.bound == BatchBound::balance);
  // B 2N / F = (N bytes + B S kv) / W  =>  B = N bytes / (W (2N/F - S kv / W)).
  const double F = 8 * 1979e12, W = 8 * 3.35e12;
  const double expected = 100e9 / (W * (2 * 100e9 / F - S * 1700.0 / W));
  CHECK(plan.batch == Approx(expected).epsilon(1e-12));
  // At S = 0 that is B* itself.
  CHECK(plan_serving(r, setup, 0.0, "t").batch == Approx(critical_batch(r)).epsilon(1e-12));
}

TEST_CASE("with a long context the best batch fills HBM", "[serving]") {
  const Architecture v3 = architecture_preset("deepseek-v3");
  const ServingSetup setup = h100s(34);
  const Roofline r = make_roofline(v3, setup, "t");
  const double S = 200e3;
  const ServingPlan plan = plan_serving(r, setup, S, "t");
  REQUIRE(plan.status == Status::converged);
  CHECK(plan.bound == BatchBound::hbm);
  // (HBM - weights) / (S kv): 34 * 80GB - 2 * 671,026,404,352 bytes over 200K * 70,272 bytes.
  CHECK(plan.batch == Approx((34 * 80e9 - 2 * 671026404352.0) / (S * 70272.0)).epsilon(1e-12));
  CHECK(plan.step.memory_bound());
}

TEST_CASE("a latency target caps the batch where the step reaches it", "[serving]") {
  const Architecture l70 = architecture_preset("llama3-70b");
  ServingSetup setup = h100s(8);
  setup.latency_per_token_seconds = 0.020;
  const Roofline r = make_roofline(l70, setup, "t");
  const double S = 4096;
  const ServingPlan plan = plan_serving(r, setup, S, "t");
  REQUIRE(plan.status == Status::converged);
  CHECK(plan.bound == BatchBound::latency);
  // Memory-bound step: (2N + B (2d + S kv)) / W = 20ms  =>  B = (0.02 W - 2N) / (2d + S kv)
  // = 295.8, below the 372 sequences that fill HBM; N = 70,553,706,496 less the input
  // embedding 128,256 x 8,192 (a step gathers one row of 2 x 8,192 bytes per sequence).
  const double W = 8 * 3.35e12, n = 70553706496.0 - 128256.0 * 8192;
  CHECK(plan.batch == Approx((0.020 * W - 2 * n) / (2 * 8192 + S * 327680.0)).epsilon(1e-12));
  CHECK(plan.step.seconds() == Approx(0.020).epsilon(1e-12));
}

TEST_CASE("no feasible batch is cheaper per output token than the best one", "[serving]") {
  const Architecture v3 = architecture_preset("deepseek-v3");
  for (double S : {0.0, 1e3, 1e4, 1e5}) {
    ServingSetup setup = h100s(24, Precision::fp8);
    setup.latency_per_token_seconds = 0.1;
    const Roofline r = make_roofline(v3, setup, "t");
    const ServingPlan plan = plan_serving(r, setup, S, "t");
    REQUIRE(plan.status == Status::converged);
    for (double b = 1.0; b < 1e6; b *= 1.05) {
      const DecodeStep step = decode_step(r, b, S);
      const bool feasible = hbm_bytes_needed(r, b, S) <= r.hbm_bytes && step.seconds() <= 0.1;
      if (!feasible) continue;
      INFO("S = " << S << ", B = " << b);
      CHECK(output_token_cost(r, step).usd >= plan.output_token.usd * (1 - 1e-12));
    }
  }
}

TEST_CASE("a model larger than the replica's HBM says how much is needed", "[serving]") {
  const Architecture l405 = architecture_preset("llama3-405b");
  const ServingSetup setup = h100s(8);
  const Roofline r = make_roofline(l405, setup, "inference");
  CHECK_THROWS_WITH(plan_serving(r, setup, 8192, "inference"),
                    "inference.chips: the model does not fit: its weights alone need 812GB but a "
                    "replica of 8 x h100-sxm has 640GB of HBM; use more chips per replica or a "
                    "lower precision");
  ServingSetup given = h100s(16);
  given.batch = 1000;
  CHECK_THROWS_WITH(plan_serving(make_roofline(l405, given, "--"), given, 8192, "--"),
                    Catch::StartsWith("--batch: the model does not fit: it needs 5.04TB"));
  ServingSetup fast = h100s(16);
  fast.latency_per_token_seconds = 0.001;
  CHECK_THROWS_WITH(plan_serving(make_roofline(l405, fast, "--"), fast, 8192, "--"),
                    Catch::StartsWith("--latency-per-token: unreachable: a decode step takes at "
                                      "least"));
}

TEST_CASE("the closed-form best batch equals TOMS 748's roots on every preset, chip and bound",
          "[serving]") {
  // The step's compute and memory times and the HBM in use are affine in B, so the best batch
  // has a closed form (the default); TOMS 748 on ln B finds the same roots from the step
  // itself. 1e-12: the root finder stops at 52 bits of agreement in ln B (|ln B| <= 35, so
  // ~1e-14 in B), the closed form is a few roundings. The grid reaches every bound: short
  // contexts turn compute-bound, 128K fills HBM, 15 ms meets the latency target.
  int compared = 0, by_bound[3] = {0, 0, 0};
  for (const Architecture& model : architecture_presets()) {
    for (const Hardware& chip : builtin_hardware()) {
      for (const Precision precision : {Precision::bf16, Precision::fp8}) {
        if (!chip.supports(precision)) continue;
        for (const double nodes : {1.0, 4.0, 16.0}) {
          for (const double context : {0.0, 2e3, 32e3, 128e3}) {
            for (const double latency : {0.0, 0.015, 0.1}) {
              ServingSetup setup;
              setup.chip = chip;
              setup.chips = nodes * chip.node_chips;
              setup.precision = precision;
              setup.usd_per_chip_hour = 2.0;  // the cost's scale, not its batch
              if (latency > 0.0) setup.latency_per_token_seconds = latency;
              const Roofline r = make_roofline(model, setup, "t");
              ServingPlan closed, found;
              try {
                closed = plan_serving(r, setup, context, "t");
              } catch (const InputError&) {
                // Does not fit or misses the target: the root finder's checks are the same.
                CHECK_THROWS_AS(plan_serving(r, setup, context, "t", BatchSearch::root_finding),
                                InputError);
                continue;
              }
              found = plan_serving(r, setup, context, "t", BatchSearch::root_finding);
              INFO(model.name << " on " << nodes << " x " << chip.id << " " << to_string(precision)
                              << " at " << context << " tokens, latency " << latency);
              REQUIRE(closed.status == Status::converged);
              REQUIRE(found.status == Status::converged);
              CHECK(closed.batch == Approx(found.batch).epsilon(1e-12));
              CHECK(closed.bound == found.bound);
              CHECK(closed.output_token.chip_hours ==
                    Approx(found.output_token.chip_hours).epsilon(1e-12));
              ++compared;
              if (closed.bound == BatchBound::balance) ++by_bound[0];
              if (closed.bound == BatchBound::hbm) ++by_bound[1];
              if (closed.bound == BatchBound::latency) ++by_bound[2];
            }
          }
        }
      }
    }
  }
  CHECK(compared > 500);
  CHECK(by_bound[0] > 20);
  CHECK(by_bound[1] > 20);
  CHECK(by_bound[2] > 20);
}
