#pragma once
// The lifetime problems with the experts chosen and costs linear in N_active (fixed MFUs, or
// FLOPs: 2 N_active FLOPs per token, the total does not enter), reduced to a search over one
// variable, ln E, whose every point is the fixed-E 1-D reduction solved by Newton's method
// (lifetime_newton.hpp): the fast path of sweeps, Monte Carlo and tornado tables.
//
// At a fixed E the joint law is a Chinchilla law (law_at_experts), so the inner solve is the
// dense one. Over E the profile f(ln E) (ln cost at a target loss, or the loss within a budget)
// has, by the envelope theorem, the slope of the joint law in ln E at the inner optimum: the
// cost does not depend on E, so
//   min cost:     d ln cost* / d ln E = lambda dL/d ln E (lambda > 0, the loss's multiplier),
//   max quality:  dL* / d ln E = dL/d ln E,
// both with the sign and the roots of h(ln E) = dL/d ln E (N*(E), D*(E), E). The search takes
// the same 9-point grid in ln E as the independent reference (experts_solve.hpp), then either
// a bound (h pointing out of the range there) or the root of h between the best point and the
// neighbour where h changes sign (Boost.Math's TOMS 748). Anything else declines, and NLopt
// answers.

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifecycle/expert_choice.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt {

struct ExpertsNewtonPlan {
  // N_active and D at the chosen E, with status, use_general and iterations (the inner Newton
  // steps, summed) as NewtonPlan's; kkt_residual is the check in (ln N, ln D, ln m), the bounds
  // on E included.
  NewtonPlan plan;
  double experts = 0.0;
  double expansion = 0.0;  // m(E) = N_total / N_active
  int reductions = 0;      // fixed-E solves taken
};

// Cheapest plan reaching `target_loss`, E in [choice.min_experts, choice.max_experts]. `law` is
// a joint law's reduction (law.joint set). Infeasible as min_cost_at_loss_newton.
ExpertsNewtonPlan min_cost_at_loss_choosing_experts(const LossLaw& law, const ExpertChoice& choice,
                                                    double target_loss, const LinearCost& cost);

// Lowest loss within `budget`, N >= min_params, E in the bounds. Declines (use_general) where
// the best fixed-E plan is at min_params.
ExpertsNewtonPlan max_quality_choosing_experts(const LossLaw& law, const ExpertChoice& choice,
                                               const LinearCost& cost, double budget,
                                               double min_params);

// check_kkt's relative residual in three variables (ln N, ln D, ln m) for one active constraint
// with gradient `c` and objective gradient `g`; `one_sided`: its multiplier must be >= 0;
// `bound`: the bound on ln m active at its lower (-1) or upper (+1) end, or free (0). An active
// bound takes any force pointing out of the range; one pointing in is a residual.
double kkt_residual_3d(const double g[3], const double c[3], bool one_sided, int bound);

}  // namespace scaleopt
