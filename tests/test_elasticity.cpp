// Elasticities d ln y / d ln p by the implicit-function theorem on the KKT system, against
// central finite differences of re-solved optima (NLopt), for every numeric input of the two
// examples; the equal-cost heuristic's closed-form elasticities; and the known signs.

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>

#include "example_path.hpp"
#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/question/question_elasticity.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

using namespace scaleopt;

namespace {

// The plan the elasticities are about: the optimum (equal-cost: its true optimum).
const LifetimePlan& optimum_plan(const QuestionSolution& solution) {
  return solution.optimum ? solution.optimum->plan : solution.answer.plan;
}

std::optional<OutputValues> resolved_outputs(const ScaledSetup& scaled, double log_scale) {
  QuestionSetup setup;
  try {
    setup = scaled(log_scale);
  } catch (const InputError&) {
    return std::nullopt;
  }
  const QuestionSolution solution = solve_question(setup);
  REQUIRE(solution.status() == Status::converged);
  const LifetimePlan& plan = optimum_plan(solution);
  return outputs_at(setup, std::log(plan.params), std::log(plan.pretrain_tokens));
}

// d ln y / d ln p by re-solving at ln p +- h (one-sided where p cannot move one way, with the
// same second-order stencils as the library). h = 1e-4: truncation ~h^2 = 1e-8 relative to the
// curvature, and the re-solved optima (polished to ~1e-15) add ~1e-15 / h = 1e-11.
std::optional<OutputValues> finite_difference(const ScaledSetup& scaled) {
  constexpr double h = 1e-4;
  const auto plus = resolved_outputs(scaled, h);
  const auto minus = resolved_outputs(scaled, -h);
  OutputValues d{};
  if (plus && minus) {
    for (std::size_t j = 0; j < d.size(); ++j) {
      d[j] = (std::log((*plus)[j]) - std::log((*minus)[j])) / (2 * h);
    }
  } else if (plus || minus) {
    const double s = plus ? h : -h;
    const auto zero = resolved_outputs(scaled, 0.0);
    const auto one = plus ? plus : minus;
    const auto two = resolved_outputs(scaled, 2 * s);
    for (std::size_t j = 0; j < d.size(); ++j) {
      d[j] = (-3 * std::log((*zero)[j]) + 4 * std::log((*one)[j]) - std::log((*two)[j])) / (2 * s);
    }
  } else {
    return std::nullopt;
  }
  return d;
}

// `relative`: the tolerance relative to the re-solved elasticity (see the callers).
void check_every_input(const char* name, const std::vector<std::string>& overrides = {},
                       double relative = 1e-5) {
  const scaleopt::Scenario scenario = scaleopt::load_scenario(example(name), overrides);
  const QuestionSetup base = scaleopt::scenario_setup(scenario);
  const QuestionSolution solution = solve_question(base);
  REQUIRE(solution.status() == Status::converged);
  const LifetimePlan& plan = optimum_plan(solution);
  const double optimum[2] = {std::log(plan.params), std::log(plan.pretrain_tokens)};
  int compared = 0;
  for (const scaleopt::NumericInput& input : scaleopt::numeric_inputs(scenario)) {
    const ScaledSetup scaled = scaleopt::scaled_setup(scenario, input.path);
    const Elasticity ift = optimum_elasticity(base, optimum, scaled);
    const auto fd = finite_difference(scaled);
    INFO(name << ": " << input.path << " (" << ift.stencil << "): " << ift.message);
    if (!fd) {
      CHECK(ift.status == Status::invalid_input);  // neither can move the input
      continue;
    }
    REQUIRE(ift.status == Status::converged);
    ++compared;
    for (std::size_t j = 0; j < kElasticityOutputs.size(); ++j) {
      INFO(kElasticityOutputs[j] << ": IFT " << ift.values[j] << ", re-solved " << (*fd)[j]);
      // 1e-5 relative, as the issue asks; they agree to 8e-7 at worst (law.alpha, whose third
      // derivatives make the re-solved differences' h^2 truncation the larger error). Outputs that
      // do not move (the loss at a target, the cost at a budget) come out at ~1e-9 by the IFT:
      // the Hessian's differences (~1e-10) times the conditioning of the KKT matrix; hence
      // the absolute floor of 1e-8, far below the elasticities of interest (~1e-2 to 1).
      CHECK(std::fabs(ift.values[j] - (*fd)[j]) <= relative * std::fabs((*fd)[j]) + 1e-8);
    }
  }
  CHECK(compared >= 10);
}

double elasticity_of(const scaleopt::Scenario& scenario, const std::string& path,
                     std::size_t output) {
  const QuestionSetup base = scaleopt::scenario_setup(scenario);
  const QuestionSolution solution = solve_question(base);
  const LifetimePlan& plan = optimum_plan(solution);
  const double optimum[2] = {std::log(plan.params), std::log(plan.pretrain_tokens)};
  const Elasticity e = optimum_elasticity(base, optimum, scaleopt::scaled_setup(scenario, path));
  REQUIRE(e.status == Status::converged);
  return e.values[output];
}

constexpr std::size_t kParams = 0, kTokens = 1, kLoss = 2, kCost = 3, kOver = 4;

}  // namespace

TEST_CASE("IFT elasticities match re-solved finite differences: sardana_cost.toml",
          "[elasticity]") {
  check_every_input("sardana_cost.toml");
}

TEST_CASE("IFT elasticities match re-solved finite differences: frontier_100x.toml optimum",
          "[elasticity]") {
  check_every_input("frontier_100x.toml");
}

TEST_CASE("IFT elasticities match re-solved finite differences: max-quality at a budget",
          "[elasticity]") {
  // The inequality (the budget) is the active constraint here.
  check_every_input("sardana_cost.toml", {"problem.kind=max-quality", "problem.budget_usd=$20M"});
}

TEST_CASE("IFT elasticities with the roofline: good to a few digits", "[elasticity]") {
  // The roofline's costs are differentiated inside the cost model (central differences, step
  // 1e-6 in ln N, lifetime_cost_from_setup.cpp), and the Hessian differences those again
  // (step 1e-5): ~1e-10 / 1e-5 = 1e-5 relative error in H, amplified by the KKT matrix's
  // conditioning. The largest difference found is 4.3e-4 (docs/sensitivity.md).
  check_every_input("budget_plan.toml", {}, 1e-3);
}

TEST_CASE("known signs: more inference demand means a smaller model on more tokens",
          "[elasticity]") {
  const scaleopt::Scenario cost = scaleopt::load_scenario(example("sardana_cost.toml"));
  CHECK(elasticity_of(cost, "inference.requests", kParams) < 0.0);
  CHECK(elasticity_of(cost, "inference.requests", kTokens) > 0.0);
  // At a fixed target (the equal-cost optimum's target moves with the heuristic's D, which grows
  // with the demand): the talk's model asked for loss 1.9, about the heuristic's.
  const scaleopt::Scenario frontier = scaleopt::load_scenario(
      example("frontier_100x.toml"), {"problem.kind=min-lifetime-cost", "problem.target_loss=1.9"});
  CHECK(elasticity_of(frontier, "inference.rate", kParams) < 0.0);
  CHECK(elasticity_of(frontier, "inference.rate", kTokens) > 0.0);
  CHECK(elasticity_of(frontier, "inference.duration", kParams) < 0.0);
}

TEST_CASE("known signs: cheaper decode means a larger model", "[elasticity]") {
  const scaleopt::Scenario cost = scaleopt::load_scenario(example("sardana_cost.toml"));
  // Cheaper decode: a higher decode MFU, or a lower price of serving chips.
  CHECK(elasticity_of(cost, "inference.decode_mfu", kParams) > 0.0);
  CHECK(elasticity_of(cost, "inference.usd_per_chip_hour", kParams) < 0.0);
  const scaleopt::Scenario frontier = scaleopt::load_scenario(
      example("frontier_100x.toml"), {"problem.kind=min-lifetime-cost", "problem.target_loss=1.9"});
  CHECK(elasticity_of(frontier, "inference.decode_mfu", kParams) > 0.0);
  CHECK(elasticity_of(frontier, "inference.decode_mfu", kTokens) < 0.0);
}

TEST_CASE("at a loss target, the loss does not move with prices; the target moves it one for one",
          "[elasticity]") {
  const scaleopt::Scenario cost = scaleopt::load_scenario(example("sardana_cost.toml"));
  CHECK(std::fabs(elasticity_of(cost, "training.usd_per_chip_hour", kLoss)) < 1e-9);
  CHECK(elasticity_of(cost, "problem.target_loss", kLoss) == Approx(1.0).epsilon(1e-8));
  // Prices of both phases scaled together leave the plan where it is: cost scales 1:1.
  const double train = elasticity_of(cost, "training.usd_per_chip_hour", kParams);
  const double serve = elasticity_of(cost, "inference.usd_per_chip_hour", kParams);
  CHECK(train + serve == Approx(0.0).margin(1e-8));
  const double train_cost = elasticity_of(cost, "training.usd_per_chip_hour", kCost);
  const double serve_cost = elasticity_of(cost, "inference.usd_per_chip_hour", kCost);
  CHECK(train_cost + serve_cost == Approx(1.0).epsilon(1e-8));
}

TEST_CASE("envelope theorem: the cost's elasticity to a phase's price is that phase's share",
          "[elasticity]") {
  // At an optimum, d ln C* / d ln p = (p / C) dC/dp at fixed (N, D) (the plan's own move is
  // second order): for a price that multiplies one phase, its share of the total.
  const scaleopt::Scenario cost = scaleopt::load_scenario(example("sardana_cost.toml"));
  const QuestionSolution solution = solve_question(scaleopt::scenario_setup(cost));
  const CostShares& shares = solution.answer.shares;
  // IFT error ~1e-9 against shares of order 0.3-0.7.
  CHECK(elasticity_of(cost, "inference.usd_per_chip_hour", kCost) ==
        Approx(shares.inference).epsilon(1e-7));
  CHECK(elasticity_of(cost, "training.usd_per_chip_hour", kCost) ==
        Approx(shares.pretrain).epsilon(1e-7));
}

TEST_CASE("equal-cost heuristic: closed-form elasticities of its plan", "[elasticity]") {
  // N is given (the architecture's 100B) and D = (s_pretrain / s_inference) * inference cost
  // per parameter / pretraining cost per N*D, which is proportional to the served tokens, the
  // serving price and the training MFU, and inversely to the training price; the decode MFU
  // enters through T_in / MFU_prefill + T_out / MFU_decode, whose elasticity is -T_out share
  // (prefill and decode MFUs are equal in the example, so -output_fraction = -0.25).
  const scaleopt::Scenario frontier = scaleopt::load_scenario(example("frontier_100x.toml"));
  auto heuristic = [&](const std::string& path) {
    const Elasticity e = heuristic_elasticity(scaleopt::scaled_setup(frontier, path));
    REQUIRE(e.status == Status::converged);
    return e.values;
  };
  // Differences of a closed form with step 1e-5: ~1e-10.
  constexpr double kClosedForm = 1e-8;
  const OutputValues rate = heuristic("inference.rate");
  CHECK(rate[kParams] == Approx(0.0).margin(kClosedForm));
  CHECK(rate[kTokens] == Approx(1.0).epsilon(kClosedForm));
  CHECK(rate[kOver] == Approx(1.0).epsilon(kClosedForm));
  const QuestionSetup base = scaleopt::scenario_setup(frontier);
  const double tokens = base.heuristic.pretrain_tokens;
  const double data_term = base.law().data_term(tokens);
  // d ln L / d ln D = -beta B D^-beta / L.
  CHECK(rate[kLoss] == Approx(-base.law().beta * data_term / base.target_loss).epsilon(1e-7));
  CHECK(heuristic("training.usd_per_chip_hour")[kTokens] == Approx(-1.0).epsilon(kClosedForm));
  CHECK(heuristic("inference.usd_per_chip_hour")[kTokens] == Approx(1.0).epsilon(kClosedForm));
  CHECK(heuristic("training.mfu")[kTokens] == Approx(1.0).epsilon(kClosedForm));
  CHECK(heuristic("inference.decode_mfu")[kTokens] == Approx(-0.25).epsilon(kClosedForm));
  CHECK(heuristic("inference.prefill_mfu")[kTokens] == Approx(-0.75).epsilon(kClosedForm));
  // One chip type for both phases: its peak rate cancels.
  CHECK(heuristic("hardware.h100-sxm.bf16")[kTokens] == Approx(0.0).margin(kClosedForm));
}
