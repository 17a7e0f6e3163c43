#pragma once
// The NLopt front end: minimise a Problem from one or more starts, then verify the answer
// (KKT residual, constraint violation) independently of NLopt's own return code.

#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solve_result.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// Never throws for a failed solve: the status and message say what happened. Throws
// InputError when the options are invalid or do not suit the problem (e.g. an algorithm
// without equality constraints for a problem that has them). An exception thrown inside the
// problem's functions stops the solve and is rethrown unchanged (NLopt would otherwise
// replace it by a bare "nlopt failure").
SolveResult minimize(const Problem& problem, const SolverOptions& options = {});

}  // namespace scaleopt
