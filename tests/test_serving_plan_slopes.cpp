// The exact slopes of the cost per served token in ln N (problems/serving/serving_plan_slopes.hpp),
// checked in every regime against a central difference of the plan itself: the batch re-chosen
// at N e^h and N e^-h, so the check is independent of the implicit differentiation.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/serving/serving_plan_slopes.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

// Step of the central difference: truncation ~h^2 f'''/6 ~ 2e-11 relative for these rational
// functions of N far from their poles, rounding ~1e-16 / h ~ 1e-11; the slopes agree to 1e-8.
constexpr double kStep = 1e-5;
constexpr double kSlopeAgreement = 1e-8;

struct SlopeCase {
  ServingSetup setup;
  Architecture architecture;
  double active_params;
  double context;
};

ServingPlan plan_at(const SlopeCase& c, double active_params) {
  const Roofline r =
      make_roofline(architecture_at(c.architecture, active_params), c.setup, "inference");
  return plan_inference(r, c.setup, c.context, "inference");
}

// d ln(cost) / d ln N by central difference, for input and output tokens.
ServingPlanSlopes central_difference(const SlopeCase& c) {
  const ServingPlan up = plan_at(c, c.active_params * std::exp(kStep));
  const ServingPlan down = plan_at(c, c.active_params * std::exp(-kStep));
  return {std::log(up.input_token.chip_hours / down.input_token.chip_hours) / (2 * kStep),
          std::log(up.output_token.chip_hours / down.output_token.chip_hours) / (2 * kStep)};
}

SlopeCase llama_on_h100s(double chips, double context) {
  SlopeCase c;
  c.setup.chip = find_hardware(scaleopt::builtin_hardware(), "h100-sxm");
  c.setup.chips = chips;
  c.architecture = architecture_preset("llama3-70b");
  c.active_params = c.architecture.active_param_count();
  c.context = context;
  return c;
}

void check_slopes(const SlopeCase& c, BatchBound expected_bound) {
  const Roofline r =
      make_roofline(architecture_at(c.architecture, c.active_params), c.setup, "inference");
  const ServingPlan plan = plan_inference(r, c.setup, c.context, "inference");
  REQUIRE(plan.bound == expected_bound);
  // The regime holds over the stencil (no corner inside it).
  REQUIRE(plan_at(c, c.active_params * std::exp(kStep)).bound == expected_bound);
  REQUIRE(plan_at(c, c.active_params * std::exp(-kStep)).bound == expected_bound);
  const ServingPlanSlopes exact = log_slopes_in_params(r, plan);
  const ServingPlanSlopes numeric = central_difference(c);
  CHECK(exact.output_token == Approx(numeric.output_token).epsilon(kSlopeAgreement).margin(1e-12));
  CHECK(exact.input_token == Approx(numeric.input_token).epsilon(kSlopeAgreement).margin(1e-12));
}

}  // namespace

TEST_CASE("slopes: compute-bound batch (balance), cost per token proportional to N", "[slopes]") {
  SlopeCase c = llama_on_h100s(8, 1024);
  check_slopes(c, BatchBound::balance);
  // At the balance the cost per output token is the compute time per token, (2 N + a S) / F:
  // its slope is the matmuls' share, 2N / (2N + a S) with a = 4 x 80 x 64 x 128 = 2,621,440
  // (a model scaled by N keeps its attention: problems/lifetime/lifetime_cost_from_setup.hpp).
  const double n = c.active_params;
  const Roofline r = make_roofline(architecture_at(c.architecture, n), c.setup, "inference");
  CHECK(log_slopes_in_params(r, plan_at(c, n)).output_token ==
        Approx(2 * n / (2 * n + 2621440.0 * 1024)).epsilon(1e-14));
  // Without attention FLOPs (the talk's roofline) it is 2 N / F: slope 1 exactly.
  c.setup.attention_flops = false;
  check_slopes(c, BatchBound::balance);
  const Roofline talk = make_roofline(architecture_at(c.architecture, n), c.setup, "inference");
  CHECK(log_slopes_in_params(talk, plan_at(c, n)).output_token == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("slopes: HBM-full batch, long context", "[slopes]") {
  check_slopes(llama_on_h100s(8, 32768), BatchBound::hbm);
}

TEST_CASE("slopes: latency-bound batch", "[slopes]") {
  // (A compute-bound step never sets the batch by latency: past the balance the balance binds
  // first, and a batch of one that is compute-bound already is the balance's.)
  SlopeCase latency = llama_on_h100s(8, 4096);
  latency.setup.latency_per_token_seconds = 0.020;
  check_slopes(latency, BatchBound::latency);
}

TEST_CASE("slopes: a given batch, and a batch of one that is compute-bound already", "[slopes]") {
  SlopeCase given = llama_on_h100s(8, 8192);
  given.setup.batch = 16;
  check_slopes(given, BatchBound::given);
  SlopeCase one = llama_on_h100s(8, 1024);
  one.setup.bandwidth_efficiency = 1.0;
  one.setup.compute_efficiency = 0.001;  // F tiny: one sequence already compute-bound
  check_slopes(one, BatchBound::balance);
}

TEST_CASE("slopes: sparse attention with attention FLOPs, and fixed MFUs", "[slopes]") {
  SlopeCase sparse = llama_on_h100s(16, 65536);
  sparse.architecture = architecture_preset("deepseek-v3.2");
  sparse.active_params = sparse.architecture.active_param_count();
  sparse.setup.attention_flops = true;
  sparse.setup.precision = Precision::fp8;
  check_slopes(sparse, plan_at(sparse, sparse.active_params).bound);
  SlopeCase mfu = llama_on_h100s(8, 8192);
  mfu.setup.pricing = InferencePricing::mfu;
  mfu.setup.decode_mfu = 0.1;
  check_slopes(mfu, BatchBound::mfu);
  const Roofline r = make_roofline(mfu.architecture, mfu.setup, "inference");
  const ServingPlanSlopes slopes = log_slopes_in_params(r, plan_at(mfu, mfu.active_params));
  CHECK(slopes.input_token == 1.0);
  CHECK(slopes.output_token == 1.0);
}
