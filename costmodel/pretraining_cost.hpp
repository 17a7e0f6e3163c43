#pragma once
// The cost of pretraining (docs/model.md, Pretraining cost): 6 N D matmul FLOPs (forward 2ND,
// backward 4ND), plus, when the sequence length is given, 3 x the forward attention FLOPs 2 *
// n_layers * n_ctx * d_attn per token (Kaplan et al. 2020, Table 1), at an MFU.

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/training_setup.hpp"

namespace scaleopt {

struct PretrainingCost {
  ComputeCost cost;              // flops = matmul_flops + attention_flops
  double matmul_flops = 0.0;     // 6 * N_active * D
  double attention_flops = 0.0;  // 3 * D * (forward attention FLOPs per token); 0 without context
  double wall_clock_seconds = 0.0;  // on training.cluster_chips; 0 when no cluster size is given
};

// Training FLOPs of one token, forward and backward: 6 N_active, plus 3 x the attention
// forward at `context_tokens` (0 for none). The attention term needs the shape.
double training_flops_per_token(const Architecture& architecture, double context_tokens);

// Throws InputError (prefix "training") when the setup is invalid, the context is given for a
// model without a shape, or no price is known.
PretrainingCost pretraining_cost(const Architecture& architecture, const TrainingSetup& training);

}  // namespace scaleopt
