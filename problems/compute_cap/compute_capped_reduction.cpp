#include "scaleopt/problems/compute_cap/compute_capped_reduction.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

constexpr const char* kAlgorithm = "compute-capped reduction (closed form, TOMS 748)";

LifetimePlan converged_plan(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                            double params, double tokens, const char* how) {
  LifetimePlan plan = plan_at(law, model, unit, params, tokens);
  plan.solve.status = Status::converged;
  plan.solve.algorithm = kAlgorithm;
  plan.solve.message = how;
  plan.solve.x = {std::log(params), std::log(tokens)};
  return plan;
}

LifetimePlan failed_plan(CostUnit unit, Status status, std::string message) {
  LifetimePlan plan;
  plan.unit = unit;
  plan.solve.status = status;
  plan.solve.algorithm = kAlgorithm;
  plan.solve.message = std::move(message);
  return plan;
}

ParamsTokens<double> chinchilla_at(const LossLaw& law, double flops) {
  return compute_optimal_allocation(coefficients_of<double>(law), flops);
}

// Whether a plan's FLOPs are within the cap, to rounding (6 N D of a root is exact to a few
// ulps of the cap).
bool within_cap(double params, double tokens, double max_flops) {
  return 6.0 * params * tokens <= max_flops * (1.0 + 1e-12);
}

}  // namespace

double lowest_loss_at_compute(const LossLaw& law, double max_flops) {
  const ParamsTokens<double> point = chinchilla_at(law, max_flops);
  return law.loss(point.params, point.tokens);
}

LifetimePlan loss_at_compute_cap_reduced(const LossLaw& law, const LifetimeCostModel& model,
                                         CostUnit unit, double max_flops,
                                         std::optional<double> max_pretrain_tokens,
                                         double min_params) {
  ParamsTokens<double> point = chinchilla_at(law, max_flops);
  const char* how = "Chinchilla's point of the cap (Hoffmann et al. 2022, Eq. 4)";
  if (max_pretrain_tokens && point.tokens > *max_pretrain_tokens) {
    point = {max_flops / (6.0 * *max_pretrain_tokens), *max_pretrain_tokens};
    how = "the token cap: D = D_max, N = C_max / (6 D_max)";
  }
  if (point.params < min_params) {
    point = {min_params, max_flops / (6.0 * min_params)};
    how = "the smallest model considered, N = min_params, D = C_max / (6 N)";
  }
  if (!(point.tokens >= 1.0) || !(point.params <= model.max_params)) {
    std::ostringstream message;
    message << "no plan of at least " << format_quantity(min_params, Unit::count)
            << " parameters and one token fits " << format_scientific(max_flops, 4)
            << " pretraining FLOPs within the largest model the setup serves";
    return failed_plan(unit, Status::infeasible, message.str());
  }
  return converged_plan(law, model, unit, point.params, point.tokens, how);
}

LifetimePlan cost_at_loss_compute_capped_reduced(const LossLaw& law, double target_loss,
                                                 const LifetimeCostModel& model, CostUnit unit,
                                                 double max_flops) {
  LifetimePlan free = min_lifetime_cost_at_loss_reduced(law, target_loss, model, unit);
  if (!free.solve.converged() || within_cap(free.params, free.pretrain_tokens, max_flops)) {
    return free;
  }
  const double floor = lowest_loss_at_compute(law, max_flops);
  if (!(floor < target_loss)) {
    std::ostringstream message;
    message.precision(10);
    message << "target loss " << target_loss << " is at or below the lowest loss " << floor
            << " that " << format_scientific(max_flops, 4) << " pretraining FLOPs reach";
    return failed_plan(unit, Status::infeasible, message.str());
  }
  // ln(6 N D(N)) - ln C_max on the small side of the isoloss curve's least-FLOPs point: positive
  // where N approaches the smallest size reaching the target (D infinite), negative at
  // Chinchilla's point of the target, which needs less than the cap.
  const LogParamsRange range = log_params_range_at_loss(law, target_loss, model.max_params);
  const auto c = coefficients_of<double>(law);
  const double least_flops_log_params =
      std::log(compute_optimal_allocation(c, compute_for_loss(c, target_loss)).params);
  const auto excess = [&](double log_params) {
    const double params = std::exp(log_params);
    return std::log(6.0 * params * tokens_for_loss(law, target_loss, params)) - std::log(max_flops);
  };
  const RootResult root =
      find_root_in_bracket(excess, range.lowest, std::min(least_flops_log_params, range.highest));
  if (root.status != Status::converged) {
    return failed_plan(unit, Status::not_converged,
                       "the compute-capped reduction found no root: " + root.message);
  }
  const double params = std::exp(root.x);
  return converged_plan(law, model, unit, params, max_flops / (6.0 * params),
                        "the cap binds: the isoloss curve's smaller N with 6 N D = C_max");
}

LifetimePlan loss_within_budget_compute_capped_reduced(const LossLaw& law,
                                                       const LifetimeCostModel& model,
                                                       CostUnit unit, double budget,
                                                       double max_flops, double min_params) {
  LifetimePlan free = max_quality_at_budget_reduced(law, model, unit, budget, {min_params});
  if (!free.solve.converged() || within_cap(free.params, free.pretrain_tokens, max_flops)) {
    return free;
  }
  const ParamsTokens<double> chinchilla = chinchilla_at(law, max_flops);
  const double top = std::min(chinchilla.params, model.max_params);
  const auto over_budget = [&](double log_params) {
    const double params = std::exp(log_params);
    return std::log(in_unit(unit, model.cost(params, max_flops / (6.0 * params)).total())) -
           std::log(budget);
  };
  if (over_budget(std::log(top)) <= 0.0) {
    return converged_plan(law, model, unit, top, max_flops / (6.0 * top),
                          "the cap binds, the budget does not: Chinchilla's point of the cap");
  }
  const RootResult root = find_root_in_bracket(over_budget, std::log(min_params), std::log(top));
  if (root.status != Status::converged) {
    return failed_plan(
        unit, root.status == Status::infeasible ? Status::infeasible : Status::not_converged,
        "the compute-capped budget reduction found no root: " + root.message);
  }
  const double params = std::exp(root.x);
  return converged_plan(law, model, unit, params, max_flops / (6.0 * params),
                        "the cap and the budget bind: 6 N D = C_max at the budget's N");
}

}  // namespace scaleopt
