#pragma once
// The independent references of questions whose pretraining FLOPs are capped (a pretraining
// budget, or what given training chips compute by a deadline), on the plain law. Each is a
// closed form or one root by TOMS 748, independent of the lifecycle problem NLopt solves:
//
//  - the lowest loss within C_max (and D <= D_max): Hoffmann et al.'s Eq. 4 at C_max; where it
//    asks for more than D_max tokens, D = D_max and N = C_max / (6 D_max), since the loss along
//    6 N D = C is convex in ln N with its minimum on the far side of the cap;
//  - the cheapest plan at a target loss: the 1-D reduction without the cap; where its FLOPs
//    exceed C_max, the smaller N at which the isoloss curve's FLOPs 6 N D(N) fall to C_max
//    (along the curve the FLOPs fall towards Chinchilla's point while every serving cost rises
//    with N, so the cheapest plan the cap allows is its nearest point on the small side);
//  - the lowest loss within a lifetime budget: the 1-D reduction without the cap; where its
//    FLOPs exceed C_max, Chinchilla's point of C_max when it fits the budget, else the N on
//    6 N D = C_max whose lifetime cost is the budget (pretraining is fixed along the line,
//    serving rises with N, and the loss falls with N up to Chinchilla's point).

#include <optional>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

// Status converged with the plan, infeasible with the reason, or not_converged when the root
// finder fails.
LifetimePlan loss_at_compute_cap_reduced(const LossLaw& law, const LifetimeCostModel& model,
                                         CostUnit unit, double max_flops,
                                         std::optional<double> max_pretrain_tokens,
                                         double min_params);
LifetimePlan cost_at_loss_compute_capped_reduced(const LossLaw& law, double target_loss,
                                                 const LifetimeCostModel& model, CostUnit unit,
                                                 double max_flops);
LifetimePlan loss_within_budget_compute_capped_reduced(const LossLaw& law,
                                                       const LifetimeCostModel& model,
                                                       CostUnit unit, double budget,
                                                       double max_flops, double min_params);

// The lowest loss any plan of at most `max_flops` pretraining FLOPs reaches: Chinchilla's
// point of the cap, on the plain law.
double lowest_loss_at_compute(const LossLaw& law, double max_flops);

}  // namespace scaleopt
