#pragma once
// The lifetime problems with inference priced by the roofline, reduced to one variable, ln N:
// the fast path of sweeps and Monte Carlo for the realistic case. The serving cost
// g(N) is the closed form of problems/lifecycle/accelerators/roofline_pricing.hpp: a sum of maxima
// of terms increasing and convex in u = ln N, so g is convex in u and smooth between the points
// where the binding term of a maximum changes (compute-bound, HBM full, latency; prefill compute-
// or memory-bound).
//
// min cost s.t. L(N, D) = L*: along the constraint D(u) = (B / (R - A e^(-alpha u)))^(1/beta),
//   and ln(k N D) = ln k + u - ln(R - A e^(-alpha u)) / beta is convex, so the cost
//   C(u) = k N D(u) + g(u) is convex: one minimum, where C' changes sign.
// min L s.t. cost <= budget: D(u) = (budget - g(u)) / (k N), ln D is concave (budget - g is
//   concave and positive), so L(u) = A e^(-alpha u) + B e^(-beta ln D) is convex.
//
// The minimum is found by Newton's method inside a bracket that always holds the sign change
// of the derivative (bisection when a step leaves it), run not on the derivative itself but on
// a function with its sign that is nearly linear in u: the log ratio of the two marginal costs
// that balance at the optimum (serving's g' against pretraining's saving; the data term's loss
// against the parameters'), and above D's pole in t = ln(u - ln N_min). From Chinchilla's N
// that takes ~4 steps where Newton on C' took ~16. Where the bracket's ends lie on different
// pieces, the corner between them (where two terms of a maximum are equal: the root of a
// quadratic, polished by Newton on their log ratio) is located and tested: the minimum is there
// when the one-sided derivatives straddle zero, else Newton continues from the corner on the
// side that holds it. The answer is verified afresh as lifetime_newton's (the KKT residual of
// the 2-D problem, with the two one-sided gradients at a corner); the caller falls back to
// NLopt when it cannot be.

#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt {

struct RooflinePricing;  // problems/lifecycle/accelerators/roofline_pricing.hpp

// Cheapest plan reaching `target_loss` with `model` (model.closed_form() not null) in `unit`.
// Infeasible as min_lifetime_cost_at_loss decides it; use_general when the answer lies on a bound
// other than the largest model the replica serves, or is not verified.
NewtonPlan min_cost_at_loss_roofline(const LossLaw& law, double target_loss,
                                     const LifetimeCostModel& model, CostUnit unit);

// Lowest loss within `budget`, min_params <= N <= the largest model served. Infeasible when
// the budget cannot serve the smallest model with one token of pretraining; use_general as
// above (and at the edges where D reaches 1 or 1e30 tokens).
NewtonPlan max_quality_at_budget_roofline(const LossLaw& law, const LifetimeCostModel& model,
                                          CostUnit unit, double budget, double min_params);

// The same with serving priced by `pricing` in place of model.closed_form() (the model gives
// pretraining, the RL tokens and the largest N): a floor's other piece
// (problems/lifecycle/accelerators/replica_floor.hpp) prices RL alone.
NewtonPlan min_cost_at_loss_roofline(const LossLaw& law, double target_loss,
                                     const LifetimeCostModel& model, CostUnit unit,
                                     const RooflinePricing& pricing);
NewtonPlan max_quality_at_budget_roofline(const LossLaw& law, const LifetimeCostModel& model,
                                          CostUnit unit, double budget, double min_params,
                                          const RooflinePricing& pricing);

// The KKT residual from the one-sided slopes along the curve: zero when they straddle zero (a
// corner, or a smooth minimum), else the smaller of the two residuals.
double corner_residual(double left, double right, double residual_left, double residual_right);

}  // namespace scaleopt
