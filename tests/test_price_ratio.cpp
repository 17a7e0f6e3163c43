// The output/input cost ratio (problems/pricing/price_ratio.hpp): B*/B + S/S* while decode is
// memory-bound (dense attention, no attention FLOPs), falling with the batch to 1 once decode
// is compute-bound; and the inverse, the batch a published ratio implies, by root finding,
// checked against that closed form.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/problems/pricing/price_ratio.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

Roofline frontier_on_h100() {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), "h100-sxm");
  setup.chips = 8;
  setup.precision = Precision::fp8;
  return make_roofline(architecture_preset("frontier-100b"), setup, "t");
}

// By hand: B* = F bytes N / (2 W N) = 1979 / (2 x 3.35); S* = 2 N W / (F kv).
const double kBStar = 1979e12 / (2 * 3.35e12);
const double kSStar = 2 * 100e9 * 3.35e12 / (1979e12 * 1700.0);

}  // namespace

TEST_CASE("output/input ratio falls as the batch grows and tends to 1", "[pricing][ratio]") {
  const Roofline r = frontier_on_h100();
  const double S = 50e3;  // below S*
  double previous = INFINITY;
  for (double batch : {1.0, 4.0, 16.0, 64.0, 128.0, 200.0}) {
    const double ratio = output_input_cost_ratio(r, batch, S);
    INFO("B = " << batch);
    CHECK(ratio == Approx(kBStar / batch + S / kSStar).epsilon(1e-12));
    CHECK(ratio == Approx(decode_memory_bound_factor(r, batch, S)).epsilon(1e-14));
    CHECK(ratio < previous);
    previous = ratio;
  }
  // Compute-bound: t_step / B = 2N / F, the prefill time per token; exactly 1 up to rounding.
  for (double batch : {1e3, 1e6, 1e12}) {
    CHECK(output_input_cost_ratio(r, batch, S) == Approx(1.0).epsilon(1e-15));
  }
  // Above S* decode stays memory-bound: the ratio tends to S / S* instead.
  CHECK(output_input_cost_ratio(r, 1e12, 4e5) == Approx(4e5 / kSStar).epsilon(1e-9));
}

TEST_CASE("a published ratio implies the batch B* / (R - S/S*)", "[pricing][ratio]") {
  // Prompts past B* (295 tokens), so that prefill is compute-bound and costs 2N/F a token.
  const Roofline r = frontier_on_h100();
  for (double S : {2000.0, 8192.0, 1e5}) {
    for (double R : {3.0, 5.0, 8.0}) {
      const BatchForRatio b = batch_for_price_ratio(r, R, S);
      INFO("S = " << S << ", R = " << R);
      REQUIRE(b.status == Status::converged);
      // TOMS 748 on ln B to 52 bits; the ratio is smooth there, so the root is good to ~1e-15.
      CHECK(b.batch == Approx(kBStar / (R - S / kSStar)).epsilon(1e-12));
      CHECK(b.memory_bound_factor == Approx(R).epsilon(1e-12));
    }
  }
}

TEST_CASE("ratios no batch can give are infeasible, with the reachable range", "[pricing][ratio]") {
  const Roofline r = frontier_on_h100();
  const BatchForRatio at_one = batch_for_price_ratio(r, 1.0, 8192.0);
  CHECK(at_one.status == Status::infeasible);
  CHECK_THAT(at_one.message, Catch::Contains("at large batch"));
  CHECK(batch_for_price_ratio(r, INFINITY, 8192.0).status == Status::infeasible);  // free input
  const BatchForRatio too_high = batch_for_price_ratio(r, 1000.0, 8192.0);
  CHECK(too_high.status == Status::infeasible);
  CHECK(too_high.batch_one_ratio == Approx(kBStar + 8192.0 / kSStar).epsilon(1e-12));
  // HBM holds (640GB - 100GB) / (8192 x 1700 bytes) sequences at 8K.
  CHECK(too_high.hbm_full_batch == Approx(540e9 / (8192.0 * 1700.0)).epsilon(1e-14));
}
