#include "scaleopt/analysis/solve_scenario.hpp"

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

QuestionSolution solve_scenario(const Scenario& scenario, const SolverOptions& options) {
  if (!scenario.problem_given) {
    throw InputError(scenario.file +
                     ": problem.kind: required by solve (min-lifetime-flops, min-lifetime-cost, "
                     "equal-cost or max-quality); see docs/scenario.md");
  }
  if (!scenario.law) throw InputError(scenario.file + ": law: a [law] table is required by solve");
  QuestionSolution solution;
  try {
    solution = solve_question(scenario, *scenario.law, scenario.problem, options);
  } catch (const InputError& e) {
    throw InputError(scenario.file + ": " + e.what());  // e names the key
  }
  if (solution.status() == Status::infeasible) {
    throw InputError(scenario.file + ": infeasible: " + solution.message());
  }
  return solution;
}

}  // namespace scaleopt
