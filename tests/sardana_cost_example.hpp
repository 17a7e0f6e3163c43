#pragma once
// The cost example of the beyond-chinchilla README (Sardana et al. 2024): training on
// A100-80GB at $1.40/h in bf16 (312 TFLOP/s) at MFU 0.5; inference on A100-40GB at $0.60/h in
// int8 (624 TOPS), prefill MFU 0.4, decode MFU 0.2 (the README's; a test may vary it); 1e10
// requests of 1000 input and 250 output tokens.

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt::testing {

inline LifetimeCostModel sardana_cost_model(double decode_mfu = 0.2) {
  LifetimeCostModel model;
  model.pretrain_gpu_hours_per_flop = 1.0 / (3600.0 * 312e12 * 0.5);
  model.pretrain_usd_per_gpu_hour = 1.40;
  const double input_tokens = 1e10 * 1000, output_tokens = 1e10 * 250;
  model.inference_flops_per_param = 2.0 * (input_tokens + output_tokens);
  model.inference = SizeCostTerm::linear(
      2.0 * (input_tokens / 0.4 + output_tokens / decode_mfu) / (3600.0 * 624e12), 0.60);
  return model;
}

}  // namespace scaleopt::testing
