// The inference-aware optimum (Sardana et al. 2024): published numbers, NLopt against the
// independent 1-D reduction, and the Chinchilla limit without inference.

#include <catch2/catch.hpp>
#include <cmath>

#include "sardana_cost_example.hpp"
#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/equal_cost/chinchilla_comparison.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/solver/high_precision.hpp"
#include "tolerances.hpp"

using namespace scaleopt;

namespace {

const AllocationRule kSardana{loss_law_preset("sardana2024"), std::nullopt};

using testing::sardana_cost_model;

double chinchilla_quality_loss(double params) {
  const LossLaw& law = kSardana.law;
  return law.loss(params, compute_optimal_tokens(coefficients_of<double>(law), params));
}

}  // namespace

TEST_CASE("Sardana compute example: loss 1.947, 2e12 inference tokens", "[lifetime][published]") {
  // beyond-chinchilla README: N = 2.418e10, D = 2.657e12; 70.96% params, 146.77% tokens,
  // 95.22% FLOPs of the equal-quality Chinchilla model.
  const LifetimeCostModel model = flops_cost_model(2e12);
  const LifetimePlan plan = min_lifetime_cost_at_loss(kSardana.law, 1.947, model, CostUnit::flops);
  REQUIRE(plan.solve.converged());
  CHECK(plan.params == Approx(2.418e10).epsilon(kFourDigits));
  CHECK(plan.pretrain_tokens == Approx(2.657e12).epsilon(kFourDigits));
  const ChinchillaComparison c = compare_with_chinchilla(kSardana, plan, model);
  CHECK(100 * c.params_ratio == Approx(70.96).margin(0.005));
  CHECK(100 * c.tokens_ratio == Approx(146.77).margin(0.005));
  CHECK(100 * c.cost_ratio == Approx(95.22).margin(0.005));
}

TEST_CASE("Sardana cost example: A100s, 1e10 requests of 1000 + 250 tokens",
          "[lifetime][published]") {
  // README: N = 2.053e10, D = 3.302e12; 60.23% params, 182.41% tokens, 88.76% cost.
  const LifetimeCostModel model = sardana_cost_model();
  const LifetimePlan plan = min_lifetime_cost_at_loss(kSardana.law, 1.947, model, CostUnit::usd);
  REQUIRE(plan.solve.converged());
  CHECK(plan.params == Approx(2.053e10).epsilon(kFourDigits));
  CHECK(plan.pretrain_tokens == Approx(3.302e12).epsilon(kFourDigits));
  const ChinchillaComparison c = compare_with_chinchilla(kSardana, plan, model);
  CHECK(100 * c.params_ratio == Approx(60.23).margin(0.005));
  CHECK(100 * c.tokens_ratio == Approx(182.41).margin(0.005));
  CHECK(100 * c.cost_ratio == Approx(88.76).margin(0.005));
}

TEST_CASE("Sardana et al. section 4: three quality levels and demands", "[lifetime][published]") {
  struct Case {
    double chinchilla_params, inference_tokens, params, tokens_ratio;
  };
  // 7B quality at 1e11 tokens -> 6.00B params, 1.18x data; 30B quality at 1e13 -> 13.6B params,
  // 2.84x data (28% fewer FLOPs, checked below); 13B quality at 2e12 -> ~7B params.
  const Case cases[] = {{7e9, 1e11, 6.00e9, 1.18}, {30e9, 1e13, 13.6e9, 2.84}};
  for (const Case& k : cases) {
    const LifetimeCostModel model = flops_cost_model(k.inference_tokens);
    const LifetimePlan plan = min_lifetime_cost_at_loss(
        kSardana.law, chinchilla_quality_loss(k.chinchilla_params), model, CostUnit::flops);
    REQUIRE(plan.solve.converged());
    const ChinchillaComparison c = compare_with_chinchilla(kSardana, plan, model);
    // Printed to 3 significant digits: half a unit in the third digit.
    CHECK(plan.params == Approx(k.params).epsilon(5e-3));
    CHECK(c.tokens_ratio == Approx(k.tokens_ratio).margin(0.005));
    CHECK(c.params_ratio * k.chinchilla_params == Approx(plan.params).epsilon(1e-12));
    if (k.chinchilla_params == 30e9) CHECK(1 - c.cost_ratio == Approx(0.28).margin(0.005));
  }
  const LifetimePlan thirteen = min_lifetime_cost_at_loss(
      kSardana.law, chinchilla_quality_loss(13e9), flops_cost_model(2e12), CostUnit::flops);
  CHECK(thirteen.params == Approx(7e9).margin(0.05e9));  // "~7B" (6.97B)
}

TEST_CASE("NLopt agrees with the 1-D reduction to 1e-9 on a grid of targets and demands",
          "[lifetime]") {
  for (const LossLaw& law : loss_law_presets()) {
    for (double excess : {0.08, 0.2, 0.5, 1.0}) {
      for (double demand : {1e9, 1e11, 1e13, 1e15}) {
        const double target = law.E + excess;
        const LifetimeCostModel model = flops_cost_model(demand);
        const LifetimePlan plan = min_lifetime_cost_at_loss(law, target, model, CostUnit::flops);
        const LifetimePlan reference =
            min_lifetime_cost_at_loss_reduced(law, target, model, CostUnit::flops);
        INFO(law.name << " target " << target << " demand " << demand << ": "
                      << plan.solve.message);
        REQUIRE(plan.solve.converged());
        REQUIRE(reference.solve.converged());
        CHECK(plan.params == Approx(reference.params).epsilon(1e-9));
        CHECK(plan.pretrain_tokens == Approx(reference.pretrain_tokens).epsilon(1e-9));
        CHECK(plan.solve.kkt_residual <= SolverOptions{}.kkt_tolerance);
        CHECK(plan.loss == Approx(target).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("with no inference and no RL the lifetime optimum is the Chinchilla point",
          "[lifetime]") {
  for (const LossLaw& law : loss_law_presets()) {
    const double target = law.E + 0.3;
    const LifetimePlan plan =
        min_lifetime_cost_at_loss(law, target, flops_cost_model(0.0), CostUnit::flops);
    REQUIRE(plan.solve.converged());
    const auto c = coefficients_of<Real50>(law);
    const auto exact = compute_optimal_allocation(c, compute_for_loss(c, Real50(target)));
    CHECK(relative_difference(plan.params, exact.params) < 1e-9);
    CHECK(relative_difference(plan.pretrain_tokens, exact.tokens) < 1e-9);
  }
}

TEST_CASE("more inference demand means a smaller model trained on more tokens", "[lifetime]") {
  double previous_params = INFINITY, previous_tokens = 0;
  for (double demand : {1e10, 1e12, 1e14, 1e16}) {
    const LifetimePlan plan =
        min_lifetime_cost_at_loss(kSardana.law, 1.947, flops_cost_model(demand), CostUnit::flops);
    REQUIRE(plan.solve.converged());
    CHECK(plan.params < previous_params);
    CHECK(plan.pretrain_tokens > previous_tokens);
    previous_params = plan.params;
    previous_tokens = plan.pretrain_tokens;
  }
}

TEST_CASE("an unreachable target is infeasible with the reason", "[lifetime]") {
  const LifetimePlan below =
      min_lifetime_cost_at_loss(kSardana.law, 1.6, flops_cost_model(1e12), CostUnit::flops);
  CHECK(below.solve.status == Status::infeasible);
  CHECK_THAT(below.solve.message, Catch::Contains("irreducible loss E = 1.69"));
  const LifetimePlan too_close = min_lifetime_cost_at_loss(kSardana.law, 1.69 + 1e-12,
                                                           flops_cost_model(1e12), CostUnit::flops);
  CHECK(too_close.solve.status == Status::infeasible);
  CHECK_THAT(too_close.solve.message, Catch::Contains("1e30"));
}
