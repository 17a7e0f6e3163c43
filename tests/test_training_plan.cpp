// Planning a pretraining run: budgets as people state them (dollars, chip-hours, FLOPs) against
// hand arithmetic; the best model a pretraining budget buys against Hoffmann's closed form in 50
// digits; the deadline's cap on the FLOPs, active and inactive, against 50-digit references,
// with its multiplier checked by finite differences of the optimal cost; the chips a deadline
// needs; and hostile values refused with the field named.

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/training_budget.hpp"
#include "scaleopt/problems/compute_cap/compute_capped_reduction.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

using boost::multiprecision::log;
using boost::multiprecision::pow;

// Conversions are a product and a quotient of given numbers: exact to a few ulps.
constexpr double kPlanArithmetic = 1e-12;
// NLopt's plan against a 50-digit reference where a constraint binds (the plan sits on it, so N
// and D are pinned to the constraint's and the KKT tolerance's accuracy): 1e-8, the reference
// tolerance the solver itself applies.
constexpr double kPlanReference = 1e-8;

TrainingSetup plan_h100(double mfu = 0.4, double goodput = 1.0) {
  TrainingSetup t;
  t.chip = find_hardware(builtin_hardware(), "h100-sxm");
  t.mfu = mfu;
  t.goodput = goodput;
  return t;
}

// Hoffmann et al. 2022, Eq. 4 in 50 digits: N = G (C/6)^(beta/(alpha+beta)),
// G = (alpha A / (beta B))^(1/(alpha+beta)).
struct PlanPoint50 {
  Real50 params, tokens;
};
PlanPoint50 plan_chinchilla50(const LossLaw& law, const Real50& compute) {
  const Real50 a(law.alpha), b(law.beta), A(law.A), B(law.B);
  const Real50 G = pow(a * A / (b * B), 1 / (a + b));
  const Real50 n = G * pow(compute / 6, b / (a + b));
  return {n, compute / (6 * n)};
}

// D on the isoloss curve of `target` at N, in 50 digits: B / D^beta = target - E - A / N^alpha.
Real50 plan_tokens_at_loss50(const LossLaw& law, const Real50& n, const Real50& target) {
  const Real50 rest = target - Real50(law.E) - Real50(law.A) / pow(n, Real50(law.alpha));
  return pow(Real50(law.B) / rest, 1 / Real50(law.beta));
}

// The smaller N on the isoloss curve where 6 N D(N) = C_max, by 200 halvings of ln N between the
// curve's asymptote (D infinite) and its least-FLOPs point.
Real50 plan_capped_params50(const LossLaw& law, double target, double max_flops) {
  const Real50 t(target), c(max_flops);
  const Real50 asymptote = pow(Real50(law.A) / (t - Real50(law.E)), 1 / Real50(law.alpha));
  Real50 lo = log(asymptote) + Real50(1e-30), hi = log(Real50(1e30));
  // The least-FLOPs point of the target: Chinchilla's point of its compute.
  const ParamsTokens<double> least = [&] {
    const auto co = coefficients_of<double>(law);
    return compute_optimal_allocation(co, compute_for_loss(co, target));
  }();
  hi = log(Real50(least.params));
  for (int i = 0; i < 200; ++i) {
    const Real50 mid = (lo + hi) / 2;
    const Real50 n = exp(mid);
    (6 * n * plan_tokens_at_loss50(law, n, t) > c ? lo : hi) = mid;
  }
  return exp((lo + hi) / 2);
}

LifetimePlan plan_at_loss_with_cap(const LossLaw& law, double target, double inference,
                                   std::optional<double> max_flops) {
  LifecycleQuestion question = LifecycleQuestion::at_target_loss(target);
  if (max_flops) question.with_deadline(*max_flops, "a test's cap");
  return solve_lifecycle(
      lifecycle_terms(LossTerm(law), flops_cost_model(inference), CostUnit::flops), question);
}

}  // namespace

TEST_CASE("pretraining budgets convert by hand arithmetic", "[training_plan]") {
  // $30M at $2.50/h: 12M chip-hours; x 3600 s x 989e12 FLOP/s x 0.4 = 1.708992e25 FLOPs.
  TrainingSetup t = plan_h100();
  t.usd_per_chip_hour = 2.5;
  const TrainingBudget usd = training_budget_from_usd(30e6, t, "--budget-usd");
  CHECK(usd.gpu_hours == Approx(12e6).epsilon(kPlanArithmetic));
  CHECK(usd.flops == Approx(1.708992e25).epsilon(kPlanArithmetic));
  // Llama 3.1 405B's 30.84M H100-hours at the catalog's $2/h: $61.68M, and at MFU 0.4 and
  // goodput 0.9: 30.84e6 x 3600 x 989e12 x 0.36 = 3.952898496e25 FLOPs.
  const TrainingBudget hours = training_budget_from_gpu_hours(30.84e6, plan_h100(0.4, 0.9), "h");
  CHECK(hours.usd == Approx(61.68e6).epsilon(kPlanArithmetic));
  CHECK(hours.flops == Approx(30.84e6 * 3600.0 * 989e12 * 0.36).epsilon(kPlanArithmetic));
  CHECK(hours.flops == Approx(3.952898496e25).epsilon(kPlanArithmetic));
  // FLOPs back to hours: 1e25 / (3600 x 989e12 x 0.4) = 1e25 / 1.42416e18 chip-hours.
  const TrainingBudget flops = training_budget_from_flops(1e25, plan_h100(), "--compute");
  CHECK(flops.gpu_hours == Approx(1e25 / 1.42416e18).epsilon(kPlanArithmetic));
  for (const double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    CHECK_THROWS_WITH(training_budget_from_usd(bad, t, "problem.pretraining_budget_usd"),
                      Catch::StartsWith("problem.pretraining_budget_usd"));
  }
  t.usd_per_chip_hour = 0.0;
  CHECK_THROWS_WITH(training_budget_from_usd(1e6, t, "--budget-usd"),
                    Catch::StartsWith("training.usd_per_chip_hour"));
}

TEST_CASE("the best model a pretraining budget buys is Chinchilla's point of its FLOPs",
          "[training_plan]") {
  const LossLaw law = loss_law_preset("epoch2024");
  for (const double compute : {1e21, 1.708992e25, 1e27}) {
    CAPTURE(compute);
    const LifetimePlan plan =
        solve_lifecycle(lifecycle_terms(LossTerm(law), flops_cost_model(1e12), CostUnit::flops),
                        LifecycleQuestion::within_pretraining_compute(compute, "a test's budget"));
    INFO(plan.solve.message << "; " << plan.reference_message);
    REQUIRE(plan.solve.converged());
    const PlanPoint50 ref = plan_chinchilla50(law, Real50(compute));
    CHECK(relative_difference(plan.params, ref.params) < kPlanReference);
    CHECK(relative_difference(plan.pretrain_tokens, ref.tokens) < kPlanReference);
    // Serving the demand is costed beside it, not paid from the budget: 2 N T.
    CHECK(plan.cost.inference.flops == Approx(2.0 * plan.params * 1e12).epsilon(kPlanArithmetic));
  }
  SECTION("a token cap below Chinchilla's D: D at the cap, N = C / (6 D_max)") {
    const double compute = 1e24;
    const PlanPoint50 free = plan_chinchilla50(law, Real50(compute));
    const double cap = 0.5 * free.tokens.convert_to<double>();
    LifecycleQuestion question =
        LifecycleQuestion::within_pretraining_compute(compute, "a test's budget");
    question.with_token_cap(cap);
    const LifetimePlan plan = solve_lifecycle(
        lifecycle_terms(LossTerm(law), flops_cost_model(0.0), CostUnit::flops), question);
    REQUIRE(plan.solve.converged());
    CHECK(plan.pretrain_tokens == Approx(cap).epsilon(kPlanReference));
    CHECK(relative_difference(plan.params, Real50(compute) / (6 * Real50(cap))) < kPlanReference);
  }
}

TEST_CASE("a cap on the pretraining FLOPs at a target loss, inactive and active",
          "[training_plan]") {
  const LossLaw law = loss_law_preset("hoffmann2022");
  const double target = 2.0, inference = 1e13;
  const LifetimePlan free_plan = plan_at_loss_with_cap(law, target, inference, std::nullopt);
  REQUIRE(free_plan.solve.converged());
  const double free_flops = 6.0 * free_plan.params * free_plan.pretrain_tokens;
  SECTION("inactive: the answer is unchanged and the multiplier 0") {
    const LifetimePlan plan = plan_at_loss_with_cap(law, target, inference, 2.0 * free_flops);
    REQUIRE(plan.solve.converged());
    CHECK(plan.params == Approx(free_plan.params).epsilon(1e-9));
    REQUIRE(plan.solve.inequality_multipliers.size() == 1);
    CHECK(std::fabs(plan.solve.inequality_multipliers[0]) < 1e-9);
  }
  SECTION("active: the isoloss curve's smaller N at the cap, mu = -d ln cost* / d ln C_max") {
    // The free plan is overtrained (inference pulls N down); a cap below its FLOPs but above the
    // target's least FLOPs moves N up towards Chinchilla's point.
    const auto co = coefficients_of<double>(law);
    const double least = compute_for_loss(co, target);
    REQUIRE(least < free_flops);
    const double cap = std::sqrt(least * free_flops);
    const LifetimePlan plan = plan_at_loss_with_cap(law, target, inference, cap);
    INFO(plan.solve.message << "; " << plan.reference_message);
    REQUIRE(plan.solve.converged());
    CHECK(plan.solve.kkt_residual < 1e-7);
    const Real50 n = plan_capped_params50(law, target, cap);
    CHECK(relative_difference(plan.params, n) < kPlanReference);
    CHECK(6.0 * plan.params * plan.pretrain_tokens == Approx(cap).epsilon(kPlanReference));
    CHECK(plan.reference_relative_difference < kPlanReference);
    // The multiplier against a central difference of the 50-digit optimal cost, C + 2 N T on
    // the cap: h = 1e-4 in ln C_max leaves an O(h^2) = 1e-8 error, far below the 1e-5 checked.
    const double h = 1e-4;
    const auto log_cost = [&](double c) {
      const Real50 params = plan_capped_params50(law, target, c);
      return log(Real50(c) + 2 * params * Real50(inference));
    };
    const Real50 slope = (log_cost(cap * std::exp(h)) - log_cost(cap * std::exp(-h))) / (2 * h);
    REQUIRE(plan.solve.inequality_multipliers.size() == 1);
    CHECK(relative_difference(plan.solve.inequality_multipliers[0], -slope) < 1e-5);
  }
  SECTION("below the cap's Chinchilla loss: infeasible, naming the cap") {
    const double cap = 0.5 * compute_for_loss(coefficients_of<double>(law), target);
    const LifetimePlan plan = plan_at_loss_with_cap(law, target, inference, cap);
    CHECK(plan.solve.status == Status::infeasible);
    CHECK_THAT(plan.solve.message,
               Catch::Contains("a test's cap") && Catch::Contains("lowest loss"));
  }
}

TEST_CASE("a lifetime budget with a cap on the pretraining FLOPs: both bind in closed form",
          "[training_plan]") {
  // FLOPs model: cost = 6 N D + 2 N T. On the cap 6 N D = C the budget gives C + 2 N T = B, so
  // N = (B - C) / (2 T) and D = C / (6 N), while N stays below Chinchilla's point of C.
  const LossLaw law = loss_law_preset("hoffmann2022");
  const double inference = 1e15, budget = 1e25;
  const LifetimePlan free_plan = solve_lifecycle(
      lifecycle_terms(LossTerm(law), flops_cost_model(inference), CostUnit::flops, 1e7),
      LifecycleQuestion::within_budget(budget));
  REQUIRE(free_plan.solve.converged());
  const double cap = 0.5 * 6.0 * free_plan.params * free_plan.pretrain_tokens;
  LifecycleQuestion question = LifecycleQuestion::within_budget(budget);
  question.with_deadline(cap, "a test's cap");
  const LifetimePlan plan = solve_lifecycle(
      lifecycle_terms(LossTerm(law), flops_cost_model(inference), CostUnit::flops, 1e7), question);
  INFO(plan.solve.message << "; " << plan.reference_message);
  REQUIRE(plan.solve.converged());
  const Real50 n = (Real50(budget) - Real50(cap)) / (2 * Real50(inference));
  REQUIRE(n < plan_chinchilla50(law, Real50(cap)).params);
  CHECK(relative_difference(plan.params, n) < kPlanReference);
  CHECK(relative_difference(plan.pretrain_tokens, Real50(cap) / (6 * n)) < kPlanReference);
  CHECK(plan.reference_relative_difference < kPlanReference);
}

namespace {

// A dollar question on H100s: 8K-context serving of 1M tokens/s for a year at fixed MFUs
// (costs linear in N), pretraining at $2/h and MFU 0.4; `extra` adds [training] keys.
std::string plan_scenario_text(const std::string& problem, const std::string& training_extra) {
  return R"([law]
preset = "hoffmann2022"
[training]
hardware = "h100-sxm"
usd_per_chip_hour = "$2/h"
mfu = 0.4
)" + training_extra +
         R"(
[inference]
hardware = "h100-sxm"
usd_per_chip_hour = "$2/h"
pricing = "mfu"
prefill_mfu = 0.5
decode_mfu = 0.1
rate = "1M/s"
duration = "1y"
output_fraction = 0.3
[problem]
)" + problem;
}

QuestionSolution plan_solve_text(const std::string& text) {
  const Scenario scenario = load_scenario_text(text, "plan.toml");
  return solve_question(scenario, *scenario.law, scenario.problem);
}

}  // namespace

TEST_CASE("a deadline on given chips: the plan's FLOPs are what the cluster computes by then",
          "[training_plan]") {
  const std::string problem = "kind = \"min-lifetime-cost\"\ntarget_loss = 1.95\n";
  const QuestionSolution free = plan_solve_text(plan_scenario_text(problem, "chips = \"16K\"\n"));
  REQUIRE(free.status() == Status::converged);
  // 16K = 16,000 chips (counts are decimal) x 989e12 x 0.4 FLOP/s: the free plan's days.
  const double rate = 16000.0 * 989e12 * 0.4;
  const double free_days = free.answer.plan.cost.pretrain.flops / rate / 86400.0;
  CHECK(free.answer.training.chips == 16000.0);
  CHECK(free.answer.training.days == Approx(free_days).epsilon(kPlanArithmetic));
  CHECK(std::isnan(free.answer.training.deadline_value_per_day));
  SECTION("a deadline the free plan meets does not bind") {
    const std::string deadline = "deadline = \"" + std::to_string(2.0 * free_days) + "d\"\n";
    const QuestionSolution s =
        plan_solve_text(plan_scenario_text(problem, "chips = \"16K\"\n" + deadline));
    REQUIRE(s.status() == Status::converged);
    CHECK(s.answer.plan.params == Approx(free.answer.plan.params).epsilon(1e-9));
    CHECK(std::fabs(s.answer.training.deadline_value_per_day) <
          1e-9 * s.answer.plan.cost.total().usd);
  }
  SECTION("a shorter deadline binds: 6 N D = deadline x chips x peak x MFU, a day's worth") {
    const double days = 0.6 * free_days;
    const auto solve_at = [&](double d) {
      return plan_solve_text(plan_scenario_text(
          problem, "chips = \"16K\"\ndeadline = \"" + std::to_string(d) + "d\"\n"));
    };
    const QuestionSolution s = solve_at(days);
    INFO(s.message());
    REQUIRE(s.status() == Status::converged);
    const double days_given = std::stod(std::to_string(days));
    CHECK(s.answer.plan.cost.pretrain.flops ==
          Approx(days_given * 86400.0 * rate).epsilon(kPlanReference));
    CHECK(s.answer.training.days == Approx(days_given).epsilon(kPlanReference));
    CHECK(s.answer.plan.cost.total().usd > free.answer.plan.cost.total().usd);
    // The value of a day against the optimal cost's central difference over +-0.001 day: the
    // value falls ~1.6% per 0.001 day here, so the difference's O(h^2) error is ~1e-5.
    const double h = 0.001;
    const double slope =
        (solve_at(days - h).answer.plan.cost.total().usd -
         solve_at(days + h).answer.plan.cost.total().usd) /
        (std::stod(std::to_string(days + h)) - std::stod(std::to_string(days - h)));
    CHECK(s.answer.training.deadline_value_per_day == Approx(slope).epsilon(1e-3));
  }
  SECTION("the chips free: the deadline needs whole nodes, and constrains nothing") {
    const QuestionSolution s = plan_solve_text(plan_scenario_text(problem, "deadline = \"30d\"\n"));
    REQUIRE(s.status() == Status::converged);
    CHECK(s.answer.plan.params == Approx(free.answer.plan.params).epsilon(1e-9));
    const double chip_seconds = s.answer.plan.cost.pretrain.flops / (989e12 * 0.4);
    const double nodes = std::ceil(chip_seconds / (30.0 * 86400.0) / 8.0);
    CHECK(s.answer.training.chips == 8.0 * nodes);
    CHECK(s.answer.training.days <= 30.0);
    CHECK(s.answer.training.days > 30.0 * (nodes - 1.0) / nodes);
    CHECK(std::isnan(s.answer.training.deadline_value_per_day));
  }
}

TEST_CASE("best-at-pretraining-budget from a scenario: $30M on H100s at $2.50/h",
          "[training_plan]") {
  const QuestionSolution s = plan_solve_text(R"([law]
preset = "epoch2024"
[training]
hardware = "h100-sxm"
usd_per_chip_hour = "$2.5/h"
[problem]
kind = "best-at-pretraining-budget"
pretraining_budget_usd = "$30M"
)");
  INFO(s.message());
  REQUIRE(s.status() == Status::converged);
  // 1.708992e25 FLOPs (above); Hoffmann's Eq. 4 with Epoch's refit in 50 digits.
  const PlanPoint50 ref = plan_chinchilla50(loss_law_preset("epoch2024"), Real50(1.708992e25));
  CHECK(relative_difference(s.answer.plan.params, ref.params) < kPlanReference);
  CHECK(s.answer.plan.cost.pretrain.usd == Approx(30e6).epsilon(kPlanReference));
  CHECK(s.answer.training.budget_value > 0.0);
}

TEST_CASE("hostile planning values are refused with the field named", "[training_plan]") {
  const std::string problem = "kind = \"min-lifetime-cost\"\ntarget_loss = 1.95\n";
  const auto refused = [&](const std::string& training, const std::string& field) {
    CAPTURE(training);
    CHECK_THROWS_WITH(plan_solve_text(plan_scenario_text(problem, training)),
                      Catch::Contains(field));
  };
  refused("deadline = 0\n", "training.deadline");
  refused("deadline = \"-3d\"\n", "training.deadline");
  refused("deadline = 1e400\n", "training.deadline");
  refused("goodput = -0.5\n", "training.goodput");
  refused("goodput = 1.5\n", "training.goodput");
  refused("goodput = 0\n", "training.goodput");
  refused("chips = 8\nmax_chips = 16\n", "training.max_chips");
  refused("max_chips = 0.5\n", "training.max_chips");
  const auto refused_problem = [&](const std::string& text, const std::string& field) {
    CAPTURE(text);
    CHECK_THROWS_WITH(plan_solve_text(plan_scenario_text(text, "")), Catch::Contains(field));
  };
  refused_problem("kind = \"best-at-pretraining-budget\"\n", "problem.pretraining_budget_usd");
  refused_problem(
      "kind = \"best-at-pretraining-budget\"\npretraining_budget_usd = 1e6\n"
      "pretraining_budget_gpu_hours = 1e6\n",
      "problem.pretraining_budget_usd");
  refused_problem("kind = \"best-at-pretraining-budget\"\npretraining_budget_usd = -5\n",
                  "problem.pretraining_budget_usd");
  refused_problem("kind = \"best-at-pretraining-budget\"\npretraining_budget_gpu_hours = 1e400\n",
                  "problem.pretraining_budget_gpu_hours");
}
