// Fuzzes the scenario loader (cli/scenario.hpp) and what `scaleopt cost` and `scaleopt solve`
// do with a scenario that loads. Input: the TOML document, then up to four `--set KEY=VALUE`
// overrides, each after a NUL byte (TOML text cannot hold NUL, so the split is unambiguous).
// Invariants:
//  - loading returns a scenario or throws InputError; nothing else escapes (here or below);
//  - the cost and the solve of a loaded scenario are an answer or an InputError;
//  - their tables print no nan or inf, and their JSON dumps and parses back;
//  - a solve reported converged prints finite N, D and loss, and agrees with its independent
//    1-D reduction to 1e-6 (the stress run, scaleopt selftest, checks 1e-8 on valid problems;
//    fuzzed problems may be far outside them, so only gross disagreement is flagged here).

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cost_output.hpp"
#include "cli/lifecycle_output.hpp"
#include "cli/scenario.hpp"
#include "costmodel/input_error.hpp"
#include "fuzz/fuzz_checks.hpp"

namespace {

using scaleopt::fuzz::invariant_broken;

constexpr std::size_t kMaxOverrides = 4;
constexpr double kGrossDisagreement = 1e-6;

void check_output(const std::string& table, const nlohmann::ordered_json& json,
                  const std::string& input) {
  if (scaleopt::fuzz::prints_non_finite(table)) {
    invariant_broken("a table prints nan or inf", table + "\n--- input ---\n" + input);
  }
  const std::string dumped = json.dump(2);  // throws on invalid UTF-8: a finding
  if (!nlohmann::json::accept(dumped)) invariant_broken("JSON does not parse back", dumped);
}

void check_cost(const scaleopt::cli::Scenario& scenario, const std::string& input) {
  using namespace scaleopt;
  LifecycleCost cost;
  try {
    cost = lifecycle_cost(scenario);
  } catch (const InputError&) {
    return;
  }
  std::ostringstream table;
  cli::print_cost(table, scenario, cost);
  check_output(table.str(), cli::cost_json(scenario, cost), input);
}

void check_answer(const scaleopt::LifecycleAnswer& answer, const std::string& input) {
  const scaleopt::LifetimePlan& plan = answer.plan;
  if (!plan.solve.converged()) return;
  std::ostringstream evidence;
  evidence.precision(17);
  evidence << "N " << plan.params << ", D " << plan.pretrain_tokens << ", loss " << plan.loss
           << ", reference difference " << plan.reference_relative_difference << "\n"
           << plan.solve.message << "\n--- input ---\n"
           << input;
  if (!(std::isfinite(plan.params) && std::isfinite(plan.pretrain_tokens) &&
        std::isfinite(plan.loss))) {
    invariant_broken("a converged plan is not finite", evidence.str());
  }
  if (plan.reference_relative_difference > kGrossDisagreement) {
    invariant_broken("a converged plan disagrees with its 1-D reduction", evidence.str());
  }
}

void check_solve(const scaleopt::cli::Scenario& scenario, const std::string& input) {
  using namespace scaleopt;
  if (!scenario.problem_given || !scenario.law) return;
  LifecycleSolution solution;
  try {
    solution = solve_lifecycle(scenario, *scenario.law, scenario.problem);
  } catch (const InputError&) {
    return;
  }
  if (solution.status() == Status::infeasible) return;  // the CLI reports it as an error
  check_answer(solution.answer, input);
  if (solution.optimum) check_answer(*solution.optimum, input);
  std::ostringstream table;
  cli::print_solution(table, scenario, *scenario.law, solution);
  check_output(table.str(), cli::solution_json(scenario, *scenario.law, solution), input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scaleopt;
  const std::vector<std::string> parts =
      fuzz::split_at_nul(fuzz::as_text(data, size), kMaxOverrides);
  const std::vector<std::string> overrides(parts.begin() + 1, parts.end());
  cli::Scenario scenario;
  try {
    scenario = cli::load_scenario_text(parts[0], "fuzz.toml", overrides);
  } catch (const InputError&) {
    return 0;
  }
  std::string input(fuzz::as_text(data, size));
  check_cost(scenario, input);
  check_solve(scenario, input);
  return 0;
}
