// Cost per token against context (problems/pricing/pricing_curve.hpp): in the large-batch limit
// flat below S* and linear above with the KV term as slope (docs/model.md, Inference roofline; the
// talk); at the best batch flat below the HBM knee S* (1 - weights / HBM) and proportional to S
// above it. Expected values are computed here by hand from the chip's datasheet figures.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

// The talk's frontier model (100B active, dense, 1.7KB of KV per token) on one HGX H100 node
// in fp8 at $2 per chip-hour.
struct Frontier {
  ServingSetup setup;
  Roofline roofline;
  // By hand: 8 x 1979 TFLOP/s, 8 x 3.35 TB/s, 8 x 80 GB, 100e9 weight bytes, $16/h.
  double F = 8 * 1979e12, W = 8 * 3.35e12, hbm = 8 * 80e9, weights = 100e9, N = 100e9, kv = 1700.0,
         usd_per_second = 8 * 2.0 / 3600.0;
  double s_star = 2 * N * W / (F * kv);          // 199,150 tokens
  double flat_usd = usd_per_second * 2 * N / F;  // compute-bound cost per output token
  double kv_usd_per_context_token = usd_per_second * kv / W;

  Frontier() {
    setup.chip = find_hardware(scaleopt::builtin_hardware(), "h100-sxm");
    setup.chips = 8;
    setup.precision = Precision::fp8;
    setup.usd_per_chip_hour = 2.0;
    roofline = make_roofline(architecture_preset("frontier-100b"), setup, "t");
  }
};

}  // namespace

TEST_CASE("large batch: the curve is flat below S* and rises by the KV term above it",
          "[pricing][curve]") {
  const Frontier f;
  const std::vector<double> below{1e3, 5e4, 1.5e5, 0.999 * f.s_star};
  const std::vector<double> above{1.001 * f.s_star, 3e5, 6e5, 1e6};
  std::vector<double> contexts = below;
  contexts.insert(contexts.end(), above.begin(), above.end());
  const PricingCurve curve = pricing_curve(f.roofline, f.setup, contexts, "t");
  REQUIRE(curve.status == Status::converged);
  CHECK(curve.crossover_context == Approx(f.s_star).epsilon(1e-14));
  for (std::size_t i = 0; i < below.size(); ++i) {
    INFO("S = " << below[i]);
    // The same two roundings as the hand value: 1e-15.
    CHECK(curve.points[i].output.large_batch_usd == Approx(f.flat_usd).epsilon(1e-15));
  }
  for (std::size_t i = below.size(); i < contexts.size(); ++i) {
    const OutputCostTerms& terms = curve.points[i].output;
    INFO("S = " << contexts[i]);
    CHECK(terms.large_batch_usd == terms.kv_usd);  // the KV read is all that is left
    CHECK(terms.kv_usd == Approx(f.kv_usd_per_context_token * contexts[i]).epsilon(1e-15));
  }
  // Slope between successive points above S*: the KV term per context token, to 1e-9 (the
  // differences of costs ~1e-7 lose at most a few ulps of the larger one).
  for (std::size_t i = below.size() + 1; i < contexts.size(); ++i) {
    const double slope =
        (curve.points[i].output.large_batch_usd - curve.points[i - 1].output.large_batch_usd) /
        (contexts[i] - contexts[i - 1]);
    CHECK(slope == Approx(f.kv_usd_per_context_token).epsilon(1e-9));
  }
}

TEST_CASE("best batch: flat below the HBM knee S* (1 - weights / HBM), proportional to S above",
          "[pricing][curve]") {
  const Frontier f;
  const double knee = f.s_star * (1.0 - f.weights / f.hbm);  // 0.84375 S* = 168K
  const KneeResult found = hbm_knee_context(f.roofline);
  REQUIRE(found.status == Status::converged);
  // TOMS 748 on ln S to 52 bits: the root is exact to a few ulps of ln S (~1e-15 in S).
  CHECK(found.context_tokens == Approx(knee).epsilon(1e-12));

  const std::vector<double> contexts{1e3, 1e5, 0.99 * knee, 1.01 * knee, 2.5e5, 5e5, 1e6};
  const PricingCurve curve = pricing_curve(f.roofline, f.setup, contexts, "t");
  REQUIRE(curve.status == Status::converged);
  CHECK(curve.knee_context == found.context_tokens);
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("S = " << contexts[i]);
    CHECK(curve.points[i].plan.bound == BatchBound::balance);
    // The balance batch is a root in ln B: the step sits on t_compute = t_memory to ~1e-15.
    CHECK(curve.points[i].plan.output_token.usd == Approx(f.flat_usd).epsilon(1e-12));
  }
  // Above the knee HBM is full: B = (HBM - weights) / (S kv), and the cost per token is
  // (weights + B S kv) / (W B) = S kv / W x HBM / (HBM - weights).
  const double overhead = f.hbm / (f.hbm - f.weights);
  for (std::size_t i = 3; i < contexts.size(); ++i) {
    const CurvePoint& p = curve.points[i];
    INFO("S = " << contexts[i]);
    CHECK(p.plan.bound == BatchBound::hbm);
    CHECK(p.plan.output_token.usd ==
          Approx(f.kv_usd_per_context_token * contexts[i] * overhead).epsilon(1e-12));
    // The terms add up to the plan's cost: weights / B + KV (memory-bound).
    CHECK(p.output.total_usd() == Approx(p.plan.output_token.usd).epsilon(1e-14));
    CHECK(p.output.weight_usd + p.output.kv_usd == Approx(p.plan.output_token.usd).epsilon(1e-14));
  }
  for (std::size_t i = 4; i < contexts.size(); ++i) {
    const double slope =
        (curve.points[i].plan.output_token.usd - curve.points[i - 1].plan.output_token.usd) /
        (contexts[i] - contexts[i - 1]);
    CHECK(slope == Approx(f.kv_usd_per_context_token * overhead).epsilon(1e-9));
  }
}

TEST_CASE("input tokens cost their FLOPs at every context (prefill is compute-bound)",
          "[pricing][curve]") {
  const Frontier f;
  const std::vector<double> contexts{1e3, 1e5, 1e6};
  const PricingCurve curve = pricing_curve(f.roofline, f.setup, contexts, "t");
  for (const CurvePoint& p : curve.points) {
    CHECK(p.plan.input_token.usd == Approx(f.flat_usd).epsilon(1e-15));
  }
}

TEST_CASE("log-spaced contexts include both ends exactly", "[pricing][curve]") {
  const std::vector<double> c = log_spaced_contexts(1e3, 1e6, 4);
  REQUIRE(c.size() == 4);
  CHECK(c[0] == 1e3);
  CHECK(c[1] == Approx(1e4).epsilon(1e-14));
  CHECK(c[2] == Approx(1e5).epsilon(1e-14));
  CHECK(c[3] == 1e6);
  CHECK_THROWS(log_spaced_contexts(1e6, 1e3, 4));
  CHECK_THROWS(log_spaced_contexts(1e3, 1e6, 1));
}
