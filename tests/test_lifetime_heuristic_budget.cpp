// The equal-cost heuristic (the talk) against the true optimum, and the best model a budget
// buys (max-quality) against its 1-D reduction, the Chinchilla closed form and the
// min-cost problem it is dual to.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/equal_cost/chinchilla_comparison.hpp"
#include "scaleopt/problems/equal_cost/equal_cost_heuristic.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

// The talk's frontier model: 50M tokens/s for two months (2.6298e14 tokens), training at
// MFU 0.4 and decode at a third of it, on one chip type at one price (the numbers are
// assumptions of the example; only their ratios matter for the token budgets).
constexpr double kInferenceTokens = 50e6 * 2 * 365.25 * 86400 / 12;
constexpr double kPeakFlops = 989e12;
constexpr double kUsdPerHour = 2.0;
constexpr double kTrainMfu = 0.4;
constexpr double kDecodeMfu = kTrainMfu / 3;

LifetimeCostModel frontier_model() {
  LifetimeCostModel model;
  model.pretrain_gpu_hours_per_flop = 1.0 / (3600 * kPeakFlops * kTrainMfu);
  model.pretrain_usd_per_gpu_hour = kUsdPerHour;
  model.inference_flops_per_param = 2 * kInferenceTokens;
  model.inference =
      SizeCostTerm::linear(2 * kInferenceTokens / (3600 * kPeakFlops * kDecodeMfu), kUsdPerHour);
  // RL rollouts not trained on: 2 N per token at decode efficiency (k = 2).
  model.rl_flops_per_param_token = 2;
  model.rl_per_token = SizeCostTerm::linear(2 / (3600 * kPeakFlops * kDecodeMfu), kUsdPerHour);
  return model;
}

}  // namespace

TEST_CASE("equal thirds with decode at a third of training MFU: D_pretrain = D_RL = D_inference",
          "[heuristic][published]") {
  // The talk: equal costs and decode at ~1/3 of training efficiency give
  // 6 N D / MFU = 2 N T / (MFU / 3), i.e. D = T; RL rollouts at decode cost give D_RL = T.
  const LossLaw law = loss_law_preset("epoch2024");
  const EqualCostPlan heuristic =
      equal_cost_plan(law, 100e9, frontier_model(), CostShares{}, CostUnit::usd);
  CHECK(heuristic.plan.pretrain_tokens == Approx(kInferenceTokens).epsilon(1e-14));
  CHECK(heuristic.rl_tokens == Approx(kInferenceTokens).epsilon(1e-14));
  const CostShares shares = cost_shares(heuristic.plan.cost, CostUnit::usd);
  CHECK(shares.pretrain == Approx(1.0 / 3).epsilon(1e-14));
  CHECK(shares.rl == Approx(1.0 / 3).epsilon(1e-14));
  // ~2.6e14 inference tokens; 20 tokens per parameter would be 2e12: ~131x over Chinchilla.
  CHECK(kInferenceTokens == Approx(2.6298e14).epsilon(1e-4));
  AllocationRule twenty{law, 20.0};
  CHECK(over_chinchilla(twenty, 100e9, heuristic.plan.pretrain_tokens) ==
        Approx(kInferenceTokens / 2e12).epsilon(1e-14));
}

TEST_CASE("the heuristic's true optimum reaches its loss for less, with shares reported",
          "[heuristic]") {
  const LossLaw law = loss_law_preset("epoch2024");
  LifetimeCostModel model = frontier_model();
  const EqualCostPlan heuristic = equal_cost_plan(law, 100e9, model, CostShares{}, CostUnit::usd);
  model.rl_tokens = heuristic.rl_tokens;
  const LifetimePlan optimum =
      min_lifetime_cost_at_loss(law, heuristic.plan.loss, model, CostUnit::usd);
  REQUIRE(optimum.solve.converged());
  CHECK(optimum.loss == Approx(heuristic.plan.loss).epsilon(1e-12));
  const double heuristic_usd = heuristic.plan.cost.total().usd;
  const double optimum_usd = optimum.cost.total().usd;
  CHECK(optimum_usd <= heuristic_usd);
  const CostShares shares = cost_shares(optimum.cost, CostUnit::usd);
  CHECK(shares.pretrain + shares.rl + shares.inference == Approx(1.0).epsilon(1e-14));
  // At the optimum the marginal pretraining and inference costs balance:
  // d cost / d ln N = 0 along the loss constraint gives
  // pretrain * (1 + d ln D / d ln N) + rl + inference = 0 (all linear in N here).
  const double p = law.params_term(optimum.params), r = heuristic.plan.loss - law.E - p;
  const double d_log_tokens = -(law.alpha * p) / (law.beta * r);
  const LifetimeCost& c = optimum.cost;
  CHECK(c.pretrain.usd * (1 + d_log_tokens) + c.rl.usd + c.inference.usd ==
        Approx(0.0).margin(1e-9 * optimum_usd));
}

TEST_CASE("bad shares are rejected with the share named", "[heuristic]") {
  const LossLaw law = loss_law_preset("epoch2024");
  CHECK_THROWS_WITH(equal_cost_plan(law, 1e11, frontier_model(), {0.5, 0.5, 0.5}, CostUnit::usd),
                    Catch::Contains("shares must sum to 1"));
  CHECK_THROWS_WITH(equal_cost_plan(law, 1e11, frontier_model(), {0.5, 0.5, 0.0}, CostUnit::usd),
                    Catch::Contains("shares.inference must be positive"));
  CHECK_THROWS_WITH(equal_cost_plan(law, 1e11, frontier_model(), {1.2, -0.4, 0.2}, CostUnit::usd),
                    Catch::Contains("shares.pretrain must be between 0 and 1"));
  CHECK_THROWS_WITH(equal_cost_plan(law, 1e11, flops_cost_model(0.0), {}, CostUnit::flops),
                    Catch::Contains("needs an inference demand"));
}

TEST_CASE("max-quality: NLopt agrees with the 1-D reduction on a grid of budgets", "[budget]") {
  const LossLaw law = loss_law_preset("epoch2024");
  const LifetimeCostModel model = frontier_model();
  for (double budget_usd : {3e7, 1e8, 1e9, 1e10, 1e11}) {
    const LifetimePlan plan = max_quality_at_budget(law, model, CostUnit::usd, budget_usd);
    const LifetimePlan reference =
        max_quality_at_budget_reduced(law, model, CostUnit::usd, budget_usd);
    INFO("budget " << budget_usd << ": " << plan.solve.message);
    REQUIRE(plan.solve.converged());
    REQUIRE(reference.solve.converged());
    CHECK(plan.params == Approx(reference.params).epsilon(1e-9));
    CHECK(plan.pretrain_tokens == Approx(reference.pretrain_tokens).epsilon(1e-9));
    CHECK(plan.cost.total().usd == Approx(budget_usd).epsilon(1e-12));  // the budget binds
  }
}

TEST_CASE("max-quality without inference is the Chinchilla optimum for that compute", "[budget]") {
  for (const LossLaw& law : loss_law_presets()) {
    const double budget_flops = 1e24;
    const LifetimePlan plan =
        max_quality_at_budget(law, flops_cost_model(0.0), CostUnit::flops, budget_flops);
    REQUIRE(plan.solve.converged());
    const auto c = coefficients_of<Real50>(law);
    const auto exact = compute_optimal_allocation(c, Real50(budget_flops));
    CHECK(relative_difference(plan.params, exact.params) < 1e-9);
    CHECK(relative_difference(plan.pretrain_tokens, exact.tokens) < 1e-9);
  }
}

TEST_CASE("max-quality is dual to min-cost: the min-cost plan's budget buys its loss", "[budget]") {
  const LossLaw law = loss_law_preset("sardana2024");
  const LifetimeCostModel model = flops_cost_model(2e12);
  const LifetimePlan cheapest = min_lifetime_cost_at_loss(law, 1.947, model, CostUnit::flops);
  const LifetimePlan best =
      max_quality_at_budget(law, model, CostUnit::flops, cheapest.cost.total().flops);
  REQUIRE(best.solve.converged());
  CHECK(best.loss == Approx(1.947).epsilon(1e-12));
  CHECK(best.params == Approx(cheapest.params).epsilon(1e-8));
}

TEST_CASE("a budget that cannot serve the demand is infeasible, with the serving cost",
          "[budget]") {
  const LossLaw law = loss_law_preset("epoch2024");
  const LifetimePlan plan = max_quality_at_budget(law, frontier_model(), CostUnit::usd, 1000.0);
  CHECK(plan.solve.status == Status::infeasible);
  CHECK_THAT(plan.solve.message, Catch::Contains("cannot serve the inference demand") &&
                                     Catch::Contains("10M parameters"));
  CHECK_THROWS_WITH(max_quality_at_budget(law, frontier_model(), CostUnit::usd, -5.0),
                    Catch::Contains("budget must be finite and positive"));
}
