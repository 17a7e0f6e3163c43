#include "scaleopt/problems/at_budget/quality_at_budget.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

// Cost of one unit of N * D of pretraining in `unit`.
double pretrain_per_param_token(const LifetimeCostModel& model, CostUnit unit) {
  return in_unit(unit, model.pretraining(1.0, 1.0));
}

// Everything but pretraining (RL on its fixed tokens and inference), with its slope in ln N.
struct FixedCosts {
  double value;
  double d_log_params;
};
FixedCosts non_pretrain_costs(const LifetimeCostModel& model, CostUnit unit, double params) {
  const auto total = model.total(unit, params, 1.0);
  // total = k N * 1 + rl + inference; the k N part has slope k N in ln N.
  const double pretrain = total.d_log_tokens;
  return {total.value - pretrain, total.d_log_params - pretrain};
}

void check_inputs(const LossLaw& law, const LifetimeCostModel& model, double budget,
                  const QualityAtBudgetOptions& quality_options) {
  law.validate();
  model.validate();
  quality_options.validate();
  if (!std::isfinite(budget) || budget <= 0.0) {
    std::ostringstream message;
    message << "budget must be finite and positive, got " << budget;
    throw InputError(message.str());
  }
}

// The budget left for pretraining, as a fraction of the budget, minus the cost of one token
// per parameter: positive while the plan can afford D >= 1.
double affordable(const LifetimeCostModel& model, CostUnit unit, double budget, double k,
                  double log_params) {
  const double params = std::exp(log_params);
  return (budget - non_pretrain_costs(model, unit, params).value - k * params) / budget;
}

std::string unaffordable_message(const LifetimeCostModel& model, CostUnit unit, double budget,
                                 double min_params) {
  std::ostringstream message;
  message << "the budget of " << format_scientific(budget, 4) << " " << to_string(unit)
          << " cannot serve the inference demand and RL even with the smallest model considered ("
          << format_quantity(min_params, Unit::count) << " parameters costs "
          << format_scientific(non_pretrain_costs(model, unit, min_params).value, 4) << " "
          << to_string(unit) << " before any pretraining)";
  return message.str();
}

}  // namespace

double tokens_within_budget(const LifetimeCostModel& model, CostUnit unit, double budget,
                            double params) {
  const double left = budget - non_pretrain_costs(model, unit, params).value;
  if (!(left > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return left / (pretrain_per_param_token(model, unit) * params);
}

void QualityAtBudgetOptions::validate() const {
  if (!std::isfinite(min_params) || min_params < 1.0) {
    std::ostringstream message;
    message << "min_params must be at least 1, got " << min_params;
    throw InputError(message.str());
  }
}

LifetimePlan max_quality_at_budget_reduced(const LossLaw& law, const LifetimeCostModel& model,
                                           CostUnit unit, double budget,
                                           const QualityAtBudgetOptions& quality_options) {
  check_inputs(law, model, budget, quality_options);
  LifetimePlan plan;
  plan.unit = unit;
  const double k = pretrain_per_param_token(model, unit);
  if (!(k > 0.0)) {
    throw InputError(std::string("the cost model has no pretraining cost in ") +
                     std::string(to_string(unit)));
  }
  double lower = std::log(quality_options.min_params);
  auto room = [&](double log_params) { return affordable(model, unit, budget, k, log_params); };
  if (!(room(lower) > 0.0)) {
    plan.solve.status = Status::infeasible;
    plan.solve.message = unaffordable_message(model, unit, budget, quality_options.min_params);
    return plan;
  }
  // The largest N that still affords D >= 1 (and that the setup can serve).
  double upper = std::min(kLogUpperBound, std::log(model.max_params));
  if (!(lower < upper)) {
    plan.solve.status = Status::infeasible;
    plan.solve.message = "the setup serves no model of at least min_params parameters";
    return plan;
  }
  if (room(upper) <= 0.0) {
    const RootResult edge = find_root_in_bracket(room, lower, upper);
    if (edge.status != Status::converged) {
      plan.solve.status = Status::not_converged;
      plan.solve.message = "1-D reduction: the largest affordable model: " + edge.message;
      return plan;
    }
    // The root is the middle of a bracket a few ulps wide, maybe on the unaffordable side
    // (where D < 1, or no budget is left at all when inference costs almost all of it): step
    // back to the side that affords D >= 1. Each ulp of ln N moves `room` by far more than its
    // rounding, so a few steps do.
    upper = edge.x;
    for (int step = 0; step < 64 && !(room(upper) > 0.0) && upper > lower; ++step) {
      upper = std::nextafter(upper, lower);
    }
  }
  auto tokens_at = [&](double log_params) {
    return tokens_within_budget(model, unit, budget, std::exp(log_params));
  };
  // D falls along the budget as N grows; where it would pass 1e30 tokens (the variables'
  // range, as NLopt's bounds) the smallest N is where it reaches it, and there both bind.
  double log_params = lower;
  std::string how;
  auto beyond_tokens = [&](double x) { return std::log(tokens_at(x)) - kLogUpperBound; };
  if (beyond_tokens(upper) >= 0.0) {
    plan = plan_at(law, model, unit, std::exp(upper), std::exp(kLogUpperBound));
    plan.solve.status = Status::converged;
    plan.solve.algorithm = "1-D reduction, TOMS 748";
    plan.solve.message = "the budget buys the largest model and data considered (1e30 each)";
    plan.solve.x = {upper, kLogUpperBound};
    plan.solve.constraint_violation = 0.0;
    return plan;
  }
  if (beyond_tokens(lower) > 0.0) {
    const RootResult edge = find_root_in_bracket(beyond_tokens, lower, upper);
    if (edge.status != Status::converged) {
      plan.solve.status = Status::not_converged;
      plan.solve.message =
          "1-D reduction: the model whose data reaches 1e30 tokens: " + edge.message;
      return plan;
    }
    lower = edge.x;
    for (int step = 0; step < 64 && beyond_tokens(lower) > 0.0 && lower < upper; ++step) {
      lower = std::nextafter(lower, upper);
    }
  }
  // dL/d ln N along the binding budget: -alpha p - beta q d ln D / d ln N, with
  // d ln D / d ln N = -(d fixed / d ln N) / (budget - fixed) - 1.
  auto slope = [&](double log_params) {
    const double params = std::exp(log_params);
    const FixedCosts fixed = non_pretrain_costs(model, unit, params);
    const double tokens = (budget - fixed.value) / (k * params);
    const double d_log_tokens = -fixed.d_log_params / (budget - fixed.value) - 1.0;
    return -law.alpha * law.params_term(params) - law.beta * law.data_term(tokens) * d_log_tokens;
  };
  if (slope(lower) >= 0.0) {
    log_params = lower;
    how = lower == std::log(quality_options.min_params)
              ? "the smallest model considered is the best the budget buys"
              : "the budget is best spent on 1e30 tokens, the most data considered";
  } else if (slope(upper) <= 0.0) {
    log_params = upper;
    how = "the budget is best spent on the largest model it affords (or the setup serves)";
  } else {
    const RootResult root = find_root_in_bracket(slope, lower, upper);
    if (root.status != Status::converged) {
      plan.solve.status = Status::not_converged;
      plan.solve.message = "1-D reduction: " + root.message;
      return plan;
    }
    log_params = root.x;
    how = "converged (1-D reduction, TOMS 748, " + std::to_string(root.iterations) + " iterations)";
  }
  plan = plan_at(law, model, unit, std::exp(log_params),
                 std::min(tokens_at(log_params), std::exp(kLogUpperBound)));
  plan.solve.status = Status::converged;
  plan.solve.algorithm = "1-D reduction, TOMS 748";
  plan.solve.message = how;
  plan.solve.x = {log_params, std::log(plan.pretrain_tokens)};
  plan.solve.constraint_violation = 0.0;
  return plan;
}

}  // namespace scaleopt
