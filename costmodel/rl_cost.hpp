#pragma once
// The cost of RL (docs/model.md, RL cost): per rollout token, generation at the decode cost,
// the trained fraction f at 6 N_active FLOPs (training MFU), and p extra forward passes at the
// prefill cost. In FLOPs per active parameter per rollout token: k = 2 + 6 f + 2 p. The talk's
// "k between 2 and 6" is f from 0 to 2/3 with p = 0; f = 1 gives 8 because the trainer's
// forward pass does not reuse the generation's.

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/rl_setup.hpp"
#include "scaleopt/costmodel/training_setup.hpp"

namespace scaleopt {

struct RlCost {
  ComputeCost rollout;       // generation, at the decode cost per output token
  ComputeCost training;      // 6 N_active per trained token at the training MFU
  ComputeCost extra_passes;  // forward passes at the prefill cost per input token
  ComputeCost total() const { return rollout + training + extra_passes; }
  // FLOPs per active parameter per rollout token (k); 0 when there are no rollouts.
  double flops_per_param_token = 0.0;
};

// `decode_token` and `prefill_token` are the serving costs of one token at the rollout context
// (from the serving plan); the policy update runs on the training setup's chip and price.
RlCost rl_cost(const Architecture& architecture, const RlSetup& rl, const TrainingSetup& training,
               const ComputeCost& decode_token, const ComputeCost& prefill_token);

}  // namespace scaleopt
