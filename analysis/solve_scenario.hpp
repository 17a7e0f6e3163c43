#pragma once
// A scenario's [problem] solved, for every command that shows an answer (solve, plot, report):
// the same checks and the same one-line errors everywhere.

#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// Throws InputError "FILE: problem.kind: required ..." without a [problem], "FILE: law: ..."
// without a [law], "FILE: infeasible: <the solver's message>" for an infeasible question. A
// solution that did not converge is returned (callers say so).
QuestionSolution solve_scenario(const Scenario& scenario, const SolverOptions& options);

}  // namespace scaleopt
