#pragma once
// Which accelerator answers a lifecycle question, decided in one place. Every accelerator's
// answer then passes the same check before it is called converged (accept_if_verified,
// problems/lifecycle/accelerators/lifetime_newton.hpp), and goes to NLopt when it does not.
//
// The lifecycle problem (problems/lifecycle/lifecycle_problem.hpp) is always solvable by NLopt.
// Where its terms allow a 1-D reduction solved by Newton's method, sweeps, Monte Carlo, the
// tornado and `solve` take it instead (~2 microseconds against ~300):
//  - linear_newton: every cost linear in N (FLOPs, fixed MFUs), the plain law
//    (problems/lifecycle/accelerators/lifetime_newton.hpp);
//  - roofline_newton: serving priced by the roofline, with its closed form in N, the plain law
//    (problems/lifecycle/accelerators/roofline_newton.hpp).
// A joint law with the experts chosen is decided before this predicate, by solve_question_fast
// (problems/question/question_fast.cpp): costs linear in N, a search over ln E of the
// linear_newton solves (problems/lifecycle/accelerators/experts_newton.hpp).
// Anything else (RL tokens chosen, repeated data, another transform, another cost of N) goes
// to NLopt.

#include <string_view>

#include "scaleopt/problems/lifecycle/loss_term.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt {

enum class Accelerator { none, linear_newton, roofline_newton };

struct FastPathChoice {
  Accelerator accelerator = Accelerator::none;
  std::string_view why_not;  // when none: what the terms have that no accelerator handles
};

// `capped_tokens`: the question caps the pretraining tokens (problem.max_pretrain_tokens);
// `capped_compute`: it caps the pretraining FLOPs (a pretraining budget, or training.deadline
// on known chips). Inequalities no accelerator knows.
FastPathChoice fast_path_for(const LossTerm& loss, const LifetimeCostModel& cost, CostUnit unit,
                             bool capped_tokens = false, bool capped_compute = false);

}  // namespace scaleopt
