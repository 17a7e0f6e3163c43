#pragma once
// One replica's floor on the fast path. With a serving duration (not elastic) the fleet is paid
// for at least one replica the whole time (problems/serving/fleet_plan.hpp): serving's
// chip-hours are max(K, g(N)), with K the replica's chips times the duration and g the closed
// form's chip-hours of the peak demand at the best batch, which rise with N. The closed form
// (problems/lifecycle/accelerators/roofline_newton.hpp) minimises with g alone, a lower bound;
// where its optimum N_a has g(N_a) < K the floor binds there, and the question's objective is
// the larger of its two pieces,
//   min-cost:    h(N) = max(f(N) + K, f(N) + g(N))   (f: pretraining along the loss, and RL)
//   max-quality: the loss along the budget with serving K, or with g (it rises with serving),
// each convex in ln N (roofline_newton.hpp), so h is convex. The floor's piece has its minimum
// N_b where serving costs nothing at the margin (RL alone priced); g(N_a) < K says N_a lies on
// it. So the minimum is N_b when g(N_b) <= K, and otherwise the kink N_k where g = K, between
// N_a and N_b: left of it h falls along the floor's piece, right of it h rises along g's.
// Verified as roofline_newton's answers are: the KKT residual of the 2-D problem with each
// piece's one-sided gradient at the kink.

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt {

struct RooflinePricing;

// The closed form with the serving demand taken out, RL alone priced: the floor's piece, on
// which serving costs K whatever N.
RooflinePricing rl_alone(const RooflinePricing& pricing);

// The lifetime cost of (N, D) by the closed form with serving paid at least `floor_chip_hours`:
// the fleet's cost where a replica is given and serves N (ContextPricing::serves).
LifetimeCost floored_lifetime_cost(const LifetimeCostModel& model, double params,
                                   double pretrain_tokens, double floor_chip_hours);

// The cheapest plan reaching `target_loss` with serving paid for at least `floor_chip_hours`,
// given `unfloored`, min_cost_at_loss_roofline's converged plan on the same model (its
// model.closed_form() for a replica given). use_general when the floor does not bind at
// `unfloored`'s N (its answer stands, or the caller's NLopt decides), when the unit is FLOPs
// (no fleet is paid), or when a piece's solve is not verified.
NewtonPlan min_cost_at_loss_floored(const LossLaw& law, double target_loss,
                                    const LifetimeCostModel& model, CostUnit unit,
                                    double floor_chip_hours, const NewtonPlan& unfloored);

// The lowest loss within `budget` on the same terms. Infeasible when the budget cannot pay the
// floor and the smallest model (min_params, one token).
NewtonPlan max_quality_at_budget_floored(const LossLaw& law, const LifetimeCostModel& model,
                                         CostUnit unit, double budget, double min_params,
                                         double floor_chip_hours, const NewtonPlan& unfloored);

}  // namespace scaleopt
