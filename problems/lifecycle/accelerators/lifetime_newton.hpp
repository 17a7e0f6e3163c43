#pragma once
// The lifetime problems with costs linear in N (fixed MFUs, or FLOPs), reduced to one variable
// and solved by Newton's method with analytic derivatives (Boost.Math's bracketed
// newton_raphson_iterate): the fast path of sweeps and Monte Carlo. No strings, no vectors.
//
// With cost(N, D) = k N D + c N (k: one N*D of pretraining; c: RL and inference per parameter):
//
// min cost s.t. L(N, D) = L*. Write R = L* - E, r = B / D^beta (the data term), p = R - r, and
//   z = ln(R / r) > 0. Along the constraint d ln D / d ln N = -alpha p / (beta r) =: -s, and
//   d ln cost / d ln N = 0 becomes s - 1 - c / (k D) = 0, i.e.
//     (alpha/beta) (e^z - e^z0) = C e^(-z/beta),   e^z0 = 1 + beta/alpha,  C = (c/k)
//     (R/B)^(1/beta),
//   z0 being the Chinchilla root (c = 0): the optimum trains a smaller N on more tokens. In
//   y = ln(e^z - e^z0) the logarithm of this is
//     H(y) = y + ln(alpha / (beta C)) + ln(e^z0 + e^y) / beta = 0,
//   increasing, convex and nearly linear (1 < H' < 1 + 1/beta) whatever the demand, so Newton
//   needs a few steps from anywhere. Bounds on ln(e^z0 + e^y) (>= z0, <= ln 2 + max(z0, y)) give
//   the bracket.
//
// min L s.t. cost <= budget (it binds). In v = ln D, N = budget / (k e^v + c), and dL/d ln N = 0
//   becomes G(v) = ln(beta B / (alpha A)) + alpha ln(budget) - ln k - (1 + beta) v
//                  + (1 - alpha) ln(k e^v + c) = 0,
//   which decreases strictly (G' < -(alpha + beta)) and is convex. Without c its root v0 is
//   Chinchilla's; G(v0) >= 0 and G <= 0 at max(v0 + (1 - alpha) ln 2 / (alpha + beta), ln(c/k)).

#include <cstddef>
#include <limits>
#include <optional>
#include <span>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/solver/solver_options.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

struct NewtonPlan {
  // converged; infeasible (no plan exists); or not_converged, also when the answer lies outside
  // the bounds 1 <= N, D <= 1e30 of the general problem (`use_general` then says so).
  Status status = Status::not_converged;
  bool use_general = false;    // the caller should solve with NLopt instead
  bool at_min_params = false;  // max-quality: the smallest model considered is the answer
  double params = 0.0;
  double pretrain_tokens = 0.0;
  int iterations = 0;
  // Verified afresh from (N, D), as solver/kkt.hpp defines them.
  double kkt_residual = 0.0;
  double constraint_violation = 0.0;
};

// The check of an accelerator's answer, the same as NLopt's (solver/kkt.hpp): a converged plan
// whose KKT residual or constraint violation exceeds the solver's tolerances is not converged,
// and goes to NLopt (use_general).
void accept_if_verified(NewtonPlan& plan, const SolverOptions& options);

// Chinchilla's plan for `target_loss` (alpha A / N^alpha = beta B / D^beta on the loss), in log
// space, with the pieces the 1-D reductions along the loss reuse. nullopt when target <= E or
// when the plan needs 1e30 parameters or tokens: such a target is infeasible for every
// lifetime problem at a loss (as min_lifetime_cost_at_loss decides for NLopt).
struct ChinchillaAtLoss {
  double log_reducible;  // ln(target - E)
  double z0;             // ln(1 + beta / alpha): the split alpha p = beta r, r = R e^-z0
  double log_alpha_over_beta;
  double log_A;  // ln A and ln B of the law, for the reductions that start from this plan
  double log_B;
  double log_params;
  double log_tokens;
};
std::optional<ChinchillaAtLoss> chinchilla_at_loss(const LossLaw& law, double target_loss);

// Cheapest plan reaching `target_loss`. Infeasible when target <= E or when Chinchilla's own
// plan for it needs 1e30 parameters or tokens (as min_lifetime_cost_at_loss).
// `start_log_tokens`: ln D of a nearby answer (the experts search's plan at the neighbouring E),
// where Newton starts instead of its bracket's end; NaN (the default) when there is none. The
// root is the same either way (Newton is kept inside the bracket); only the steps differ.
NewtonPlan min_cost_at_loss_newton(
    const LossLaw& law, double target_loss, const LinearCost& cost,
    double start_log_tokens = std::numeric_limits<double>::quiet_NaN());

// Lowest loss within `budget`, N >= min_params. Infeasible when the budget cannot pay for
// serving and RL at min_params with at least one token of pretraining.
NewtonPlan max_quality_at_budget_newton(
    const LossLaw& law, const LinearCost& cost, double budget, double min_params,
    double start_log_tokens = std::numeric_limits<double>::quiet_NaN());

// check_kkt's relative residual for one active constraint with gradient `c` and objective
// gradient `g` (both in (ln N, ln D)); `one_sided`: the multiplier must be >= 0 (an inequality).
double kkt_residual_2d(const double g[2], const double c[2], bool one_sided);

// The pieces of that residual in g.size() variables, the multiplier fitted by least squares over
// the first `free_count` (the others sit on bounds, whose own multipliers the caller weighs):
// the imbalance |g + multiplier c| over the free ones, against the scale max(|g|, |multiplier
// c|) over all; with `one_sided`, a negative multiplier's whole term is imbalance. A zero `c`
// has multiplier 0. kkt_residual_2d and the experts' kkt_residual_3d are made of it.
struct KktBalance {
  double multiplier = 0.0;
  double imbalance = 0.0;
  double scale = 0.0;
  double residual() const { return scale > 0.0 ? imbalance / scale : imbalance; }
};
KktBalance kkt_balance(std::span<const double> g, std::span<const double> c, std::size_t free_count,
                       bool one_sided);

// Whether 1 <= N, D <= 1e30, the bounds of the general problem, hold in log space.
bool within_general_bounds(double params, double tokens);

// The N of the Chinchilla-style rule D = r N that reaches `target_loss` (> E): the root of
// A N^-alpha + B (r N)^-beta = target - E, by Newton in ln N. NaN when target <= E.
double params_on_ray_for_loss(const LossLaw& law, double tokens_per_param, double target_loss);

}  // namespace scaleopt
