#pragma once
// A lifecycle question solved by NLopt and checked against an independent method:
//
//  1. infeasible questions are told apart before any solver runs, with the reason (a target at
//     or below E, a budget that cannot serve the demand);
//  2. the independent reference, where one exists: the 1-D reductions of
//     problems/at_loss/lifetime_at_loss.hpp and problems/at_budget/quality_at_budget.hpp, or
//     with RL chosen and costs linear in N the separation of problems/rl_returns/;
//  3. NLopt on the lifecycle problem (problems/lifecycle/lifecycle_problem.hpp) with its KKT
//     polish and check, restarted once from the reference's point when it does not converge;
//  4. the plan at NLopt's point, with its relative difference to the reference.

#include <string>

#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// Throws InputError for invalid inputs (a target or budget that is not finite and positive, an
// invalid law or cost model). Infeasible questions come back with status infeasible.
LifetimePlan solve_lifecycle(const LifecycleTerms& terms, const LifecycleQuestion& question,
                             const SolverOptions& options = {});

// The reference of step 2 alone: its plan, or status not_converged with a message when the
// question has none (or it did not converge).
LifetimePlan lifecycle_reference(const LifecycleTerms& terms, const LifecycleQuestion& question);

// The plan at a solver's point (its x in logs), carrying the solve.
LifetimePlan plan_at_solution(const LifecycleTerms& terms, SolveResult solve);

// Two methods that disagree: one of them is wrong and neither is an answer. Marks `plan`
// not_converged with a message naming the reference, the difference and what was compared.
void mark_disagreement(LifetimePlan& plan, const std::string& reference_algorithm,
                       double difference, const std::string& compared, double tolerance);

// The two questions on a plain law (no transform), as the library's examples and tests ask
// them: the cheapest plan reaching `target_loss`, the lowest loss within `budget`.
LifetimePlan min_lifetime_cost_at_loss(const LossLaw& law, double target_loss,
                                       const LifetimeCostModel& model, CostUnit unit,
                                       const SolverOptions& options = {});
LifetimePlan max_quality_at_budget(const LossLaw& law, const LifetimeCostModel& model,
                                   CostUnit unit, double budget, double min_params = 1e7,
                                   const SolverOptions& options = {});

}  // namespace scaleopt
