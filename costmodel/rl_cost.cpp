#include "scaleopt/costmodel/rl_cost.hpp"

namespace scaleopt {

RlCost rl_cost(const Architecture& architecture, const RlSetup& rl, const TrainingSetup& training,
               const ComputeCost& decode_token, const ComputeCost& prefill_token) {
  rl.validate("rl");
  RlCost cost;
  if (rl.rollout_tokens <= 0.0) return cost;
  const double active = architecture.active_param_count();
  cost.rollout = decode_token * rl.rollout_tokens;
  const double trained_flops = 6.0 * active * rl.trained_fraction * rl.rollout_tokens;
  const double price = trained_flops > 0.0 ? training.price_per_chip_hour("training") : 0.0;
  cost.training =
      cost_at_utilization(trained_flops, training.chip.peak_flop_per_second(training.precision),
                          rl.mfu.value_or(training.mfu), price);
  cost.extra_passes = prefill_token * (rl.extra_forward_passes * rl.rollout_tokens);
  cost.flops_per_param_token = cost.total().flops / (active * rl.rollout_tokens);
  return cost;
}

}  // namespace scaleopt
