#include "scaleopt/costmodel/pretraining_cost.hpp"

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

// Forward attention FLOPs of one training token in a causal sequence of `context_tokens`:
// it attends to context/2 tokens on average, which gives Kaplan et al. (2020)'s
// 2 n_layer n_ctx d_attn for MHA/GQA/MQA (windows, compressed entries and top-k as each layer
// attends, evaluated at that mean context).
double attention_forward_flops_per_token(const Architecture& architecture, double context_tokens) {
  if (context_tokens <= 0.0) return 0.0;
  if (!architecture.has_shape()) {
    throw field_error("training.context",
                      "the attention FLOPs need the model's shape (layers, heads, head_dim); " +
                          architecture.name + " has only direct totals");
  }
  return architecture.attention_flops_per_token(AttentionPass::prefill, context_tokens / 2.0);
}

}  // namespace

double training_flops_per_token(const Architecture& architecture, double context_tokens) {
  // Backward costs twice the forward: 6 N for the matmuls, 3 x the attention forward.
  return 6.0 * architecture.active_param_count() +
         3.0 * attention_forward_flops_per_token(architecture, context_tokens);
}

PretrainingCost pretraining_cost(const Architecture& architecture, const TrainingSetup& training) {
  training.validate("training");
  PretrainingCost result;
  const double context = training.context_tokens.value_or(0.0);
  result.matmul_flops = 6.0 * architecture.active_param_count() * training.tokens;
  result.attention_flops =
      3.0 * attention_forward_flops_per_token(architecture, context) * training.tokens;
  const double flops = result.matmul_flops + result.attention_flops;
  const double price = training.tokens > 0.0 ? training.price_per_chip_hour("training") : 0.0;
  result.cost = cost_at_utilization(flops, training.chip.peak_flop_per_second(training.precision),
                                    training.mfu * training.goodput, price);
  if (training.cluster_chips > 0.0) {
    result.wall_clock_seconds = result.cost.chip_hours * kSecondsPerHour / training.cluster_chips;
  }
  return result;
}

}  // namespace scaleopt
