// Fuzzes the scenario loader (scenario/scenario.hpp) and what `scaleopt cost` and `scaleopt solve`
// do with a scenario that loads. Input: the TOML document, then up to four `--set KEY=VALUE`
// overrides, each after a NUL byte (TOML text cannot hold NUL, so the split is unambiguous).
// Invariants:
//  - loading returns a scenario or throws InputError; nothing else escapes (here or below);
//  - the cost and the solve of a loaded scenario are an answer or an InputError;
//  - their tables print no nan or inf, and their JSON dumps and parses back;
//  - a solve reported converged prints finite N, D and loss, and agrees with its independent
//    1-D reduction to 1e-6 (the stress run, scaleopt selftest, checks 1e-8 on valid problems;
//    fuzzed problems may be far outside them, so only gross disagreement is flagged here);
//  - where the fast path of sweeps and Monte Carlo applies, it gives the same verdict and,
//    when both converge, the same N and D to 1e-6, with finite figures.

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "fuzz/fuzz_checks.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/report/cost_output.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/scenario/scenario.hpp"

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

void check_cost(const scaleopt::Scenario& scenario, const std::string& input) {
  using namespace scaleopt;
  PhaseCosts cost;
  try {
    cost = phase_costs(scenario);
  } catch (const InputError&) {
    return;
  }
  std::ostringstream table;
  cli::print_cost(table, scenario, cost);
  check_output(table.str(), report::cost_json(scenario, cost), input);
}

void check_answer(const scaleopt::QuestionAnswer& answer, const std::string& input) {
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

// The plan of `fast` that answers the question `nlopt` answers (equal-cost: the optimum).
void check_fast_plan(const scaleopt::AnswerSummary& fast, const scaleopt::QuestionAnswer& nlopt,
                     const std::string& input) {
  using scaleopt::Status;
  const Status nlopt_status = nlopt.plan.solve.status;
  std::ostringstream evidence;
  evidence.precision(17);
  evidence << "fast path " << to_string(fast.status) << ": N " << fast.active_params << ", D "
           << fast.pretrain_tokens << "; NLopt " << to_string(nlopt_status) << ": N "
           << nlopt.plan.params << ", D " << nlopt.plan.pretrain_tokens << "\n--- input ---\n"
           << input;
  if ((fast.status == Status::infeasible) != (nlopt_status == Status::infeasible) &&
      (fast.status == Status::converged || nlopt_status == Status::converged)) {
    invariant_broken("the fast path and NLopt disagree on feasibility", evidence.str());
  }
  if (fast.status != Status::converged) return;
  if (!(std::isfinite(fast.active_params) && std::isfinite(fast.pretrain_tokens) &&
        std::isfinite(fast.loss) && std::isfinite(fast.cost.total().flops))) {
    invariant_broken("a converged fast-path plan is not finite", evidence.str());
  }
  if (nlopt_status != Status::converged) return;
  const double gap = std::max(std::fabs(fast.active_params / nlopt.plan.params - 1.0),
                              std::fabs(fast.pretrain_tokens / nlopt.plan.pretrain_tokens - 1.0));
  if (!(gap <= kGrossDisagreement)) {
    invariant_broken("the fast path and NLopt give different plans", evidence.str());
  }
}

void check_fast_path(const scaleopt::Scenario& scenario, const scaleopt::QuestionSolution& solution,
                     const std::string& input) {
  using namespace scaleopt;
  const std::optional<QuestionSummary> fast =
      solve_question_fast(question_setup(scenario, *scenario.law, scenario.problem));
  if (!fast) return;
  if (solution.optimum) {
    check_fast_plan(fast->optimum, *solution.optimum, input);
  } else {
    check_fast_plan(fast->answer, solution.answer, input);
  }
}

void check_solve(const scaleopt::Scenario& scenario, const std::string& input) {
  using namespace scaleopt;
  if (!scenario.problem_given || !scenario.law) return;
  QuestionSolution solution;
  try {
    solution = solve_question(scenario, *scenario.law, scenario.problem);
  } catch (const InputError&) {
    return;
  }
  check_fast_path(scenario, solution, input);
  if (solution.status() == Status::infeasible) return;  // the CLI reports it as an error
  check_answer(solution.answer, input);
  if (solution.optimum) check_answer(*solution.optimum, input);
  std::ostringstream table;
  cli::print_solution(table, scenario, *scenario.law, solution);
  check_output(table.str(), report::solution_json(scenario, *scenario.law, solution), input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scaleopt;
  const std::vector<std::string> parts =
      fuzz::split_at_nul(fuzz::as_text(data, size), kMaxOverrides);
  const std::vector<std::string> overrides(parts.begin() + 1, parts.end());
  scaleopt::Scenario scenario;
  try {
    scenario = scaleopt::load_scenario_text(parts[0], "fuzz.toml", overrides);
  } catch (const InputError&) {
    return 0;
  }
  std::string input(fuzz::as_text(data, size));
  check_cost(scenario, input);
  check_solve(scenario, input);
  return 0;
}
