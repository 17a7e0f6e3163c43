#pragma once
// The cheapest lifetime plan that reaches a target loss (Sardana et al. 2024, Eq. 3):
//
//   minimise  cost(N, D) = pretrain(N, D) + rl(N) + inference(N)   (FLOPs, hours or dollars)
//   subject to L(N, D) = target.
//
// No closed form exists once inference is paid for. NLopt solves it as the lifecycle problem
// (problems/lifecycle/lifecycle_problem.hpp); here is the independent method it is checked
// against, the 1-D reduction: the constraint gives D(N) = (B / (target - E - A N^-alpha))^(1/beta),
// and the optimum is the root of d ln cost / d ln N, found by TOMS 748 (Boost.Math). With no
// inference and no RL it returns the Chinchilla frontier point for the target.

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

// The 1-D reduction alone (TOMS 748 on d ln cost / d ln N): the independent reference NLopt's
// answer is checked against (problems/lifecycle/lifecycle_solve.hpp). Status infeasible when
// target <= E (or beyond 1e30 parameters or tokens, or reached only by models larger than the
// setup serves).
LifetimePlan min_lifetime_cost_at_loss_reduced(const LossLaw& law, double target_loss,
                                               const LifetimeCostModel& model, CostUnit unit);

// Whether no plan reaches `target_loss` (checked before any solver runs): at or below E, beyond
// 1e30 parameters or tokens, or reached only by models larger than the setup serves. Fills
// `plan`'s status (infeasible), message and loss (E) when so. Throws InputError for a law,
// model or target that is not valid.
bool infeasible_at_loss(const LossLaw& law, double target_loss, const LifetimeCostModel& model,
                        LifetimePlan& plan);

// The range of ln N along the constraint L(N, D) = target within the variables' bounds: above
// N_min = (A / (target - E))^(1/alpha), where D is infinite, and where D reaches 1e30 tokens;
// below the largest model the setup serves (or 1e30) and where D falls to one token.
struct LogParamsRange {
  double lowest;
  double highest;
};
LogParamsRange log_params_range_at_loss(const LossLaw& law, double target_loss, double max_params);

// The pretraining tokens that reach `target_loss` with N parameters: the constraint solved for
// D. NaN when N is too small to reach the target at any D.
double tokens_for_loss(const LossLaw& law, double target_loss, double params);

}  // namespace scaleopt
