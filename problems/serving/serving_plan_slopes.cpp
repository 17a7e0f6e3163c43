#include "scaleopt/problems/serving/serving_plan_slopes.hpp"

#include <algorithm>

namespace scaleopt {
namespace {

// Compute-bound from the first sequence (serving_plan.cpp sets B = 1 then).
bool batch_fixed_at_one(const ServingPlan& plan) {
  return plan.bound == BatchBound::balance && plan.batch == 1.0 && !plan.step.memory_bound();
}

// d ln(cost per output token) along a direction in which the weights grow as N and the FLOPs
// per token as N times `flops_moving` (1: both, the model scaled; 0: the weights alone).
double output_slope(const Roofline& r, const ServingPlan& plan, double flops_moving) {
  const DecodeStep& step = plan.step;
  // Shares of the step that scale with N: the matmuls and the weight read (a model scaled by
  // its parameter count has direct totals, so no embedding rows: problems/lifetime_cost_*).
  const double compute_share =
      flops_moving * 2.0 * r.decode_params * plan.batch / step.flops;  // phi_c
  const double memory_share = r.weight_read_bytes / step.bytes;        // phi_m
  const bool compute_bound = !step.memory_bound();
  const double time_in_params = compute_bound ? compute_share : memory_share;
  const double time_in_batch = compute_bound ? 1.0 : 1.0 - memory_share;
  double batch_slope = 0.0;
  switch (plan.bound) {
    case BatchBound::given:
    case BatchBound::mfu:
      break;
    case BatchBound::balance:
      if (!batch_fixed_at_one(plan)) batch_slope = -(compute_share - memory_share) / memory_share;
      break;
    case BatchBound::hbm: {
      const double weight_share = r.weight_bytes / plan.hbm_bytes_needed;  // psi
      batch_slope = -weight_share / (1.0 - weight_share);
      break;
    }
    case BatchBound::latency:
      batch_slope = -time_in_params / time_in_batch;
      break;
  }
  return time_in_params + (time_in_batch - 1.0) * batch_slope;
}

}  // namespace

ServingPlanSlopes log_slopes_in_params(const Roofline& r, const ServingPlan& plan) {
  // 2 N_active FLOPs at fixed MFUs: the total does not enter.
  if (plan.bound == BatchBound::mfu) return {1.0, 1.0, 0.0, 0.0};
  ServingPlanSlopes slopes;
  slopes.output_token = output_slope(r, plan, 1.0);
  slopes.output_token_in_total = output_slope(r, plan, 0.0);
  // Prefill: the matmul share when compute-bound, else the weight read's share of the bytes. A
  // pass filled with prompts up to the ridge (no pass given) keeps its weight read hidden as N
  // moves the ridge: its price is the larger of its compute and its traffic, and the traffic
  // does not scale with N (at the ridge memory equals compute, so comparing them would pick
  // either by rounding).
  const PrefillToken& prefill = plan.prefill;
  const bool up_to_ridge = r.prefill_tokens_per_pass <= 0.0;
  const double memory_seconds =
      up_to_ridge ? prefill.traffic_memory_seconds : prefill.memory_seconds;
  const double memory_in_params = up_to_ridge ? 0.0 : prefill.weight_memory_seconds;
  const double prefill_tokens = std::max(plan.context_tokens, 1.0);
  if (prefill.compute_seconds > memory_seconds) {
    slopes.input_token =
        (2.0 * r.prefill_params + 2.0 * r.head_params / prefill_tokens) / prefill.flops;
    slopes.input_token_in_total = 0.0;  // compute-bound: the FLOPs, which the total leaves
  } else {
    slopes.input_token = memory_in_params / memory_seconds;
    slopes.input_token_in_total = slopes.input_token;  // the weights' read alone
  }
  return slopes;
}

}  // namespace scaleopt
