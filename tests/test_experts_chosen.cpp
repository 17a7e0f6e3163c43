// The experts as a decision variable (problems/lifecycle/experts_solve.hpp): NLopt on (ln N,
// ln D, ln E) with its KKT check, against an independent search that never differentiates in
// E: a fine grid over ln E of the question at a fixed E, each answered by its 1-D reduction in
// N (problems/at_loss/, problems/at_budget/), refined by Brent's method near its best. With
// fixed-MFU pricing (the cost does not see the total) and priced by the roofline (the weights
// of N_total = N m(E) are read per decode step and fill the replica's HBM).

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "example_path.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

// The grid's optimum is refined by Brent's method between its best point's neighbours, which
// locates ln E to ~1.5e-8 (half a double's digits): the objective is then off by ~f'' 1e-16 at
// a smooth minimum, or by ~f' 1e-8 at a corner. The fixed-E reductions are exact to ~1e-12;
// 1e-9 leaves room for both.
constexpr double kAgreement = 1e-9;
constexpr int kGrid = 401;

JointLossLaw joint_preset() {
  return *find_joint_loss_law_preset("ludziejewski2025");
}

LossTerm joint_loss(const ExpertChoice& choice) {
  const auto joint = std::make_shared<const JointLossLaw>(joint_preset());
  LossTerm loss(law_at_experts(*joint, 1.0));
  loss.choosing_experts(joint, choice.expert_share);
  return loss;
}

// The objective of the fixed-E question, by its 1-D reduction: ln cost at a target, or the loss
// within a budget; +infinity where no plan exists.
double fixed_experts_objective(const LifetimeCostModel& model, CostUnit unit,
                               const ExpertChoice& choice, double experts,
                               const LifecycleQuestion& question) {
  const LossLaw law = law_at_experts(joint_preset(), experts);
  const LifetimeCostModel at = cost_model_at_experts(model, choice.expansion(experts));
  const LifetimePlan plan =
      question.target()
          ? min_lifetime_cost_at_loss_reduced(law, question.target()->target_loss(), at, unit)
          : max_quality_at_budget_reduced(law, at, unit, question.budget()->budget(), {1.0});
  if (!plan.solve.converged()) return std::numeric_limits<double>::infinity();
  return question.target() ? std::log(in_unit(unit, plan.cost.total())) : plan.loss;
}

struct GridOptimum {
  double experts;
  double objective;
  bool at_bound;
};

GridOptimum grid_optimum(const LifetimeCostModel& model, CostUnit unit, const ExpertChoice& choice,
                         const LifecycleQuestion& question) {
  const double lo = std::log(choice.min_experts), hi = std::log(choice.max_experts);
  std::vector<double> x(kGrid), f(kGrid);
  int best = 0;
  for (int k = 0; k < kGrid; ++k) {
    x[k] = lo + (hi - lo) * k / (kGrid - 1);
    f[k] = fixed_experts_objective(model, unit, choice, std::exp(x[k]), question);
    if (f[k] < f[best]) best = k;
  }
  // Between the best point's neighbours, Brent's method on the same objective (no derivative
  // in E: the cost has corners where the serving regime changes, which a parabola would miss).
  const double left = x[std::max(best - 1, 0)], right = x[std::min(best + 1, kGrid - 1)];
  std::uintmax_t iterations = 200;
  const auto [vertex, value] = boost::math::tools::brent_find_minima(
      [&](double log_experts) {
        return fixed_experts_objective(model, unit, choice, std::exp(log_experts), question);
      },
      left, right, std::numeric_limits<double>::digits / 2, iterations);
  if (!(value < f[best])) return {std::exp(x[best]), f[best], best == 0 || best == kGrid - 1};
  return {std::exp(vertex), value, false};
}

void check_against_grid(const LifetimePlan& plan, const LifetimeCostModel& model, CostUnit unit,
                        const ExpertChoice& choice, const LifecycleQuestion& question) {
  INFO(plan.solve.message);
  REQUIRE(plan.solve.converged());
  REQUIRE(plan.experts);
  const GridOptimum grid = grid_optimum(model, unit, choice, question);
  INFO("experts " << *plan.experts << " grid " << grid.experts);
  if (question.target()) {
    const double cost = in_unit(unit, plan.cost.total());
    CHECK(std::log(cost) == Approx(grid.objective).epsilon(0).margin(kAgreement));
  } else {
    CHECK(plan.loss == Approx(grid.objective).epsilon(kAgreement));
  }
  // E itself: flat near the optimum, so to the square root of the agreement.
  CHECK(*plan.experts == Approx(grid.experts).epsilon(grid.at_bound ? 1e-12 : 1e-4));
  CHECK(*plan.total_params == Approx(plan.params * choice.expansion(*plan.experts)));
}

// frontier.toml's serving (the talk's 50M tokens/s for two months on B200 replicas of 8 chips,
// fp8, 32K context) and training, its law replaced by the joint one.
QuestionSetup frontier_setup() {
  const Scenario scenario = load_scenario(example("frontier.toml"), {"problem.target_params=1e11"});
  return question_setup(scenario, *scenario.law, scenario.problem);
}

}  // namespace

TEST_CASE("experts chosen: fixed-MFU pricing, min cost at a target agrees with a grid over E",
          "[experts]") {
  // FLOPs of a life: 6 N D + 2 N (1e13 served tokens); the total does not enter, so E is chosen
  // by the law alone (its optimum at each N, D).
  const LifetimeCostModel model = flops_cost_model(1e13);
  ExpertChoice choice;
  choice.min_experts = 1.0;
  choice.max_experts = 64.0;
  for (const double target : {2.6, 2.0, 1.8}) {
    INFO("target " << target);
    const LifecycleTerms terms =
        lifecycle_terms_choosing_experts(joint_loss(choice), model, CostUnit::flops, choice);
    const LifecycleQuestion question = LifecycleQuestion::at_target_loss(target);
    const LifetimePlan plan = solve_lifecycle(terms, question);
    check_against_grid(plan, model, CostUnit::flops, choice, question);
    CHECK(plan.loss == Approx(target).epsilon(1e-9));
  }
}

TEST_CASE("experts chosen: priced by the roofline, frontier serving", "[experts]") {
  const QuestionSetup setup = frontier_setup();
  ExpertChoice choice;
  choice.max_experts = 64.0;
  for (const double target : {2.2, 1.9, 1.8}) {
    INFO("target " << target);
    const LifecycleTerms terms =
        lifecycle_terms_choosing_experts(joint_loss(choice), setup.model, CostUnit::usd, choice);
    const LifecycleQuestion question = LifecycleQuestion::at_target_loss(target);
    const LifetimePlan plan = solve_lifecycle(terms, question);
    check_against_grid(plan, setup.model, CostUnit::usd, choice, question);
    // The bounds of E active (2.2: the most experts allowed) and not (1.8: an interior optimum,
    // where more experts' weights cost more to serve than their loss saves).
    if (target == 2.2) CHECK(*plan.experts == Approx(64.0).epsilon(1e-12));
    if (target == 1.8) CHECK((*plan.experts > 2.0 && *plan.experts < 60.0));
  }
}
TEST_CASE("experts chosen: the replica's HBM binds the total", "[experts]") {
  // The frontier replica (8 x B200, fp8) holds ~1.44T parameters; capped at 4e11 (as a replica
  // of fewer chips would be), the optimum sits on ln N + ln m = ln N_total,max.
  QuestionSetup setup = frontier_setup();
  setup.model.max_total_params = 4e11;
  ExpertChoice choice;
  choice.max_experts = 64.0;
  const LifecycleTerms terms =
      lifecycle_terms_choosing_experts(joint_loss(choice), setup.model, CostUnit::usd, choice);
  const LifecycleQuestion question = LifecycleQuestion::at_target_loss(1.8);
  const LifetimePlan plan = solve_lifecycle(terms, question);
  check_against_grid(plan, setup.model, CostUnit::usd, choice, question);
  CHECK(*plan.total_params == Approx(4e11).epsilon(1e-9));
  // Its multiplier is what a larger replica would save: positive.
  REQUIRE(plan.solve.inequality_multipliers.size() == 1);
  CHECK(plan.solve.inequality_multipliers[0] > 0.0);
}

TEST_CASE("experts chosen: the best loss within a budget agrees with a grid over E", "[experts]") {
  const QuestionSetup setup = frontier_setup();
  ExpertChoice choice;
  choice.max_experts = 64.0;
  for (const double budget : {1e10, 3e10}) {
    INFO("budget " << budget);
    const LifecycleTerms terms =
        lifecycle_terms_choosing_experts(joint_loss(choice), setup.model, CostUnit::usd, choice);
    const LifecycleQuestion question = LifecycleQuestion::within_budget(budget);
    const LifetimePlan plan = solve_lifecycle(terms, question);
    check_against_grid(plan, setup.model, CostUnit::usd, choice, question);
    CHECK(in_unit(CostUnit::usd, plan.cost.total()) == Approx(budget).epsilon(1e-9));
  }
}

TEST_CASE("experts fixed at one: the joint law's own dense answer", "[experts]") {
  // min = max = 1: the law at E = 1 (its Table 4 row, tests/test_joint_law.cpp), and the cost
  // at the dense total N; the plan equals the dense question's, reported with E = 1.
  const QuestionSetup setup = frontier_setup();
  ExpertChoice choice;
  choice.max_experts = 1.0;
  const LifecycleTerms terms =
      lifecycle_terms_choosing_experts(joint_loss(choice), setup.model, CostUnit::usd, choice);
  const LifetimePlan plan = solve_lifecycle(terms, LifecycleQuestion::at_target_loss(1.9));
  const LifetimePlan dense =
      min_lifetime_cost_at_loss_reduced(law_at_experts(joint_preset(), 1.0), 1.9,
                                        cost_model_at_experts(setup.model, 1.0), CostUnit::usd);
  REQUIRE(plan.solve.converged());
  REQUIRE(dense.solve.converged());
  CHECK(*plan.experts == 1.0);
  CHECK(*plan.total_params == plan.params);
  CHECK(plan.params == Approx(dense.params).epsilon(1e-8));
  CHECK(in_unit(CostUnit::usd, plan.cost.total()) ==
        Approx(in_unit(CostUnit::usd, dense.cost.total())).epsilon(1e-12));
}

TEST_CASE("experts chosen: inputs it cannot answer are refused by name", "[experts]") {
  const QuestionSetup setup = frontier_setup();
  ExpertChoice choice;
  choice.min_experts = 8.0;
  choice.max_experts = 4.0;
  CHECK_THROWS_WITH(
      lifecycle_terms_choosing_experts(joint_loss(choice), setup.model, CostUnit::usd, choice),
      Catch::Contains("problem.max_experts"));
  choice.max_experts = 16.0;
  CHECK_THROWS_WITH(
      lifecycle_terms_choosing_experts(LossTerm(setup.law()), setup.model, CostUnit::usd, choice),
      Catch::Contains("joint dense/MoE law"));
}
