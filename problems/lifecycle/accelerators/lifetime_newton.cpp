#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifecycle/accelerators/newton_root.hpp"

namespace scaleopt {
namespace {

// Newton stops once a step is below 2^(1 - digits) of the iterate. Convergence is quadratic,
// e_next ~ (f'' / 2 f') e^2, so the step that passes the test leaves an error of order
// |f'' / 2 f'| step^2; the tests below are set so that this is under 1e-16 absolute, while the
// rounding noise of f / f' (terms up to ~40 in size: ~1e-14) stays far below the step asked
// for, so the test always passes. Asking for more would cost an evaluation for nothing, or
// never stop.
//  - min cost: w in [1, ~5], |H'' / 2H'| <= 1 / (8 beta) ~ 0.5: 2^-27 w ~ 4e-8, error ~1e-15 at
//    most and ~1e-17 typically;
//  - max quality (v = ln D ~ 20-35, |G'' / 2G'| <= 0.15) and the ray (u = ln N ~ 20,
//    |f'' / 2f'| <= 0.2): 2^-33 v ~ 4e-9, error ~3e-18.
constexpr int kDigitsMinCost = 28;
constexpr int kDigits = 34;

}  // namespace

// check_kkt's relative residual for one active constraint with gradient `c` and objective
// gradient `g` (both 2-D); `one_sided`: the multiplier must be >= 0 (an inequality).
double kkt_residual_2d(const double g[2], const double c[2], bool one_sided) {
  return kkt_balance({g, 2}, {c, 2}, 2, one_sided).residual();
}

KktBalance kkt_balance(std::span<const double> g, std::span<const double> c, std::size_t free_count,
                       bool one_sided) {
  double gc = 0.0, cc = 0.0;
  for (std::size_t i = 0; i < free_count; ++i) gc += g[i] * c[i], cc += c[i] * c[i];
  KktBalance balance;
  balance.multiplier = cc > 0.0 ? -gc / cc : 0.0;
  double term = 0.0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    term = std::max(term, std::fabs(balance.multiplier * c[i]));
    balance.scale = std::max(balance.scale, std::fabs(g[i]));
  }
  balance.scale = std::max(balance.scale, term);
  for (std::size_t i = 0; i < free_count; ++i) {
    balance.imbalance = std::max(balance.imbalance, std::fabs(g[i] + balance.multiplier * c[i]));
  }
  if (one_sided && balance.multiplier < 0.0) balance.imbalance = std::max(balance.imbalance, term);
  return balance;
}

bool within_general_bounds(double params, double tokens) {
  const double log_params = std::log(params), log_tokens = std::log(tokens);
  return log_params >= kLogLowerBound && log_params <= kLogUpperBound &&
         log_tokens >= kLogLowerBound && log_tokens <= kLogUpperBound;
}

void accept_if_verified(NewtonPlan& plan, const SolverOptions& options) {
  if (plan.status != Status::converged) return;
  if (plan.kkt_residual <= options.kkt_tolerance &&
      plan.constraint_violation <= options.constraint_tolerance) {
    return;
  }
  plan.status = Status::not_converged;
  plan.use_general = true;
}

std::optional<ChinchillaAtLoss> chinchilla_at_loss(const LossLaw& law, double target_loss) {
  const double R = target_loss - law.E;
  if (!(R > 0.0)) return std::nullopt;
  ChinchillaAtLoss plan;
  const double a = law.alpha, b = law.beta;
  plan.log_reducible = std::log(R);
  // Chinchilla's split (alpha p = beta r): e^z0 = 1 + beta/alpha, e^-z0 = alpha / (alpha + beta).
  plan.log_alpha_over_beta = std::log(a / b);
  plan.z0 = std::log1p(b / a);
  plan.log_A = std::log(law.A);
  plan.log_B = std::log(law.B);
  plan.log_params = (plan.log_A - plan.log_reducible + plan.log_alpha_over_beta + plan.z0) / a;
  plan.log_tokens = (plan.log_B - plan.log_reducible + plan.z0) / b;
  if (!(plan.log_params < kLogUpperBound && plan.log_tokens < kLogUpperBound)) return std::nullopt;
  return plan;
}

NewtonPlan min_cost_at_loss_newton(const LossLaw& law, double target_loss, const LinearCost& cost,
                                   double start_log_tokens) {
  NewtonPlan plan;
  const std::optional<ChinchillaAtLoss> chinchilla = chinchilla_at_loss(law, target_loss);
  if (!chinchilla) {
    plan.status = Status::infeasible;
    return plan;
  }
  const double R = target_loss - law.E;
  const double a = law.alpha, b = law.beta;
  const double log_R = chinchilla->log_reducible, log_A = chinchilla->log_A,
               log_B = chinchilla->log_B;
  const double log_a_over_b = chinchilla->log_alpha_over_beta;
  const double z0 = chinchilla->z0;
  const double k = cost.per_param_token;
  double z = z0;  // without RL or inference: Chinchilla
  if (cost.per_param > 0.0) {
    // In y = ln(e^z - e^z0): H(y) = y + K + z(y) / beta, with the softplus
    // z(y) = ln(e^z0 + e^y) = max(y, z0) + ln(1 + e^-|y - z0|) and K = ln(alpha / (beta C)).
    // (ln(1 + e), not log1p: the term is added to max(y, z0) >= z0 ~ 1, so its absolute
    // error, ~1e-16 either way, is what counts.)
    const double K = log_a_over_b - std::log(cost.per_param / k) - (log_R - log_B) / b;
    auto z_of = [z0](double y, double& sigma) {
      const double e = std::exp(-std::fabs(y - z0));
      sigma = y < z0 ? e / (1.0 + e) : 1.0 / (1.0 + e);  // dz/dy
      return std::max(y, z0) + std::log(1.0 + e);
    };
    // Since max(y, z0) <= z(y) <= max(y, z0) + ln 2, the roots of H with z(y) replaced by
    // either bound bracket the root; the upper one is the start (H convex: Newton from the
    // right converges monotonely).
    const double log2_over_b = std::log(2.0) / b;
    const double y_high = -K - z0 / b <= z0 ? -K - z0 / b : -K / (1.0 + 1.0 / b);
    const double y_low = -K - z0 / b - log2_over_b <= z0 ? -K - z0 / b - log2_over_b
                                                         : (-K - log2_over_b) / (1.0 + 1.0 / b);
    // Newton in w = y - y_low + 1 >= 1, so that its relative stopping test is meaningful.
    auto H = [&](double w) {
      double sigma = 0.0;
      const double y = w - 1.0 + y_low;
      const double zy = z_of(y, sigma);
      return std::pair<double, double>(y + K + zy / b, 1.0 + sigma / b);
    };
    const double w_high = y_high - y_low + 1.0;
    // A nearby answer's D gives z = ln(R / r) with r = B D^-beta, and y = ln(e^z - e^z0).
    double w_start = w_high;
    const double z_start = log_R - log_B + b * start_log_tokens;
    if (z_start > z0) {
      const double y_start = z_start + std::log(-std::expm1(z0 - z_start));
      w_start = std::clamp(y_start - y_low + 1.0, 1.0, w_high);
    }
    const double w = newton_root(H, w_start, 1.0, w_high, kDigitsMinCost, plan.iterations);
    if (!std::isfinite(w)) return plan;  // not converged
    double sigma = 0.0;
    z = z_of(w - 1.0 + y_low, sigma);
  }

  // r = R e^-z, p = R (1 - e^-z); N = (A / p)^(1/alpha), D = (B / r)^(1/beta).
  const double log_params = (log_A - log_R - std::log(-std::expm1(-z))) / a;
  const double log_tokens = (log_B - log_R + z) / b;
  if (!(log_params >= kLogLowerBound && log_params <= kLogUpperBound &&
        log_tokens >= kLogLowerBound && log_tokens <= kLogUpperBound)) {
    plan.use_general = true;
    return plan;
  }
  plan.params = std::exp(log_params);
  plan.pretrain_tokens = std::exp(log_tokens);
  // Verified afresh with the law in log space, as the NLopt problem evaluates its constraint:
  // (L - L*) / R, and the KKT residual of ln cost against the constraint's gradient.
  const LossInLogSpace l = loss_in_log_space(law, log_params, log_tokens);
  plan.constraint_violation = std::fabs(l.loss - target_loss) / R;
  const double pretrain = k * plan.pretrain_tokens;
  const double g[2] = {1.0, pretrain / (pretrain + cost.per_param)};
  const double c[2] = {l.d_log_params / R, l.d_log_tokens / R};
  plan.kkt_residual = kkt_residual_2d(g, c, false);
  plan.status = Status::converged;
  return plan;
}

NewtonPlan max_quality_at_budget_newton(const LossLaw& law, const LinearCost& cost, double budget,
                                        double min_params, double start_log_tokens) {
  NewtonPlan plan;
  const double k = cost.per_param_token, c = cost.per_param;
  // N >= min_params with D >= 1 must be affordable: budget > (k + c) min_params.
  if (!(budget > (k + c) * min_params)) {
    plan.status = Status::infeasible;
    return plan;
  }
  const double a = law.alpha, b = law.beta;
  const double log_k = std::log(k);
  const double constant = std::log(b * law.B / (a * law.A)) + a * std::log(budget) - log_k;
  // ln(k e^v + c) = ln k + v + log1p(c e^-v / k), exact for large and small c alike.
  auto G = [&](double v) {
    const double extra = c * std::exp(-v) / k;
    const double value = constant - (1.0 + b) * v + (1.0 - a) * (log_k + v + std::log1p(extra));
    return std::pair<double, double>(value, -(1.0 + b) + (1.0 - a) / (1.0 + extra));
  };
  const double v0 = (constant + (1.0 - a) * log_k) / (a + b);
  double upper = std::max(v0 + (1.0 - a) * std::log(2.0) / (a + b), std::log(c / k));
  // N >= min_params: k e^v + c <= budget / min_params.
  const double v_max = std::log((budget / min_params - c) / k);
  const double lower = std::max(v0, 0.0);
  double v = 0.0;
  if (v_max <= lower || G(v_max).first >= 0.0) {
    v = v_max;  // the smallest model considered is the best the budget buys
    plan.at_min_params = true;
  } else if (v0 < 0.0 && G(0.0).first < 0.0) {
    plan.use_general = true;  // D < 1: outside what the reduction assumes
    return plan;
  } else {
    upper = std::min(upper, v_max);
    // From a nearby answer's ln D where there is one inside the bracket.
    const double start =
        start_log_tokens > lower && start_log_tokens < upper ? start_log_tokens : lower;
    v = newton_root(G, start, lower, upper, kDigits, plan.iterations);
    if (!std::isfinite(v)) return plan;  // not converged
  }
  plan.pretrain_tokens = std::exp(v);
  plan.params = plan.at_min_params ? min_params : budget / (k * plan.pretrain_tokens + c);
  if (!within_general_bounds(plan.params, plan.pretrain_tokens)) {
    plan.use_general = true;
    return plan;
  }
  const double p = law.params_term(plan.params), q = law.data_term(plan.pretrain_tokens);
  const double spend = (k * plan.pretrain_tokens + c) * plan.params;
  plan.constraint_violation = std::max(0.0, std::log(spend / budget));
  const double pretrain_share = k * plan.pretrain_tokens / (k * plan.pretrain_tokens + c);
  if (plan.at_min_params) {
    // Budget and bound both active: two constraints in two variables fit exactly; only a
    // multiplier of the wrong sign (G < 0) leaves a residual.
    const double budget_multiplier = b * q / pretrain_share;
    const double bound_multiplier = budget_multiplier - a * p;
    plan.kkt_residual = bound_multiplier >= 0.0 ? 0.0 : -bound_multiplier / (a * p);
  } else {
    const double g[2] = {-a * p, -b * q};
    const double budget_gradient[2] = {1.0, pretrain_share};
    plan.kkt_residual = kkt_residual_2d(g, budget_gradient, true);
  }
  plan.status = Status::converged;
  return plan;
}

double params_on_ray_for_loss(const LossLaw& law, double tokens_per_param, double target_loss) {
  const double R = target_loss - law.E;
  if (!(R > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const double a = law.alpha, b = law.beta;
  const double data = law.B * std::pow(tokens_per_param, -b);  // B (r N)^-beta = data N^-beta
  auto f = [&](double u) {
    const double p = law.A * std::exp(-a * u), q = data * std::exp(-b * u);
    return std::pair<double, double>(p + q - R, -a * p - b * q);
  };
  // Each term alone equals R at its own u; at the smaller one f >= 0, and where both are at
  // most R/2, f <= 0. f is convex and decreasing, so Newton from the left converges monotonely.
  const double lower = std::min(std::log(law.A / R) / a, std::log(data / R) / b);
  const double upper = std::max(std::log(2 * law.A / R) / a, std::log(2 * data / R) / b);
  int iterations = 0;
  return std::exp(newton_root(f, lower, lower, upper, kDigits, iterations));
}

}  // namespace scaleopt
