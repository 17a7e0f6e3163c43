#pragma once
// A scenario's [problem] solved, for every command that shows an answer (solve, plot, report):
// the same checks and the same one-line errors everywhere.

#include "cli/scenario.hpp"
#include "problems/lifecycle_problem.hpp"
#include "solver/solver_options.hpp"

namespace scaleopt::cli {

// Throws InputError "FILE: problem.kind: required ..." without a [problem], "FILE: law: ..."
// without a [law], and as refuse_unanswerable. A solution that did not converge is returned
// (callers say so).
LifecycleSolution solve_scenario(const Scenario& scenario, const SolverOptions& options);

// Throws InputError "FILE: infeasible: <the solver's message>" for an infeasible question, and
// "FILE: <what overflowed> (inputs beyond 1e30 or below 1e-30: PATH = VALUE, ...)" for an
// answer that overflowed (status invalid_input, problems/lifecycle_summary.hpp).
void refuse_unanswerable(const Scenario& scenario, const LifecycleSolution& solution);

}  // namespace scaleopt::cli
