#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

// The ratio scan of optimal_rl_ratio: from the lower bound to this ratio (RL a thousand times
// pretraining, far past any saturation a returns curve of interest reaches), in this many steps.
constexpr double kMaxScanRatio = 1e3;
constexpr int kScanSteps = 400;
// The reductions' smallest ratio: RL below 1e-12 of pretraining's FLOPs counts as none (one
// rollout token against 1e12 pretraining tokens; the gain there is 1 + O(1e-9)).
constexpr double kNoRlRatio = 1e-12;

// kappa at N: the cost of an RL FLOP relative to a pretraining FLOP, 6 c_rl(N) / (k a N).
double kappa_at(const RlGainTransform& gain, const LifetimeCostModel& model, CostUnit unit,
                double params) {
  const double pretrain = in_unit(unit, model.pretraining(1.0, 1.0));
  return 6.0 * rl_cost_per_token(model, unit, params) /
         (gain.rl_flops_per_param_token() * pretrain * params);
}

// (N, D_eff) of the problem without RL turned into (N, D, D_RL) at r*.
std::optional<LifetimePlan> from_effective(const LifecycleTerms& terms, const LifetimePlan& reduced,
                                           const RlRatioOptimum& best) {
  if (!reduced.solve.converged()) return std::nullopt;
  const RlGainTransform& law = *terms.loss.rl_gain();
  const double gain = rl_gain(law.returns(), std::log(best.ratio)).gain;
  const double tokens = reduced.pretrain_tokens / gain;
  const double rl_tokens = 6.0 * best.ratio * tokens / law.rl_flops_per_param_token();
  if (!(rl_tokens > law.min_rl_tokens())) return std::nullopt;  // the bound binds: not separable
  const double counts[] = {reduced.params, tokens, rl_tokens};
  LifetimePlan plan = plan_at(terms, counts);
  plan.solve = reduced.solve;
  plan.solve.x = {std::log(reduced.params), std::log(tokens), std::log(rl_tokens)};
  plan.solve.algorithm = "reduction: TOMS 748 on r, then " + reduced.solve.algorithm;
  return plan;
}

// The linear model with inference divided by m*: the problem without RL in D_eff.
LifetimeCostModel scaled_inference(LifetimeCostModel model, double cost_factor) {
  model.rl_tokens = 0.0;
  model.inference_flops_per_param /= cost_factor;
  model.inference = model.inference.hours_divided_by(cost_factor);
  return model;
}

}  // namespace

std::vector<double> rl_start(const RlGainTransform& gain, const LifetimeCostModel& model,
                             CostUnit unit, double log_params, double log_effective_tokens,
                             double upper_log_rl_tokens) {
  const double min_ratio = gain.rl_flops_per_param_token() * gain.min_rl_tokens() /
                           (6.0 * std::exp(log_effective_tokens));
  const RlRatioOptimum best = optimal_rl_ratio(
      gain.returns(), kappa_at(gain, model, unit, std::exp(log_params)), min_ratio);
  const double log_tokens =
      log_effective_tokens - std::log(rl_gain(gain.returns(), std::log(best.ratio)).gain);
  const double log_rl_tokens =
      std::clamp(std::log(6.0 * best.ratio / gain.rl_flops_per_param_token()) + log_tokens,
                 std::log(gain.min_rl_tokens()), upper_log_rl_tokens);
  return {log_params, std::clamp(log_tokens, kLogLowerBound, kLogUpperBound), log_rl_tokens};
}

RlRatioOptimum optimal_rl_ratio(const RlReturns& returns, double kappa, double min_ratio) {
  // ln m = ln(1 + kappa r) - ln g(r); d ln m / d ln r = kappa r / (1 + kappa r) - e(r).
  auto log_m = [&](double log_r) {
    return std::log1p(kappa * std::exp(log_r)) - std::log(rl_gain(returns, log_r).gain);
  };
  auto slope = [&](double log_r) {
    const double kr = kappa * std::exp(log_r);
    return kr / (1.0 + kr) - rl_gain(returns, log_r).elasticity;
  };
  const double lo = std::log(min_ratio), hi = std::log(std::max(kMaxScanRatio, 2.0 * min_ratio));
  double best_log_r = lo, best = log_m(lo);
  bool at_lower_bound = true;
  double previous = lo;
  for (int i = 1; i <= kScanSteps; ++i) {
    const double log_r = lo + (hi - lo) * i / kScanSteps;
    // A minimum of m in (previous, log_r]: the slope changes sign from - to +.
    if (slope(previous) < 0.0 && slope(log_r) > 0.0) {
      const RootResult root = find_root_in_bracket(slope, previous, log_r);
      if (root.status == Status::converged && log_m(root.x) < best) {
        best = log_m(root.x);
        best_log_r = root.x;
        at_lower_bound = false;
      }
    }
    previous = log_r;
  }
  return {std::exp(best_log_r), std::exp(best), at_lower_bound};
}

std::optional<LifetimePlan> min_cost_at_loss_with_rl_reduced(const LifecycleTerms& terms,
                                                             double target_loss) {
  if (!terms.cost.linear(terms.unit)) return std::nullopt;
  const RlRatioOptimum best =
      optimal_rl_ratio(terms.loss.rl_gain()->returns(),
                       kappa_at(*terms.loss.rl_gain(), terms.cost, terms.unit, 1.0), kNoRlRatio);
  if (best.at_lower_bound) return std::nullopt;
  const LifetimePlan reduced = min_lifetime_cost_at_loss_reduced(
      terms.loss.law(), target_loss, scaled_inference(terms.cost, best.cost_factor), terms.unit);
  return from_effective(terms, reduced, best);
}

std::optional<LifetimePlan> max_quality_with_rl_reduced(const LifecycleTerms& terms,
                                                        double budget) {
  if (!terms.cost.linear(terms.unit)) return std::nullopt;
  const RlRatioOptimum best =
      optimal_rl_ratio(terms.loss.rl_gain()->returns(),
                       kappa_at(*terms.loss.rl_gain(), terms.cost, terms.unit, 1.0), kNoRlRatio);
  if (best.at_lower_bound) return std::nullopt;
  const LifetimePlan reduced = max_quality_at_budget_reduced(
      terms.loss.law(), scaled_inference(terms.cost, best.cost_factor), terms.unit,
      budget / best.cost_factor, {terms.min_params});
  return from_effective(terms, reduced, best);
}

}  // namespace scaleopt
