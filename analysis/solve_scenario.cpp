#include "scaleopt/analysis/solve_scenario.hpp"

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt {

void refuse_unanswerable(const Scenario& scenario, const QuestionSolution& solution) {
  if (solution.status() == Status::infeasible) {
    throw InputError(scenario.file + ": infeasible: " + solution.message());
  }
  if (solution.status() == Status::invalid_input) {
    const std::string extreme = extreme_inputs(scenario);
    throw InputError(
        scenario.file + ": " + solution.message() +
        (extreme.empty() ? "" : " (inputs beyond 1e30 or below 1e-30: " + extreme + ")"));
  }
}

QuestionSolution solve_scenario(const Scenario& scenario, const SolverOptions& options,
                                SolveMethod method) {
  options.validate();  // first: its errors name the option, not the scenario's file
  if (!scenario.problem_given) {
    throw InputError(scenario.file +
                     ": problem.kind: required by solve (min-lifetime-flops, min-lifetime-cost, "
                     "equal-cost or max-quality); see docs/scenario.md");
  }
  if (!scenario.law) throw InputError(scenario.file + ": law: a [law] table is required by solve");
  QuestionSolution solution;
  try {
    solution =
        solve_question(question_setup(scenario, *scenario.law, scenario.problem), options, method);
  } catch (const InputError& e) {
    throw InputError(scenario.file + ": " + e.what());  // e names the key
  }
  refuse_unanswerable(scenario, solution);
  return solution;
}

}  // namespace scaleopt
