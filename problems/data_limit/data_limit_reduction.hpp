#pragma once
// The independent reference for a lifecycle question whose loss repeats data (a finite
// data.unique_tokens; no RL gain), with or without a cap on the pretraining tokens: the
// question's own constraint eliminated, a 1-D problem in ln N whose stationary point is found by
// TOMS 748, each point's D itself a root of the constraint by TOMS 748.
//
//  - at a target loss: D(N) solves L(N, D) = target (L falls with D: D' and U_N rise with it),
//    and the root is of d ln cost / d ln N along that curve, d ln D / d ln N = -L_N / L_D;
//  - within a budget: D(N) solves cost(N, D) = budget, and the root is of dL / d ln N along it,
//    d ln D / d ln N = -c_N / c_D.
//
// A cap D <= D_max bounds the curve: at a target, N may not fall below the N at which D(N)
// reaches the cap; within a budget, D stays at the cap while the budget allows more. When the
// stationary point lies beyond, the answer is at the cap, where the constraint is active.
//
// It shares nothing with NLopt's path but the loss term and cost model it is given (each tested
// against its own independent form), so it holds the 2-D solve to an answer found another way.

#include <optional>

#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

// nullopt where the reduction has no bracket (no sign change of the slope on the feasible range
// of N) or when the terms have an RL gain; a plan with status infeasible where no N reaches the
// target within the cap.
std::optional<LifetimePlan> min_cost_at_loss_repeated_reduced(const LifecycleTerms& terms,
                                                              double target_loss,
                                                              double max_pretrain_tokens = 1e30);
std::optional<LifetimePlan> max_quality_repeated_reduced(const LifecycleTerms& terms, double budget,
                                                         double max_pretrain_tokens = 1e30);

}  // namespace scaleopt
