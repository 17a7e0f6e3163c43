// The fast path with the experts chosen (problems/lifecycle/accelerators/experts_newton.hpp):
// the search over ln E of fixed-E Newton solves, against NLopt on (ln N, ln D, ln m) held to
// its reference over E (the fixed-E 1-D reductions by problems/at_loss/ and problems/at_budget/,
// minimised over ln E by a grid and Brent's method), every number of the light summary against
// `solve`'s; the KKT residual in three variables against cases worked by hand.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "example_path.hpp"
#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/problems/lifecycle/accelerators/experts_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

// NLopt's objective is held to its reference to 1e-8 (SolverOptions::reference_tolerance) and
// lands within ~1e-11 of it; the fast path's E is a root of dL/d ln E to 1e-9 of the gradient's
// scale, so its objective is within ~1e-18 of the profile's least. 1e-9 in the objectives leaves
// room for both. N, D and E sit where the profile over E is flat (a smooth minimum): off by the
// square root of that, 1e-4.
constexpr double kObjectiveAgreement = 1e-9;
constexpr double kVariableAgreement = 1e-4;

// frontier.toml (the talk's serving, 32K context, RL rollouts) with the joint law, served at a
// fixed decode MFU: the total does not enter the cost.
QuestionSetup mfu_setup(std::vector<std::string> extra) {
  std::vector<std::string> overrides = {"law.preset=ludziejewski2025",
                                        "problem.kind=min-lifetime-cost", "inference.pricing=mfu",
                                        "inference.decode_mfu=0.3"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return scenario_setup(load_scenario(example("frontier.toml"), overrides));
}

double objective_of(const AnswerSummary& a, const QuestionSetup& setup) {
  return minimises_loss(setup.kind) ? a.loss : std::log(in_unit(setup.unit, a.cost.total()));
}

// The fast summary against NLopt's (each field the light answer gives) and NLopt's own
// reference over E.
void check_against_nlopt(const QuestionSetup& setup) {
  const std::optional<QuestionSummary> fast = solve_question_fast(setup);
  REQUIRE(fast);
  const AnswerSummary& a = fast->answer;
  REQUIRE(a.status == Status::converged);
  CHECK(a.path == SolvePath::newton);
  const QuestionSolution solution = solve_question(setup, {}, SolveMethod::nlopt);
  INFO(solution.message());
  REQUIRE(solution.status() == Status::converged);
  const AnswerSummary b = summarize(solution).answer;
  INFO("experts: fast " << a.experts << ", NLopt " << b.experts);
  const LifetimePlan reference = experts_reference(setup.terms(), setup.question());
  REQUIRE(reference.solve.converged());
  const double reference_objective = minimises_loss(setup.kind)
                                         ? reference.loss
                                         : std::log(in_unit(setup.unit, reference.cost.total()));
  CHECK(objective_of(a, setup) ==
        Approx(reference_objective).epsilon(0).margin(kObjectiveAgreement));
  CHECK(objective_of(a, setup) ==
        Approx(objective_of(b, setup)).epsilon(0).margin(kObjectiveAgreement));
  for (const auto& [name, x, y] :
       {std::tuple{"experts", a.experts, b.experts},
        std::tuple{"params (total)", a.params, b.params},
        std::tuple{"active_params", a.active_params, b.active_params},
        std::tuple{"pretrain_tokens", a.pretrain_tokens, b.pretrain_tokens},
        std::tuple{"over_chinchilla", a.over_chinchilla, b.over_chinchilla},
        std::tuple{"chinchilla_params", a.chinchilla_params, b.chinchilla_params},
        std::tuple{"vs_cost", a.vs_cost, b.vs_cost},
        std::tuple{"share pretrain", a.shares.pretrain, b.shares.pretrain},
        std::tuple{"training_days", a.training_days, b.training_days},
        std::tuple{"law_extrapolation", a.law_extrapolation, b.law_extrapolation}}) {
    INFO(name);
    CHECK(x == Approx(y).epsilon(kVariableAgreement));
  }
  CHECK(a.loss == Approx(b.loss).epsilon(kObjectiveAgreement));
  CHECK(a.params == Approx(a.active_params * setup.experts->expansion(a.experts)).epsilon(1e-15));
  CHECK(a.kkt_residual <= 1e-9);
  CHECK(a.constraint_violation <= 1e-12);
}

}  // namespace

TEST_CASE("experts fast path: min cost at a target agrees with NLopt and the reference over E",
          "[experts][fast]") {
  // 1.9 with E up to the law's 32, and 1.8 / 2.4 with E up to 512: the bound active and not.
  for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
           {"problem.target_loss=1.9"},
           {"problem.target_loss=1.8", "problem.max_experts=512"},
           {"problem.target_loss=2.4", "problem.max_experts=512"},
           {"problem.target_loss=2.0", "problem.min_experts=4", "problem.max_experts=4"}}) {
    INFO(extra.front() << " " << extra.back());
    check_against_nlopt(mfu_setup(extra));
  }
}

TEST_CASE("experts fast path: min lifetime FLOPs and the best loss within a budget",
          "[experts][fast]") {
  check_against_nlopt(mfu_setup(
      {"problem.kind=min-lifetime-flops", "problem.target_loss=1.9", "problem.max_experts=512"}));
  for (const char* budget : {"problem.budget_usd=3e9", "problem.budget_usd=3e10"}) {
    INFO(budget);
    check_against_nlopt(mfu_setup({"problem.kind=max-quality", budget, "problem.max_experts=512"}));
  }
}

TEST_CASE("experts fast path: what it does not answer goes to NLopt", "[experts][fast]") {
  // Priced by the roofline (the total's weights are read per decode step): no fast path.
  const QuestionSetup roofline = scenario_setup(load_scenario(
      example("frontier.toml"), {"law.preset=ludziejewski2025", "problem.kind=min-lifetime-cost",
                                 "problem.target_loss=1.9"}));
  REQUIRE(roofline.experts);
  CHECK_FALSE(solve_question_fast(roofline));
  // A replica that holds less than the unbounded optimum's total: the bound binds, NLopt's.
  QuestionSetup small = mfu_setup({"problem.target_loss=1.9"});
  const std::optional<QuestionSummary> free = solve_question_fast(small);
  REQUIRE(free);
  small.model.max_total_params = 0.5 * free->answer.params;
  CHECK_FALSE(solve_question_fast(small));
  // A target at or below the irreducible loss: infeasible at every E, said by the fast path.
  const std::optional<QuestionSummary> unreachable =
      solve_question_fast(mfu_setup({"problem.target_loss=1.0"}));
  REQUIRE(unreachable);
  CHECK(unreachable->answer.status == Status::infeasible);
  CHECK(solve_question(mfu_setup({"problem.target_loss=1.0"}), {}, SolveMethod::nlopt).status() ==
        Status::infeasible);
}

TEST_CASE("experts fast path: the KKT residual in (ln N, ln D, ln m), worked by hand",
          "[experts][fast]") {
  // g = -2 c: stationary with multiplier 2, whatever the bound.
  const double c[3] = {-0.5, -0.25, -0.1};
  const double g[3] = {1.0, 0.5, 0.2};
  CHECK(kkt_residual_3d(g, c, false, 0) == Approx(0.0).margin(1e-16));
  // ln m's component off by 0.1. With the upper bound active, lambda = 2 from the first two
  // components and the Lagrangian's slope in ln m is 0.1 - 0.2 = -0.1: it would fall beyond the
  // bound, which takes it (no residual); at the lower bound the same slope is the residual, over
  // the scale max(|g|, |lambda c|) = 1.
  const double h[3] = {1.0, 0.5, 0.1};
  CHECK(kkt_residual_3d(h, c, false, 1) == Approx(0.0).margin(1e-16));
  CHECK(kkt_residual_3d(h, c, false, -1) == Approx(0.1).epsilon(1e-14));
  // Free: lambda = -(g.c)/(c.c) = 0.635 / 0.3225 by least squares over all three; the residual
  // is the largest |g + lambda c| (the scale is |g_0| = 1).
  const double lambda = 0.635 / 0.3225;
  const double expected = std::max({std::fabs(1.0 - 0.5 * lambda), std::fabs(0.5 - 0.25 * lambda),
                                    std::fabs(0.1 - 0.1 * lambda)});
  CHECK(kkt_residual_3d(h, c, false, 0) == Approx(expected).epsilon(1e-14));
  // One-sided with the multiplier's sign wrong: the whole term is the residual.
  const double minus_g[3] = {-1.0, -0.5, -0.2};
  CHECK(kkt_residual_3d(minus_g, c, true, 0) == Approx(1.0).epsilon(1e-14));
}

TEST_CASE(
    "experts fast path: a fixed-E Newton solve started from a nearby ln D finds the same root",
    "[experts][fast]") {
  // The search starts each fixed-E solve from the previous plan's ln D. Newton is kept inside
  // the same bracket, so the root is the one from the bracket's own start, to the stopping
  // test's error (~1e-15 relative in the plan; the cost's check is a separate
  // recomputation), whatever the hint: near, far below or far above, or outside any bracket.
  const QuestionSetup setup = mfu_setup({"problem.target_loss=1.9"});
  const LinearCost cost = *setup.model.linear(setup.unit);
  LossLaw at = setup.law();
  set_coefficients_at_experts(at, *setup.law().joint, 64.0);
  const NewtonPlan cold = min_cost_at_loss_newton(at, 1.9, cost);
  REQUIRE(cold.status == Status::converged);
  const NewtonPlan best = max_quality_at_budget_newton(at, cost, 3e9, 1.0);
  REQUIRE(best.status == Status::converged);
  for (const double shift : {1e-3, -0.5, 3.0, -40.0, 200.0}) {
    INFO("ln D shifted by " << shift);
    const NewtonPlan warm =
        min_cost_at_loss_newton(at, 1.9, cost, std::log(cold.pretrain_tokens) + shift);
    REQUIRE(warm.status == Status::converged);
    CHECK(warm.params == Approx(cold.params).epsilon(1e-13));
    CHECK(warm.pretrain_tokens == Approx(cold.pretrain_tokens).epsilon(1e-13));
    const NewtonPlan warm_best =
        max_quality_at_budget_newton(at, cost, 3e9, 1.0, std::log(best.pretrain_tokens) + shift);
    REQUIRE(warm_best.status == Status::converged);
    CHECK(warm_best.params == Approx(best.params).epsilon(1e-13));
    CHECK(warm_best.pretrain_tokens == Approx(best.pretrain_tokens).epsilon(1e-13));
  }
  // A near start saves steps: the reason for it.
  const NewtonPlan near = min_cost_at_loss_newton(at, 1.9, cost, std::log(cold.pretrain_tokens));
  CHECK(near.iterations < cold.iterations);
}
