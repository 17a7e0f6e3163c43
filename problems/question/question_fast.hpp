#pragma once
// The fast path of a lifecycle question: when the costs are linear in N (fixed MFUs, or FLOPs),
// or serving is priced by the roofline (its closed form in N), the constraint is eliminated and
// the 1-D reduction is solved by Newton's method
// (problems/lifecycle/accelerators/lifetime_newton.hpp,
// problems/lifecycle/accelerators/roofline_newton.hpp), and the answer is set beside the
// Chinchilla-style model by closed forms. A light result (problems/question/question_summary.hpp)
// for sweeps, Monte Carlo and tornado tables; `scaleopt solve` keeps NLopt with its cross-check.

#include <optional>

#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {

// The summary by the fast path, or nullopt when the question needs NLopt: no accelerator for
// its terms (problems/lifecycle/fast_path.hpp: RL tokens chosen, a cost of N other than the
// roofline's), a plan at the bounds 1 <= N, D <= 1e30 of the general problem, or an answer
// that fails the KKT check at `options`' tolerances.
std::optional<QuestionSummary> solve_question_fast(const QuestionSetup& setup,
                                                   const SolverOptions& options = {});

enum class SolveMethod {
  automatic,  // the fast path where it applies, NLopt otherwise
  nlopt,      // always NLopt (solve_question): the reference
};

// The full solution by the fast path (every field `solve` prints; the Chinchilla comparison by
// closed forms, as the summary's), or nullopt as solve_question_fast.
std::optional<QuestionSolution> solve_question_fast_solution(const QuestionSetup& setup,
                                                             const SolverOptions& options = {});

// The full solution by `method`: `solve` and Python's solve. Each answer's `path` says how it
// was found.
QuestionSolution solve_question(const QuestionSetup& setup, const SolverOptions& options,
                                SolveMethod method);

// One answer by `method`; the summary's `path` says which was used.
QuestionSummary solve_question_summary(const QuestionSetup& setup, const SolverOptions& options,
                                       SolveMethod method = SolveMethod::automatic);

}  // namespace scaleopt
