#include "scaleopt/problems/equal_cost/equal_cost_heuristic.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

void CostShares::validate() const {
  const std::pair<const char*, double> fields[] = {
      {"pretrain", pretrain}, {"rl", rl}, {"inference", inference}};
  for (const auto& [name, value] : fields) {
    if (!std::isfinite(value) || value < 0.0 || value > 1.0) {
      std::ostringstream message;
      message << "shares." << name << " must be between 0 and 1, got " << value;
      throw InputError(message.str());
    }
  }
  if (inference <= 0.0) {
    throw InputError(
        "shares.inference must be positive: the heuristic sizes every budget from "
        "the inference cost");
  }
  const double sum = pretrain + rl + inference;
  if (std::fabs(sum - 1.0) > 1e-9) {
    std::ostringstream message;
    message << "shares must sum to 1, got " << pretrain << " + " << rl << " + " << inference
            << " = " << sum;
    throw InputError(message.str());
  }
}

EqualCostTokens equal_cost_tokens(double params, const LifetimeCostModel& model,
                                  const CostShares& shares, CostUnit unit,
                                  std::optional<double> max_pretrain_tokens) {
  model.validate();
  shares.validate();
  if (!std::isfinite(params) || params <= 0.0) {
    throw InputError("params must be finite and positive for the equal-cost heuristic");
  }
  LifetimeCostModel no_rl = model;
  no_rl.rl_tokens = 0.0;
  const double inference = in_unit(unit, no_rl.cost(params, 1.0).inference);
  if (!(inference > 0.0)) {
    throw InputError(
        "the equal-cost heuristic needs an inference demand (its budget is a "
        "multiple of the inference cost)");
  }
  const double lifetime = inference / shares.inference;
  // Pretraining: share * lifetime = (cost of one N*D in `unit`) * N * D.
  const double per_param_token = in_unit(unit, model.pretraining(1.0, 1.0));
  if (!(per_param_token > 0.0)) {
    throw InputError(std::string("the cost model has no pretraining cost in ") +
                     std::string(to_string(unit)));
  }
  EqualCostTokens tokens;
  tokens.share_pretrain_tokens = shares.pretrain * lifetime / (per_param_token * params);
  tokens.pretrain_tokens = std::min(tokens.share_pretrain_tokens,
                                    max_pretrain_tokens.value_or(tokens.share_pretrain_tokens));
  const double rl_per_token = rl_cost_per_token(model, unit, params);
  if (shares.rl > 0.0 && !(rl_per_token > 0.0)) {
    throw InputError("a positive RL share needs an RL cost per token (RL efficiency and price)");
  }
  tokens.rl_tokens = shares.rl > 0.0 ? shares.rl * lifetime / rl_per_token : 0.0;
  return tokens;
}

EqualCostPlan equal_cost_plan(const LossLaw& law, double params, const LifetimeCostModel& model,
                              const CostShares& shares, CostUnit unit) {
  law.validate();
  const EqualCostTokens tokens = equal_cost_tokens(params, model, shares, unit);
  EqualCostPlan result;
  result.rl_tokens = tokens.rl_tokens;
  const double pretrain_tokens = tokens.pretrain_tokens;

  LifetimeCostModel with_rl = model;
  with_rl.rl_tokens = result.rl_tokens;
  LifetimePlan& plan = result.plan;
  plan.params = params;
  plan.pretrain_tokens = pretrain_tokens;
  plan.loss = law.loss(params, pretrain_tokens);
  plan.cost = with_rl.cost(params, pretrain_tokens);
  plan.unit = unit;
  plan.solve.status = Status::converged;
  plan.solve.algorithm = "closed form (equal-cost heuristic)";
  plan.solve.message = "closed form: shares of the lifetime cost fix the token budgets";
  plan.solve.x = {std::log(params), std::log(pretrain_tokens)};
  plan.solve.kkt_residual = 0.0;
  plan.solve.constraint_violation = 0.0;
  return result;
}

CostShares cost_shares(const LifetimeCost& cost, CostUnit unit) {
  const double total = in_unit(unit, cost.total());
  if (!(total > 0.0)) return {0.0, 0.0, 0.0};
  return {in_unit(unit, cost.pretrain) / total, in_unit(unit, cost.rl) / total,
          in_unit(unit, cost.inference) / total};
}

}  // namespace scaleopt
