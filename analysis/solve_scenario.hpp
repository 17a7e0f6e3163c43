#pragma once
// A scenario's [problem] solved, for every command that shows an answer (solve, plot, report):
// the same checks and the same one-line errors everywhere.

#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// Throws InputError for bad options (SolverOptions::validate, naming the option: "starts: at
// most 100 (the limit), got 1000"), "FILE: problem.kind: required ..." without a [problem],
// "FILE: law: ..." without a [law], and as refuse_unanswerable. A solution that did not
// converge is returned (callers say so). `method`: the fast path where it applies (as sweeps),
// or NLopt always.
QuestionSolution solve_scenario(const Scenario& scenario, const SolverOptions& options,
                                SolveMethod method = SolveMethod::automatic);

// Throws InputError "FILE: infeasible: <the solver's message>" for an infeasible question, and
// "FILE: <what overflowed> (inputs beyond 1e30 or below 1e-30: PATH = VALUE, ...)" for an
// answer that overflowed (status invalid_input, problems/question/question_summary.hpp).
void refuse_unanswerable(const Scenario& scenario, const QuestionSolution& solution);

}  // namespace scaleopt
