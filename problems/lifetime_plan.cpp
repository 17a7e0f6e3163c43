#include "problems/lifetime_plan.hpp"

namespace scaleopt {

LifetimePlan plan_at(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                     double params, double pretrain_tokens) {
  LifetimePlan plan;
  plan.params = params;
  plan.pretrain_tokens = pretrain_tokens;
  plan.loss = law.loss(params, pretrain_tokens);
  plan.cost = model.cost(params, pretrain_tokens);
  plan.unit = unit;
  return plan;
}

}  // namespace scaleopt
