#pragma once
// The output/input price ratio and what it says about decode (Pope on Dwarkesh 2026;
// docs/pricing.md). Prefill is compute-bound, so an input token costs its FLOPs; an output
// token costs t_step / B, which exceeds its FLOPs by the memory-bound factor of decode,
// t_memory / t_compute. Without attention FLOPs prefill and decode do the same 2 N_active
// FLOPs per token, so
//
//   output / input = max(1, t_memory / t_compute),  t_memory / t_compute = B* / B + S / S*
//
// (dense attention): it falls as the batch grows and is 1 once decode is compute-bound.
// Inverse: from a published ratio R > 1, the batch at which the roofline's ratio is R.

#include <string>

#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

// Output over input cost per token with `batch` sequences at `context_tokens` (chip-time
// ratio, independent of the price).
double output_input_cost_ratio(const Roofline& roofline, double batch, double context_tokens);

// t_memory / t_compute of the decode step: above 1 decode is memory-bound.
double decode_memory_bound_factor(const Roofline& roofline, double batch, double context_tokens);

struct BatchForRatio {
  Status status = Status::not_converged;  // infeasible: no batch >= 1 gives the ratio
  std::string message;
  double price_ratio = 0.0;
  double context_tokens = 0.0;
  double batch = 0.0;                // where the roofline's output/input ratio is price_ratio
  double memory_bound_factor = 0.0;  // of decode at that batch
  double compute_bound_ratio = 0.0;  // the ratio once decode is compute-bound (large batch)
  double batch_one_ratio = 0.0;      // the ratio at batch 1
  // The most sequences the replica's HBM holds at this context: an implied batch above it
  // cannot be served on this replica (the ratio is then a price choice, not the roofline's).
  double hbm_full_batch = 0.0;
};

// The batch at which output_input_cost_ratio equals `price_ratio`, by TOMS 748 on ln B over
// [1, 1e15] (the ratio falls monotonically with B until decode is compute-bound). The HBM
// limit is reported, not imposed.
BatchForRatio batch_for_price_ratio(const Roofline& roofline, double price_ratio,
                                    double context_tokens);

}  // namespace scaleopt
