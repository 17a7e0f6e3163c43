#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/question/lifetime_newton.hpp"
#include "scaleopt/solver/minimize.hpp"
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

LifetimeCostModel without_rl(LifetimeCostModel model) {
  model.rl_tokens = 0.0;
  return model;
}

// Cost of (N, D, D_RL) in `unit` and its gradient in (ln N, ln D, ln D_RL).
struct CostWithRl {
  double value, d_log_params, d_log_tokens, d_log_rl_tokens;
};
CostWithRl cost_with_rl(const LifetimeCostModel& model, CostUnit unit, std::span<const double> x) {
  const double params = std::exp(x[0]), rl_tokens = std::exp(x[2]);
  const auto base = model.total(unit, params, std::exp(x[1]));  // model.rl_tokens = 0
  const RlTokenCost per_token = rl_token_cost(model, unit, params);
  const double rl = per_token.value * rl_tokens;
  return {base.value + rl, base.d_log_params + per_token.d_log_params * rl_tokens,
          base.d_log_tokens, rl};
}

// kappa at N: the cost of an RL FLOP relative to a pretraining FLOP, 6 c_rl(N) / (k a N).
double kappa_at(const RlReturnsLaw& law, const LifetimeCostModel& model, CostUnit unit,
                double params) {
  const double pretrain = in_unit(unit, model.pretraining(1.0, 1.0));
  return 6.0 * rl_cost_per_token(model, unit, params) /
         (law.rl_flops_per_param_token * pretrain * params);
}

// A start for ln D_RL: the ratio that is best for kappa at this N, with D_eff = g D held.
std::vector<double> start_with_rl(const RlReturnsLaw& law, const LifetimeCostModel& model,
                                  CostUnit unit, double log_params, double log_effective_tokens,
                                  double upper_log_rl_tokens) {
  const double min_ratio =
      law.rl_flops_per_param_token * law.min_rl_tokens / (6.0 * std::exp(log_effective_tokens));
  const RlRatioOptimum best =
      optimal_rl_ratio(law.returns, kappa_at(law, model, unit, std::exp(log_params)), min_ratio);
  const double log_tokens =
      log_effective_tokens - std::log(rl_gain(law.returns, std::log(best.ratio)).gain);
  const double log_rl_tokens =
      std::clamp(std::log(6.0 * best.ratio / law.rl_flops_per_param_token) + log_tokens,
                 std::log(law.min_rl_tokens), upper_log_rl_tokens);
  return {log_params, std::clamp(log_tokens, kLogLowerBound, kLogUpperBound), log_rl_tokens};
}

double ratio_gap(double a, double b) {
  return std::fabs(a / b - 1.0);
}

RlPlan solved_rl_plan(const RlReturnsLaw& law, const LifetimeCostModel& model, CostUnit unit,
                      SolveResult solve, const std::optional<RlPlan>& reference) {
  RlPlan plan = rl_plan_at(law, model, unit, std::exp(solve.x[0]), std::exp(solve.x[1]),
                           std::exp(solve.x[2]));
  plan.plan.solve = std::move(solve);
  if (reference && reference->plan.solve.converged()) {
    plan.plan.reference_relative_difference =
        std::max({ratio_gap(plan.plan.params, reference->plan.params),
                  ratio_gap(plan.plan.pretrain_tokens, reference->plan.pretrain_tokens),
                  ratio_gap(plan.rl_tokens, reference->rl_tokens)});
  }
  return plan;
}

// (N, D_eff) of the problem without RL turned into (N, D, D_RL) at r*.
std::optional<RlPlan> from_effective(const RlReturnsLaw& law, const LifetimeCostModel& model,
                                     CostUnit unit, const LifetimePlan& reduced,
                                     const RlRatioOptimum& best) {
  if (!reduced.solve.converged()) return std::nullopt;
  const double gain = rl_gain(law.returns, std::log(best.ratio)).gain;
  const double tokens = reduced.pretrain_tokens / gain;
  const double rl_tokens = 6.0 * best.ratio * tokens / law.rl_flops_per_param_token;
  if (!(rl_tokens > law.min_rl_tokens)) return std::nullopt;  // the bound binds: not separable
  RlPlan plan = rl_plan_at(law, model, unit, reduced.params, tokens, rl_tokens);
  plan.plan.solve = reduced.solve;
  plan.plan.solve.x = {std::log(reduced.params), std::log(tokens), std::log(rl_tokens)};
  plan.plan.solve.algorithm = "reduction: TOMS 748 on r, then " + reduced.solve.algorithm;
  return plan;
}

// The linear model with inference divided by m*: the problem without RL in D_eff.
LifetimeCostModel scaled_inference(LifetimeCostModel model, double cost_factor) {
  model.rl_tokens = 0.0;
  model.inference_flops_per_param /= cost_factor;
  model.inference_gpu_hours_per_param /= cost_factor;
  return model;
}

}  // namespace

double RlReturnsLaw::log_ratio(double log_tokens, double log_rl_tokens) const {
  return std::log(rl_flops_per_param_token / 6.0) + log_rl_tokens - log_tokens;
}

double RlReturnsLaw::loss(double params, double tokens, double rl_tokens) const {
  return rl_loss(*this, std::log(params), std::log(tokens), std::log(rl_tokens)).loss;
}

RlLoss rl_loss(const RlReturnsLaw& law, double log_params, double log_tokens,
               double log_rl_tokens) {
  const LossLaw& l = law.law;
  const double log_ratio = law.log_ratio(log_tokens, log_rl_tokens);
  const RlGain g = rl_gain(law.returns, log_ratio);
  const double params_term = l.A * std::exp(-l.alpha * log_params);
  // B / (g D)^beta; ln(g D) = ln g + ln D, and d ln g / d ln D = -e, d ln g / d ln D_RL = e.
  const double data_term = l.B * std::exp(-l.beta * (std::log(g.gain) + log_tokens));
  return {l.E + params_term + data_term,
          -l.alpha * params_term,
          -l.beta * data_term * (1.0 - g.elasticity),
          -l.beta * data_term * g.elasticity,
          g.gain,
          std::exp(log_ratio)};
}

RlPlan rl_plan_at(const RlReturnsLaw& law, const LifetimeCostModel& model, CostUnit unit,
                  double params, double tokens, double rl_tokens) {
  LifetimeCostModel with_rl = model;
  with_rl.rl_tokens = rl_tokens;
  RlPlan plan;
  plan.plan = plan_at(law.law, with_rl, unit, params, tokens);
  const RlLoss l = rl_loss(law, std::log(params), std::log(tokens), std::log(rl_tokens));
  plan.plan.loss = l.loss;
  plan.rl_tokens = rl_tokens;
  plan.gain = l.gain;
  plan.compute_ratio = l.ratio;
  return plan;
}

RlAtLossProblem::RlAtLossProblem(RlReturnsLaw law, double target_loss, LifetimeCostModel model,
                                 CostUnit unit)
    : law_(std::move(law)),
      target_loss_(target_loss),
      model_(without_rl(std::move(model))),
      unit_(unit) {}

std::vector<double> RlAtLossProblem::lower_bounds() const {
  return {kLogLowerBound, kLogLowerBound, std::log(law_.min_rl_tokens)};
}
std::vector<double> RlAtLossProblem::upper_bounds() const {
  return {std::min(kLogUpperBound, std::log(model_.max_params)), kLogUpperBound, kLogUpperBound};
}

// The Chinchilla point of the target as (N, D_eff), with the ratio best at that N.
std::vector<double> RlAtLossProblem::start() const {
  const auto c = coefficients_of<double>(law_.law);
  const auto frontier = compute_optimal_allocation(c, compute_for_loss(c, target_loss_));
  const double log_params = std::min(std::log(frontier.params), upper_bounds()[0]);
  const double effective = tokens_for_loss(law_.law, target_loss_, std::exp(log_params));
  return start_with_rl(law_, model_, unit_, log_params, std::log(effective), kLogUpperBound);
}

double RlAtLossProblem::objective(std::span<const double> x, std::span<double> gradient) const {
  const CostWithRl c = cost_with_rl(model_, unit_, x);
  if (!gradient.empty()) {
    gradient[0] = c.d_log_params / c.value;
    gradient[1] = c.d_log_tokens / c.value;
    gradient[2] = c.d_log_rl_tokens / c.value;
  }
  return std::log(c.value);
}

double RlAtLossProblem::equality(std::size_t, std::span<const double> x,
                                 std::span<double> gradient) const {
  const RlLoss l = rl_loss(law_, x[0], x[1], x[2]);
  const double reducible = target_loss_ - law_.law.E;
  if (!gradient.empty()) {
    gradient[0] = l.d_log_params / reducible;
    gradient[1] = l.d_log_tokens / reducible;
    gradient[2] = l.d_log_rl_tokens / reducible;
  }
  return (l.loss - target_loss_) / reducible;
}

RlAtBudgetProblem::RlAtBudgetProblem(RlReturnsLaw law, LifetimeCostModel model, CostUnit unit,
                                     double budget, double min_params)
    : law_(std::move(law)),
      model_(without_rl(std::move(model))),
      unit_(unit),
      log_budget_(std::log(budget)),
      log_min_params_(std::log(min_params)) {}

std::vector<double> RlAtBudgetProblem::lower_bounds() const {
  return {log_min_params_, kLogLowerBound, std::log(law_.min_rl_tokens)};
}
std::vector<double> RlAtBudgetProblem::upper_bounds() const {
  return {std::min(kLogUpperBound, std::log(model_.max_params)), kLogUpperBound, kLogUpperBound};
}

// As QualityAtBudgetProblem: a quarter of the budget on pretraining at 20 tokens per parameter
// (the rest left for RL and inference), then the ratio best at that N.
std::vector<double> RlAtBudgetProblem::start() const {
  const double per_param_token = in_unit(unit_, model_.pretraining(1.0, 1.0));
  const double log_params = std::clamp(0.5 * (log_budget_ - std::log(80.0 * per_param_token)),
                                       log_min_params_, upper_bounds()[0]);
  return start_with_rl(law_, model_, unit_, log_params, log_params + std::log(20.0),
                       kLogUpperBound);
}

double RlAtBudgetProblem::objective(std::span<const double> x, std::span<double> gradient) const {
  const RlLoss l = rl_loss(law_, x[0], x[1], x[2]);
  if (!gradient.empty()) {
    gradient[0] = l.d_log_params;
    gradient[1] = l.d_log_tokens;
    gradient[2] = l.d_log_rl_tokens;
  }
  return l.loss;
}

double RlAtBudgetProblem::inequality(std::size_t, std::span<const double> x,
                                     std::span<double> gradient) const {
  const CostWithRl c = cost_with_rl(model_, unit_, x);
  if (!gradient.empty()) {
    gradient[0] = c.d_log_params / c.value;
    gradient[1] = c.d_log_tokens / c.value;
    gradient[2] = c.d_log_rl_tokens / c.value;
  }
  return std::log(c.value) - log_budget_;
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

std::optional<RlPlan> min_cost_at_loss_with_rl_reduced(const RlReturnsLaw& law, double target_loss,
                                                       const LifetimeCostModel& model,
                                                       CostUnit unit) {
  if (!linear_cost(model, unit)) return std::nullopt;
  const RlRatioOptimum best =
      optimal_rl_ratio(law.returns, kappa_at(law, model, unit, 1.0), kNoRlRatio);
  if (best.at_lower_bound) return std::nullopt;
  const LifetimePlan reduced = min_lifetime_cost_at_loss_reduced(
      law.law, target_loss, scaled_inference(model, best.cost_factor), unit);
  return from_effective(law, model, unit, reduced, best);
}

std::optional<RlPlan> max_quality_with_rl_reduced(const RlReturnsLaw& law,
                                                  const LifetimeCostModel& model, CostUnit unit,
                                                  double budget, double min_params) {
  if (!linear_cost(model, unit)) return std::nullopt;
  const RlRatioOptimum best =
      optimal_rl_ratio(law.returns, kappa_at(law, model, unit, 1.0), kNoRlRatio);
  if (best.at_lower_bound) return std::nullopt;
  const LifetimePlan reduced =
      max_quality_at_budget_reduced(law.law, scaled_inference(model, best.cost_factor), unit,
                                    budget / best.cost_factor, {min_params});
  return from_effective(law, model, unit, reduced, best);
}

RlPlan min_cost_at_loss_with_rl(const RlReturnsLaw& law, double target_loss,
                                const LifetimeCostModel& model, CostUnit unit,
                                const SolverOptions& options) {
  // Infeasible targets as without RL: the gain changes D, not what N alone must reach.
  const LifetimePlan plain =
      min_lifetime_cost_at_loss_reduced(law.law, target_loss, without_rl(model), unit);
  if (plain.solve.status == Status::infeasible) return {plain, 0.0, 1.0, 0.0};
  return solved_rl_plan(law, model, unit,
                        minimize(RlAtLossProblem(law, target_loss, model, unit), options),
                        min_cost_at_loss_with_rl_reduced(law, target_loss, model, unit));
}

RlPlan max_quality_with_rl(const RlReturnsLaw& law, const LifetimeCostModel& model, CostUnit unit,
                           double budget, double min_params, const SolverOptions& options) {
  const LifetimePlan plain =
      max_quality_at_budget_reduced(law.law, without_rl(model), unit, budget, {min_params});
  if (plain.solve.status == Status::infeasible) return {plain, 0.0, 1.0, 0.0};
  return solved_rl_plan(law, model, unit,
                        minimize(RlAtBudgetProblem(law, model, unit, budget, min_params), options),
                        max_quality_with_rl_reduced(law, model, unit, budget, min_params));
}

}  // namespace scaleopt
