// Lifecycle questions with limited data (the repetition transform of the loss term, the cap on
// the pretraining tokens): NLopt's optimum against a 50-digit reference built here from the
// datablations README's formula, with the KKT check, on both sides of the kink (D above and
// below U_D); the cap active and inactive with its multiplier; the floor; and a stock so large
// that nothing repeats giving today's answer.

#include <catch2/catch.hpp>
#include <cmath>

#include "repeated_loss50.hpp"
#include "scaleopt/costmodel/data_repetition.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

using boost::multiprecision::exp;
using boost::multiprecision::log;
using boost::multiprecision::pow;

// NLopt against the 50-digit reference: 1e-7 relative in N and D. The optimum is flat in cost
// (a quadratic minimum), so N and D are known to about the square root of the KKT tolerance's
// effect on the objective; 1e-7 is well above that and far below any difference that matters.
constexpr double kDataLimitReference = 1e-7;

struct DataLimitReference {
  Real50 params, tokens;
};

// The cheapest plan at `target` under 6 N D + 2 N T FLOPs: for each ln N the ln D on the
// target by bisection, the cost minimised over ln N in [ln 1e9, ln 1e11] by golden section (60
// steps: to 1e-12 in ln N), all in 50 digits.
DataLimitReference reference_at_loss(const LossLaw& law, double target, double inference,
                                     double stock) {
  const Real50 t(target), T(inference), U(stock);
  auto log_tokens_for = [&](const Real50& u) -> Real50 {
    // ln D in [ln 1e9, ln 1e15], 100 halvings: to 1e-29, so that the cost the golden section
    // compares is smooth to far below its curvature over the 1e-7 the check needs.
    Real50 lo(std::log(1e9)), hi(std::log(1e15));
    for (int i = 0; i < 100; ++i) {
      const Real50 mid = (lo + hi) / 2;
      (repeated50::loss(law, exp(u), exp(mid), U) > t ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
  };
  auto cost = [&](const Real50& u) -> Real50 {
    const Real50 n = exp(u);
    return 6 * n * exp(log_tokens_for(u)) + 2 * n * T;
  };
  const Real50 u =
      repeated50::golden_section_minimum(cost, Real50(std::log(1e9)), Real50(std::log(1e11)), 60);
  return {exp(u), exp(log_tokens_for(u))};
}

LossTerm limited_loss(const LossLaw& law, double stock) {
  LossTerm loss(law);
  loss.then(std::make_shared<const RepetitionTransform>(law, stock));
  return loss;
}

LifetimePlan cheapest_at_loss(const LossTerm& loss, double target, double inference,
                              std::optional<double> cap = std::nullopt) {
  LifecycleQuestion question = LifecycleQuestion::at_target_loss(target);
  if (cap) question.with_token_cap(*cap);
  return solve_lifecycle(lifecycle_terms(loss, flops_cost_model(inference), CostUnit::flops),
                         question);
}

}  // namespace

TEST_CASE("min-lifetime-flops with repeated data against a 50-digit reference", "[data_limit]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  const double target = 2.25, inference = 1e11;
  // 25B unique: both decays bite (N above D_to_N(U_D), ~7.6 epochs); 1T: D below U_D, nothing
  // repeats. (Each reference takes ~3000 evaluations in 50 digits, hence two stocks; the stress
  // run's data-limit class covers the rest against the library's reduction.)
  for (const double stock : {25e9, 1e12}) {
    CAPTURE(stock);
    const LifetimePlan plan = cheapest_at_loss(limited_loss(law, stock), target, inference);
    INFO(plan.solve.message << "; " << plan.reference_message);
    REQUIRE(plan.solve.converged());
    CHECK(plan.solve.kkt_residual < 1e-7);
    CHECK(plan.loss == Approx(target).epsilon(1e-10));
    const DataLimitReference ref = reference_at_loss(law, target, inference, stock);
    CHECK(relative_difference(plan.params, ref.params) < kDataLimitReference);
    CHECK(relative_difference(plan.pretrain_tokens, ref.tokens) < kDataLimitReference);
    // The library's own reduction (problems/data_limit/) agrees too.
    CHECK(plan.reference_relative_difference < 1e-8);
    if (stock == 1e12) {
      CHECK(plan.pretrain_tokens < stock);
    } else {
      CHECK(plan.pretrain_tokens > stock);
    }
  }
}

TEST_CASE("a stock the plan does not exhaust gives today's answer", "[data_limit]") {
  const LossLaw law = loss_law_preset("hoffmann2022");
  for (const double inference : {1e12, 1e14}) {
    const LifetimePlan today = cheapest_at_loss(LossTerm(law), 2.0, inference);
    // 1e30 unique tokens, and a stock just 10% above today's tokens: nothing repeats.
    for (const double stock : {1e30, 1.1 * today.pretrain_tokens}) {
      const LifetimePlan limited = cheapest_at_loss(limited_loss(law, stock), 2.0, inference);
      INFO(limited.solve.message << "; " << limited.reference_message);
      REQUIRE(limited.solve.converged());
      // Two NLopt solves of the same smooth problem from the same start: to their tolerance.
      CHECK(limited.params == Approx(today.params).epsilon(1e-9));
      CHECK(limited.pretrain_tokens == Approx(today.pretrain_tokens).epsilon(1e-9));
    }
  }
}

TEST_CASE("max-quality with repeated data agrees with its reduction", "[data_limit]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  for (const double stock : {25e9, 1e12}) {
    const LifetimePlan plan = solve_lifecycle(
        lifecycle_terms(limited_loss(law, stock), flops_cost_model(1e11), CostUnit::flops, 1e7),
        LifecycleQuestion::within_budget(1e22));
    REQUIRE(plan.solve.converged());
    CHECK(plan.solve.kkt_residual < 1e-7);
    CHECK(plan.cost.total().flops == Approx(1e22).epsilon(1e-9));
    CHECK(plan.reference_relative_difference < 1e-8);
  }
}

TEST_CASE("the cap on pretraining tokens, active and inactive, with its multiplier",
          "[data_limit]") {
  const LossLaw law = loss_law_preset("hoffmann2022");
  const double target = 2.0, inference = 1e13;
  const LifetimePlan free_plan = cheapest_at_loss(LossTerm(law), target, inference);
  REQUIRE(free_plan.solve.converged());
  SECTION("inactive: the answer is unchanged and the multiplier 0") {
    const LifetimePlan plan =
        cheapest_at_loss(LossTerm(law), target, inference, 2 * free_plan.pretrain_tokens);
    REQUIRE(plan.solve.converged());
    CHECK(plan.pretrain_tokens == Approx(free_plan.pretrain_tokens).epsilon(1e-9));
    REQUIRE(plan.solve.inequality_multipliers.size() == 1);
    CHECK(std::fabs(plan.solve.inequality_multipliers[0]) < 1e-9);
  }
  SECTION("active: D at the cap, N from the target, mu = d ln cost / d ln cap reversed") {
    const double cap = 0.25 * free_plan.pretrain_tokens;
    const LifetimePlan plan = cheapest_at_loss(LossTerm(law), target, inference, cap);
    INFO(plan.solve.message << "; " << plan.reference_message);
    REQUIRE(plan.solve.converged());
    CHECK(plan.solve.kkt_residual < 1e-7);
    CHECK(plan.pretrain_tokens == Approx(cap).epsilon(1e-10));
    // 50 digits: A N^-alpha = target - E - B cap^-beta, cost = 6 N cap + 2 N T; along the
    // target d ln N / d ln cap = -(beta B cap^-beta) / (alpha A N^-alpha).
    const Real50 A(law.A), B(law.B), a(law.alpha), b(law.beta), E(law.E), C(cap), T(inference);
    const Real50 data = B * pow(C, -b), params_term = Real50(target) - E - data;
    const Real50 n = pow(A / params_term, 1 / a);
    CHECK(relative_difference(plan.params, n) < 1e-9);
    const Real50 cost = 6 * n * C + 2 * n * T;
    const Real50 dlnn = -(b * data) / (a * params_term);
    const Real50 dlncost = (6 * n * C * (1 + dlnn) + 2 * n * T * dlnn) / cost;
    REQUIRE(plan.solve.inequality_multipliers.size() == 1);
    // The multiplier from the KKT least squares: to the KKT tolerance.
    CHECK(relative_difference(plan.solve.inequality_multipliers[0], -dlncost) < 1e-6);
    CHECK(plan.reference_relative_difference < 1e-8);
  }
}

TEST_CASE("a target at or below the floor of the stock is infeasible, naming the floor",
          "[data_limit]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  const double stock = 25e9;
  const double floor = data_constrained_loss_floor(law, stock);
  const LifetimePlan plan = cheapest_at_loss(limited_loss(law, stock), floor - 1e-3, 1e11);
  CHECK(plan.solve.status == Status::infeasible);
  CHECK_THAT(plan.solve.message, Catch::Contains("data.unique_tokens = 25B") &&
                                     Catch::Contains("lowest loss") &&
                                     Catch::Contains("U_D (1 + R_D*)"));
  // Just above the floor it is reachable (with many epochs).
  const LifetimePlan above = cheapest_at_loss(limited_loss(law, stock), floor + 0.05, 1e11);
  INFO(above.solve.message << "; " << above.reference_message);
  CHECK(above.solve.converged());
}

TEST_CASE("max-quality with a cap where the replica's largest model still affords the cap",
          "[data_limit]") {
  // Instance 15919 of `scaleopt selftest --seed 1`: the weights fill the replica (N at most
  // 4.3e10) before the budget curve falls to the cap, so every N allowed affords D at the cap.
  // The loss falls with N and with D, so the best plan is the largest N with the cap's tokens;
  // the reduction found no bracket for the meeting of the budget curve and the cap.
  const Scenario scenario = load_scenario_text(R"([law]
name = "stress"
source = "scaleopt selftest"
E = 1.6853474778404745
A = 533.51223871427521
B = 418.46478631138206
alpha = 0.34734431793995746
beta = 0.26441770748398996
repeat_decay_tokens = 16.040264780194747
repeat_decay_params = 9.6864159110267174

[hardware.stress-train]
name = "selftest chip stress-train"
source = "made up"
bf16 = 6871345548021614
hbm_bandwidth = 1980398708487.2183
hbm = 70079536818.158157

[hardware.stress-serve]
name = "selftest chip stress-serve"
source = "made up"
bf16 = 1667161140246958.5
hbm_bandwidth = 1183990769581.8284
hbm = 100966532817.71751

[architecture]
total_params = 1000000000
active_params = 1000000000
kv_bytes_per_token = 303048.0256634939

[training]
hardware = "stress-train"
precision = "bf16"
mfu = 0.20068768388459648
usd_per_chip_hour = 5.0841915547251277

[inference]
hardware = "stress-serve"
chips = 1
precision = "bf16"
kv_precision = "bf16"
context = 49206
usd_per_chip_hour = 0.25814716552917882
pricing = "roofline"
compute_efficiency = 0.62409830395878119
bandwidth_efficiency = 0.050753904437163891
tokens = 208581132.66924477
output_fraction = 0.05477956149859442

[data]
unique_tokens = 377240082118.21356

[problem]
kind = "max-quality"
budget_usd = 264875.08979693381
max_pretrain_tokens = 273114064790.46619
)",
                                               "instance.toml");
  REQUIRE(scenario.law);
  const QuestionSetup setup = question_setup(scenario, *scenario.law, scenario.problem);
  const double cap = 273114064790.46619, budget = 264875.08979693381;
  const double largest = setup.model.max_params;
  // Below the 5.05e10 bf16 (2-byte) weights that fill the serving chip's 100.97 GB: the KV
  // cache of the 49,206-token context takes the rest.
  CHECK(largest < 100966532817.71751 / 2);
  CHECK(largest > 1e10);
  // The plan at the corner is within the budget, so no larger D is priced out: the cap binds.
  CHECK(setup.model.total(CostUnit::usd, largest, cap).value < budget);
  const LifetimePlan reference = lifecycle_reference(setup.terms(), setup.question());
  INFO(reference.solve.message);
  REQUIRE(reference.solve.converged());
  CHECK(reference.params == Approx(largest).epsilon(1e-12));
  CHECK(reference.pretrain_tokens == Approx(cap).epsilon(1e-12));
  const QuestionSolution solution = solve_question(scenario, *scenario.law, scenario.problem);
  INFO(solution.message());
  REQUIRE(solution.answer.plan.solve.converged());
  CHECK(solution.answer.plan.params == Approx(largest).epsilon(1e-8));
  CHECK(solution.answer.plan.pretrain_tokens == Approx(cap).epsilon(1e-8));
}
