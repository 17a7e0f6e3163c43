#include "scaleopt/problems/data_limit/data_limit_reduction.hpp"

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

double loss_at(const LifecycleTerms& terms, double log_params, double log_tokens) {
  const double x[] = {log_params, log_tokens};
  return terms.loss_at(x).loss;
}

double log_cost_at(const LifecycleTerms& terms, double log_params, double log_tokens) {
  const double x[] = {log_params, log_tokens};
  return std::log(terms.cost_at(x).value);
}

LifetimePlan reference_plan(const LifecycleTerms& terms, double log_params, double log_tokens) {
  const double counts[] = {std::exp(log_params), std::exp(log_tokens)};
  LifetimePlan plan = plan_at(terms, counts);
  plan.solve.status = Status::converged;
  plan.solve.algorithm = "toms748 (1-D reduction in ln N, repeated data)";
  plan.solve.message = "converged (TOMS 748 on the stationary point along the constraint)";
  plan.solve.x = {log_params, log_tokens};
  return plan;
}

bool usable(const LifecycleTerms& terms) {
  return !terms.loss.rl_gain() && terms.layout.dimension() == 2;
}

// Where more tokens no longer lower the loss (dL/dD' underflows with R_D beyond ~700 R_D*), the
// target needs unboundedly many more of them for any smaller N: the slope is -infinity there.
constexpr double kSteepestSlope = -std::numeric_limits<double>::infinity();

// The stationary point of `value` on [lower, upper] in ln N, given its derivative `slope`:
// Brent's minimisation (Boost.Math) locates the minimum, robust where the slope is infinite or
// flat; TOMS 748 then finds the slope's root in a bracket of +-0.01 around it, to the last bits
// (Brent alone is good to about the square root of the machine epsilon). An end of the range
// where the slope points outwards is the answer itself. nullopt: no bracket.
template <class Value, class Slope>
std::optional<double> stationary_point(Value value, Slope slope, double lower, double upper) {
  std::uintmax_t iterations = 200;
  const double located =
      boost::math::tools::brent_find_minima(value, lower, upper, 40, iterations).first;
  double low = std::max(lower, located - 0.01), high = std::min(upper, located + 0.01);
  double low_slope = slope(low), high_slope = slope(high);
  if (low == lower && low_slope >= 0.0) return lower;
  if (high == upper && high_slope <= 0.0) return upper;
  // An end where the slope is infinite (D beyond any use at the smallest N) moves halfway to
  // the minimum until it is finite: the sign stays.
  for (int i = 0; i < 60 && !std::isfinite(low_slope); ++i) {
    low = 0.5 * (low + located);
    low_slope = slope(low);
  }
  for (int i = 0; i < 60 && !std::isfinite(high_slope); ++i) {
    high = 0.5 * (high + located);
    high_slope = slope(high);
  }
  if (!(std::isfinite(low_slope) && std::isfinite(high_slope))) return std::nullopt;
  const RootResult root = find_root_in_bracket(slope, low, high);
  if (root.status != Status::converged) return std::nullopt;
  return root.x;
}

}  // namespace

std::optional<LifetimePlan> min_cost_at_loss_repeated_reduced(const LifecycleTerms& terms,
                                                              double target_loss,
                                                              double max_pretrain_tokens) {
  if (!usable(terms)) return std::nullopt;
  const double log_tokens_max = std::min(kLogUpperBound, std::log(max_pretrain_tokens));
  const double log_params_max = std::min(kLogUpperBound, std::log(terms.cost.max_params));
  // The smallest N: where even D_max tokens only just reach the target (L falls with N).
  const auto gap_at_cap = [&](double u) { return loss_at(terms, u, log_tokens_max) - target_loss; };
  if (!(gap_at_cap(log_params_max) < 0.0)) {
    LifetimePlan plan;
    plan.unit = terms.unit;
    plan.solve.status = Status::infeasible;
    plan.solve.message = "no model within the bounds of N reaches the target with D_max tokens";
    return plan;
  }
  const RootResult lowest = find_root_in_bracket(gap_at_cap, kLogLowerBound, log_params_max);
  if (lowest.status != Status::converged) return std::nullopt;
  const double log_params_min = lowest.x;
  const auto tokens_for = [&](double u) {
    if (u <= log_params_min) return log_tokens_max;
    const RootResult d =
        find_root_in_bracket([&](double v) { return loss_at(terms, u, v) - target_loss; },
                             kLogLowerBound, log_tokens_max);
    return d.status == Status::converged ? d.x : std::nan("");
  };
  // d ln cost / d ln N along L = target.
  const auto slope = [&](double u) {
    const double v = tokens_for(u);
    const double x[] = {u, v};
    const LossTerm::Value l = terms.loss_at(x);
    const LifecycleTerms::CostValue c = terms.cost_at(x);
    if (!(l.gradient[1] < 0.0)) return kSteepestSlope;
    return (c.gradient[0] - c.gradient[1] * l.gradient[0] / l.gradient[1]) / c.value;
  };
  // At the lower end D is at the cap: where the slope is positive there, the cap binds and the
  // cheapest plan uses every token it allows.
  const auto log_cost = [&](double u) { return log_cost_at(terms, u, tokens_for(u)); };
  const std::optional<double> best =
      stationary_point(log_cost, slope, log_params_min, log_params_max);
  if (!best) return std::nullopt;
  return reference_plan(terms, *best, tokens_for(*best));
}

std::optional<LifetimePlan> max_quality_repeated_reduced(const LifecycleTerms& terms, double budget,
                                                         double max_pretrain_tokens) {
  if (!usable(terms)) return std::nullopt;
  const double log_budget = std::log(budget);
  const double log_tokens_cap = std::min(kLogUpperBound, std::log(max_pretrain_tokens));
  const double log_params_min = std::log(terms.min_params);
  // The largest N: the budget spent on one token (cost rises with N and D).
  double log_params_max = std::min(kLogUpperBound, std::log(terms.cost.max_params));
  const auto over = [&](double u) { return log_cost_at(terms, u, kLogLowerBound) - log_budget; };
  if (over(log_params_max) > 0.0) {
    const RootResult top = find_root_in_bracket(over, log_params_min, log_params_max);
    if (top.status != Status::converged) return std::nullopt;
    log_params_max = top.x;
  }
  const auto budget_tokens = [&](double u) {
    const auto f = [&](double v) { return log_cost_at(terms, u, v) - log_budget; };
    if (f(kLogUpperBound) <= 0.0) return kLogUpperBound;
    if (f(kLogLowerBound) >= 0.0) return kLogLowerBound;  // at the largest N, to rounding
    const RootResult d = find_root_in_bracket(f, kLogLowerBound, kLogUpperBound);
    return d.status == Status::converged ? d.x : std::nan("");
  };
  // Where the budget curve meets the cap: below it D stays at the cap (budget left over), and
  // the loss still falls with N.
  double log_params_low = log_params_min;
  // The largest N the bounds allow (the weights fill the replica) may come before the budget
  // curve falls to the cap: then D is at the cap on the whole range, where the loss falls with
  // N (N' rises with N at any D), and the best plan is the largest N with every token allowed.
  if (budget_tokens(log_params_max) >= log_tokens_cap) {
    return reference_plan(terms, log_params_max, log_tokens_cap);
  }
  if (budget_tokens(log_params_min) > log_tokens_cap) {
    const RootResult meet =
        find_root_in_bracket([&](double u) { return budget_tokens(u) - log_tokens_cap; },
                             log_params_min, log_params_max);
    if (meet.status != Status::converged) return std::nullopt;
    log_params_low = meet.x;
  }
  const auto tokens_for = [&](double u) {
    return u <= log_params_low ? std::min(log_tokens_cap, budget_tokens(u)) : budget_tokens(u);
  };
  // dL / d ln N along cost = budget.
  const auto slope = [&](double u) {
    const double x[] = {u, tokens_for(u)};
    const LossTerm::Value l = terms.loss_at(x);
    const LifecycleTerms::CostValue c = terms.cost_at(x);
    return l.gradient[0] - l.gradient[1] * c.gradient[0] / c.gradient[1];
  };
  const auto loss = [&](double u) { return loss_at(terms, u, tokens_for(u)); };
  const std::optional<double> best = stationary_point(loss, slope, log_params_low, log_params_max);
  if (!best) return std::nullopt;
  return reference_plan(terms, *best, tokens_for(*best));
}

}  // namespace scaleopt
