// The fast path (1-D Newton on the reduced problems) against NLopt, the reference: on grids of
// targets, demands, prices and budgets, in 50 digits at the Chinchilla limit, and end to end on
// the examples (every number of the light summary against `solve`'s).

#include <catch2/catch.hpp>
#include <cmath>

#include "example_path.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/scaleopt.hpp"  // first: the umbrella header compiles on its own

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

// NLopt's answers are verified to a KKT residual of 1e-7 and then polished to ~1e-15; the
// Newton root is within a few ulps of the exact one (quadratic convergence). 1e-9 is the
// agreement the issue asks for and leaves six orders of margin over what both reach.
constexpr double kQuestionAgreement = 1e-9;

LifetimeCostModel dollar_model(double inference_tokens, double rl_tokens) {
  LifetimeCostModel model;
  model.pretrain_gpu_hours_per_flop = 1.0 / (3600 * 989e12 * 0.4);
  model.pretrain_usd_per_gpu_hour = 2.0;
  model.inference_flops_per_param = 2 * inference_tokens;
  model.inference = SizeCostTerm::linear(2 * inference_tokens / (3600 * 989e12 * 0.15), 2.5);
  model.rl_tokens = rl_tokens;
  model.rl_flops_per_param_token = 4;
  model.rl_per_token = SizeCostTerm::linear(4 / (3600 * 989e12 * 0.2), 2.0);
  return model;
}

void check_answer(const AnswerSummary& fast, const AnswerSummary& nlopt) {
  REQUIRE(fast.status == Status::converged);
  REQUIRE(nlopt.status == Status::converged);
  for (const auto& [name, a, b] :
       {std::tuple{"params", fast.params, nlopt.params},
        std::tuple{"pretrain_tokens", fast.pretrain_tokens, nlopt.pretrain_tokens},
        std::tuple{"loss", fast.loss, nlopt.loss},
        std::tuple{"cost total", fast.cost.total().flops, nlopt.cost.total().flops},
        std::tuple{"cost usd", fast.cost.total().usd, nlopt.cost.total().usd},
        std::tuple{"over_chinchilla", fast.over_chinchilla, nlopt.over_chinchilla},
        std::tuple{"vs params", fast.vs_params, nlopt.vs_params},
        std::tuple{"vs tokens", fast.vs_tokens, nlopt.vs_tokens},
        std::tuple{"vs cost", fast.vs_cost, nlopt.vs_cost},
        std::tuple{"share pretrain", fast.shares.pretrain, nlopt.shares.pretrain}}) {
    INFO(name);
    CHECK(a == Approx(b).epsilon(kQuestionAgreement));
  }
  CHECK(fast.kkt_residual <= 1e-12);  // verified afresh at the Newton root
  CHECK(fast.constraint_violation <= 1e-14);
}

}  // namespace

TEST_CASE("fast path: Newton on the reduction agrees with NLopt to 1e-9 on a grid", "[fast]") {
  for (const LossLaw& law : loss_law_presets()) {
    for (double excess : {0.05, 0.2, 0.5, 1.0, 2.0}) {
      for (double demand : {0.0, 1e9, 1e11, 1e13, 1e15, 1e17}) {
        for (const CostUnit unit : {CostUnit::flops, CostUnit::usd}) {
          const double target = law.E + excess;
          const LifetimeCostModel model = dollar_model(demand, demand / 10);
          const auto cost = model.linear(unit);
          REQUIRE(cost);
          const NewtonPlan fast = min_cost_at_loss_newton(law, target, *cost);
          const LifetimePlan nlopt = min_lifetime_cost_at_loss(law, target, model, unit);
          INFO(law.name << " target " << target << " demand " << demand << " unit "
                        << to_string(unit) << ": " << nlopt.solve.message);
          REQUIRE(nlopt.solve.converged());
          REQUIRE(fast.status == Status::converged);
          CHECK_FALSE(fast.use_general);
          CHECK(fast.params == Approx(nlopt.params).epsilon(kQuestionAgreement));
          CHECK(fast.pretrain_tokens == Approx(nlopt.pretrain_tokens).epsilon(kQuestionAgreement));
          CHECK(fast.iterations <= 6);
          CHECK(fast.kkt_residual <= 1e-12);
        }
      }
    }
  }
}

TEST_CASE("fast path: without inference or RL, Newton returns the Chinchilla point (50 digits)",
          "[fast]") {
  for (const LossLaw& law : loss_law_presets()) {
    const double target = law.E + 0.3;
    const NewtonPlan plan = min_cost_at_loss_newton(law, target, {6.0, 0.0});
    REQUIRE(plan.status == Status::converged);
    const auto c = coefficients_of<Real50>(law);
    const auto exact = compute_optimal_allocation(c, compute_for_loss(c, Real50(target)));
    // Closed forms in double: a few ulps through pow and log1p (alpha, beta ~ 0.3 amplify the
    // relative error of the data term by 1/beta).
    CHECK(relative_difference(plan.params, exact.params) < 1e-14);
    CHECK(relative_difference(plan.pretrain_tokens, exact.tokens) < 1e-14);
  }
}

TEST_CASE("fast path: max-quality by Newton agrees with NLopt to 1e-9 on a grid of budgets",
          "[fast]") {
  for (const LossLaw& law : loss_law_presets()) {
    for (double demand : {0.0, 1e11, 1e13, 1e15}) {
      for (double budget : {3e6, 1e8, 1e9, 1e10, 1e11}) {
        const LifetimeCostModel model = dollar_model(demand, 0.0);
        const auto cost = model.linear(CostUnit::usd);
        const NewtonPlan fast = max_quality_at_budget_newton(law, *cost, budget, 1e7);
        const LifetimePlan nlopt = max_quality_at_budget(law, model, CostUnit::usd, budget);
        INFO(law.name << " demand " << demand << " budget " << budget << ": "
                      << nlopt.solve.message);
        if (nlopt.solve.status == Status::infeasible) {
          CHECK(fast.status == Status::infeasible);
          continue;
        }
        REQUIRE(nlopt.solve.converged());
        REQUIRE(fast.status == Status::converged);
        CHECK(fast.params == Approx(nlopt.params).epsilon(kQuestionAgreement));
        CHECK(fast.pretrain_tokens == Approx(nlopt.pretrain_tokens).epsilon(kQuestionAgreement));
        CHECK(fast.kkt_residual <= 1e-12);
      }
    }
  }
}

TEST_CASE("fast path: a budget that buys only the smallest model stops at min_params", "[fast]") {
  const LossLaw law = loss_law_preset("epoch2024");
  const LifetimeCostModel model = dollar_model(1e15, 0.0);
  const auto cost = model.linear(CostUnit::usd);
  // Serving 1e15 tokens with 1e7 parameters costs ~$1e5: a budget 1% above it leaves little
  // for pretraining, and every extra parameter is paid 1e15 times over (at min_params,
  // beta q (1 + c / (k D)) ~ 1.3 > alpha p ~ 0.6: the loss would fall with a smaller model).
  const double serving = cost->per_param * 1e7;
  const LifetimePlan nlopt = max_quality_at_budget(law, model, CostUnit::usd, 1.01 * serving);
  const NewtonPlan fast = max_quality_at_budget_newton(law, *cost, 1.01 * serving, 1e7);
  REQUIRE(nlopt.solve.converged());
  REQUIRE(fast.status == Status::converged);
  CHECK(fast.at_min_params);
  CHECK(nlopt.params == Approx(1e7).epsilon(1e-12));
  CHECK(fast.pretrain_tokens == Approx(nlopt.pretrain_tokens).epsilon(kQuestionAgreement));
  CHECK(fast.kkt_residual == 0.0);
  // And one that cannot pay for serving at min_params is infeasible.
  CHECK(max_quality_at_budget_newton(law, *cost, 0.9 * serving, 1e7).status == Status::infeasible);
}

TEST_CASE("fast path: an unreachable target is infeasible", "[fast]") {
  const LossLaw law = loss_law_preset("sardana2024");
  CHECK(min_cost_at_loss_newton(law, law.E, {6.0, 4e12}).status == Status::infeasible);
  CHECK(min_cost_at_loss_newton(law, law.E + 1e-9, {6.0, 4e12}).status == Status::infeasible);
}

TEST_CASE("fast path: the Chinchilla-rule model of a loss lies on D = r N at that loss", "[fast]") {
  for (const LossLaw& law : loss_law_presets()) {
    for (double r : {1.0, 20.0, 2000.0}) {
      for (double excess : {0.01, 0.3, 3.0}) {
        const double params = params_on_ray_for_loss(law, r, law.E + excess);
        // L(N, rN) - E against the excess: a few ulps of the two terms.
        CHECK((law.loss(params, r * params) - law.E) == Approx(excess).epsilon(1e-13));
      }
    }
  }
}

TEST_CASE("fast path: the roofline is not linear; its closed form takes the fast path", "[fast]") {
  const scaleopt::Scenario budget = scaleopt::load_scenario(example("budget_plan.toml"));
  const QuestionSetup setup = question_setup(budget, *budget.law, budget.problem);
  CHECK_FALSE(setup.model.linear(setup.unit));
  const auto fast = solve_question_fast(setup);
  REQUIRE(fast);
  check_answer(fast->answer, summarize(solve_question(setup)).answer);
}

TEST_CASE("fast path: every number of the examples' answers agrees with solve's", "[fast]") {
  for (const char* name : {"sardana_compute.toml", "sardana_cost.toml", "frontier_100x.toml"}) {
    INFO(name);
    const scaleopt::Scenario scenario = scaleopt::load_scenario(example(name));
    const QuestionSetup setup = question_setup(scenario, *scenario.law, scenario.problem);
    const auto fast = solve_question_fast(setup);
    REQUIRE(fast);
    const QuestionSummary nlopt = summarize(solve_question(setup));
    check_answer(fast->answer, nlopt.answer);
    CHECK(fast->answer.path == (scenario.problem.kind == ProblemKind::equal_cost
                                    ? SolvePath::closed_form
                                    : SolvePath::newton));
    if (fast->has_optimum) {
      check_answer(fast->optimum, nlopt.optimum);
      CHECK(fast->heuristic_overpay == Approx(nlopt.heuristic_overpay).epsilon(1e-8));
    }
  }
}
