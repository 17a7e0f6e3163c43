#include "scaleopt/problems/equal_cost/chinchilla_comparison.hpp"

#include <string>

#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt {
ChinchillaComparison compare_with_chinchilla(const AllocationRule& rule, const LifetimePlan& plan,
                                             const LifetimeCostModel& model) {
  ChinchillaComparison comparison;
  const Allocation equal_quality = optimal_for_loss(rule, plan.loss);
  LifetimePlan& chinchilla = comparison.chinchilla;
  chinchilla.unit = plan.unit;
  chinchilla.solve = equal_quality.solve;
  if (equal_quality.solve.status == Status::infeasible) return comparison;
  if (!chinchilla_servable(comparison, equal_quality.params, model.max_params)) return comparison;
  chinchilla.params = equal_quality.params;
  chinchilla.pretrain_tokens = equal_quality.tokens;
  chinchilla.loss = equal_quality.loss;
  chinchilla.cost = model.cost(chinchilla.params, chinchilla.pretrain_tokens);
  set_chinchilla_ratios(comparison, plan);
  return comparison;
}

bool chinchilla_servable(ChinchillaComparison& comparison, double params, double max_params) {
  if (params <= max_params) return true;
  comparison.chinchilla.solve.status = Status::infeasible;
  comparison.chinchilla.solve.message = "the equal-quality Chinchilla-style model (" +
                                        format_quantity(params, Unit::count) +
                                        " parameters) is larger than the setup can serve (" +
                                        format_quantity(max_params, Unit::count) + ")";
  return false;
}

void set_chinchilla_ratios(ChinchillaComparison& comparison, const LifetimePlan& plan) {
  const LifetimePlan& chinchilla = comparison.chinchilla;
  comparison.params_ratio = plan.params / chinchilla.params;
  comparison.tokens_ratio = plan.pretrain_tokens / chinchilla.pretrain_tokens;
  comparison.cost_ratio =
      in_unit(plan.unit, plan.cost.total()) / in_unit(plan.unit, chinchilla.cost.total());
}

double over_chinchilla(const AllocationRule& rule, double params, double pretrain_tokens) {
  return pretrain_tokens / rule_tokens(rule, params);
}

}  // namespace scaleopt
