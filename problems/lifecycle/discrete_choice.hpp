#pragma once
// A discrete choice in a lifecycle question: one continuous problem per candidate (a replica
// size, a precision, a cluster), each solved and verified on its own, and the best verified
// answer kept with the candidate that gave it.
//
// A discrete variable has no derivative, so it is not a coordinate of x: the continuous solve
// (NLopt with its KKT check, or an accelerator held to the same check) answers each candidate,
// and this argmin compares their verified objectives. Only converged answers compete; a
// candidate whose answer failed or was infeasible is counted, not chosen. Where candidates tie
// to `tie_relative` (at the compute ridge the cost per token does not depend on the replica
// size) the first wins, so a caller lists candidates from the one it prefers (the smallest).

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <utility>

#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

struct DiscreteChoiceOptions {
  // Two objectives within this relative difference are a tie, won by the earlier candidate:
  // 1e-9 is far above the solves' own agreement (about 1e-12 relative on the objective at a
  // KKT point, where it is flat to first order) and far below any difference a planner acts on.
  double tie_relative = 1e-9;
};

template <class Answer>
struct DiscreteChoice {
  std::optional<std::size_t> chosen;  // index into the candidates; empty when none converged
  Answer answer{};                    // the chosen answer, or the first candidate's when none
  std::size_t converged = 0;          // candidates whose answer converged
  std::size_t rejected = 0;           // candidates whose answer did not (failed, infeasible)
};

// The candidate whose converged answer has the lowest `objective`. `solve(candidate)` returns
// an Answer; `converged(answer)` and `objective(answer)` read it. Candidates are solved in
// order, once each.
template <class Candidate, class Solve, class Converged, class Objective>
auto choose_among(std::span<const Candidate> candidates, Solve&& solve, Converged&& converged,
                  Objective&& objective, const DiscreteChoiceOptions& options = {})
    -> DiscreteChoice<decltype(solve(candidates[0]))> {
  using Answer = decltype(solve(candidates[0]));
  DiscreteChoice<Answer> result;
  double best = 0.0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    Answer answer = solve(candidates[i]);
    if (!converged(answer)) {
      ++result.rejected;
      if (i == 0) result.answer = std::move(answer);
      continue;
    }
    ++result.converged;
    const double value = objective(answer);
    // A later candidate must be lower by more than the tie tolerance to replace the best.
    const bool better = !result.chosen || value < best - options.tie_relative * std::abs(best);
    if (better) {
      result.chosen = i;
      best = value;
      result.answer = std::move(answer);
    } else if (i == 0) {
      result.answer = std::move(answer);
    }
  }
  return result;
}

// What a lifecycle question minimises, read off its plan: the cost in the plan's unit, or the
// loss for a question within a budget.
inline double plan_objective(const LifetimePlan& plan, LifecycleObjective objective) {
  return objective == LifecycleObjective::loss ? plan.loss : in_unit(plan.unit, plan.cost.total());
}

// choose_among for lifecycle plans: converged means the plan's solve says so.
template <class Candidate, class Solve>
DiscreteChoice<LifetimePlan> choose_plan(std::span<const Candidate> candidates, Solve&& solve,
                                         LifecycleObjective objective,
                                         const DiscreteChoiceOptions& options = {}) {
  return choose_among(
      candidates, std::forward<Solve>(solve),
      [](const LifetimePlan& plan) { return plan.solve.converged(); },
      [objective](const LifetimePlan& plan) { return plan_objective(plan, objective); }, options);
}

}  // namespace scaleopt
