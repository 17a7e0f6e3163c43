#pragma once
// The serving replica as a discrete choice of a lifetime question (inference.chips absent).
//
// With the replica chosen, the inference cost at N is the cheapest whole-node size's
// (problems/serving/fleet_plan.hpp): a minimum over sizes, so the cost in N is piecewise, each
// piece a size's. A gradient method started in one piece stops at that piece's optimum, which
// need not be the question's (the stress run's fleet class found plans 3.5x dearer than the
// best size's). So the size is taken out of the continuous problem, as every discrete choice
// is (problems/lifecycle/discrete_choice.hpp): each whole-node size up to
// inference.max_replica_nodes is given in turn, its question solved by NLopt with its KKT
// check, and the best converged plan kept, ties to the smallest size. RL keeps the rollouts'
// own choice (cheapest size per output token, elastic): only serving's replica is given.

#include <optional>

#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// The setup's plan by NLopt: solve_lifecycle on its terms and question, or, with the replica
// chosen, the best of those solved at each size. The plan's solve message counts the sizes.
LifetimePlan solve_question_plan(const QuestionSetup& setup, const SolverOptions& options);

// Whether the setup's serving replica is chosen (inference.chips absent, roofline pricing).
bool chooses_replica(const QuestionSetup& setup);

// The setup with serving's replica given as `chips`: the inference term, the fleet, the bound
// on N and the closed form's exactness are that size's; everything else (pretraining, RL's
// own replica choice, the loss, the question) stays, and one closed form prices the size's
// serving and the question's RL. Empty when the setup has no fleet or the size cannot serve
// any N (its HBM does not hold one sequence's KV cache).
std::optional<QuestionSetup> setup_at_replica_size(const QuestionSetup& setup, double chips);

}  // namespace scaleopt
