#include "scaleopt/costmodel/published_run.hpp"

#include <stdexcept>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/pretraining_cost.hpp"

namespace scaleopt {

void PublishedRun::validate(const std::string& prefix) const {
  require_positive(prefix, "active_params", active_params);
  require_positive(prefix, "total_params", total_params);
  if (total_params < active_params) {
    throw field_error(qualified_field(prefix, "total_params"), "must be at least active_params");
  }
  require_positive(prefix, "tokens", tokens);
  require_positive(prefix, "gpu_hours", gpu_hours);
  if (sequence_tokens) require_positive(prefix, "sequence_tokens", *sequence_tokens);
  if (attention_shape) {
    // Only the attention's dimensions are used (the counts are the published ones).
    require_positive(prefix, "layers", attention_shape->layers);
    require_positive(prefix, "heads", attention_shape->heads);
    require_positive(prefix, "head_dim", attention_shape->head_dim);
  }
}

const ImpliedMfu& RunEfficiency::at(Precision precision) const {
  for (const ImpliedMfu& mfu : implied) {
    if (mfu.precision == precision) return mfu;
  }
  throw std::out_of_range("no implied MFU at " + std::string(to_string(precision)));
}

double predicted_gpu_hours(double flops, double peak_flop_per_second, double mfu) {
  return cost_at_utilization(flops, peak_flop_per_second, mfu, 0.0).chip_hours;
}

RunEfficiency run_efficiency(const PublishedRun& run, const Hardware& chip) {
  RunEfficiency result;
  result.matmul_flops = 6.0 * run.active_params * run.tokens;
  if (run.sequence_tokens && run.attention_shape) {
    // training_flops_per_token adds 3 x the causal forward attention to 6 N: take its
    // attention part alone, so that N stays the published count, not the shape's.
    const double per_token = training_flops_per_token(*run.attention_shape, *run.sequence_tokens) -
                             6.0 * run.attention_shape->active_param_count();
    result.attention_flops = per_token * run.tokens;
  }
  const double paid_seconds = run.gpu_hours * kSecondsPerHour;
  auto implied_at = [&](Precision precision) {
    ImpliedMfu mfu;
    mfu.precision = precision;
    mfu.peak_flop_per_second = chip.peak_flop_per_second(precision);
    mfu.matmul_only = result.matmul_flops / (paid_seconds * mfu.peak_flop_per_second);
    if (result.attention_flops) {
      mfu.with_attention = (result.matmul_flops + *result.attention_flops) /
                           (paid_seconds * mfu.peak_flop_per_second);
    }
    return mfu;
  };
  result.implied.push_back(implied_at(run.precision));
  if (run.precision != Precision::bf16) result.implied.push_back(implied_at(Precision::bf16));
  return result;
}

}  // namespace scaleopt
