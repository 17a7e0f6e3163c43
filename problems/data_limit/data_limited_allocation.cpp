#include "scaleopt/problems/data_limit/data_limited_allocation.hpp"

#include <cmath>
#include <limits>

#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"

namespace scaleopt {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LossTerm repeated(const LossLaw& law, double unique_tokens) {
  LossTerm loss(law);
  loss.then(std::make_shared<const RepetitionTransform>(law, unique_tokens, "--unique-tokens"));
  return loss;
}

DataLimitedAllocation from_plan(const LossLaw& law, const LifetimePlan& plan,
                                double unique_tokens) {
  DataLimitedAllocation result;
  Allocation& a = result.allocation;
  a.params = plan.params;
  a.tokens = plan.pretrain_tokens;
  a.compute_flops = training_flops(plan.params, plan.pretrain_tokens);
  a.loss = plan.loss;
  a.solve = plan.solve;
  a.closed_form_relative_difference = kNaN;
  result.unique_tokens = unique_tokens;
  result.reference_relative_difference = plan.reference_relative_difference;
  if (plan.solve.status != Status::infeasible) {
    const DataLimitedPoint point =
        data_limited_point(law, plan.params, plan.pretrain_tokens, unique_tokens);
    result.epochs = point.epochs;
    result.effective_tokens = point.effective_tokens;
    result.effective_params = point.effective_params;
  }
  return result;
}

}  // namespace

DataLimitedPoint data_limited_point(const LossLaw& law, double params, double tokens,
                                    double unique_tokens) {
  law.validate("law");
  const LossTerm loss = repeated(law, unique_tokens);
  const double x[] = {std::log(params), std::log(tokens)};
  const LossTerm::Value value = loss.at(DecisionLayout{}, x);
  return {value.loss, law.loss(params, tokens), tokens / unique_tokens,
          value.report.repeated_tokens, value.report.repeated_params};
}

DataLimitedAllocation optimal_for_compute_with_unique_tokens(const LossLaw& law,
                                                             double compute_flops,
                                                             double unique_tokens,
                                                             const SolverOptions& options) {
  const LifetimeCostModel pretraining_only = flops_cost_model(0.0);
  const LifetimePlan plan = solve_lifecycle(
      lifecycle_terms(repeated(law, unique_tokens), pretraining_only, CostUnit::flops),
      LifecycleQuestion::within_budget(compute_flops), options);
  DataLimitedAllocation result = from_plan(law, plan, unique_tokens);
  const LifetimePlan fresh =
      max_quality_at_budget(law, pretraining_only, CostUnit::flops, compute_flops, 1.0, options);
  result.data_limit_loss =
      fresh.solve.converged() && plan.solve.converged() ? plan.loss - fresh.loss : kNaN;
  result.data_limit_flops = kNaN;
  return result;
}

DataLimitedAllocation optimal_for_loss_with_unique_tokens(const LossLaw& law, double target_loss,
                                                          double unique_tokens,
                                                          const SolverOptions& options) {
  const LifetimeCostModel pretraining_only = flops_cost_model(0.0);
  const LifetimePlan plan = solve_lifecycle(
      lifecycle_terms(repeated(law, unique_tokens), pretraining_only, CostUnit::flops),
      LifecycleQuestion::at_target_loss(target_loss), options);
  DataLimitedAllocation result = from_plan(law, plan, unique_tokens);
  const LifetimePlan fresh =
      min_lifetime_cost_at_loss(law, target_loss, pretraining_only, CostUnit::flops, options);
  result.data_limit_loss = kNaN;
  result.data_limit_flops = fresh.solve.converged() && plan.solve.converged()
                                ? plan.cost.total().flops - fresh.cost.total().flops
                                : kNaN;
  return result;
}

}  // namespace scaleopt
