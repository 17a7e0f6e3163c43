#pragma once
// The serving plan of a replica at one context length: the batch (given, or the best one),
// the decode step it gives, and the cost of an input and an output token.
//
// The best batch minimises the cost per output token, price * max(t_compute, t_memory) / B,
// subject to the HBM capacity and an optional per-token latency target. That cost never rises
// with B (t_compute / B is constant, t_memory / B falls), so the optimum is the smallest B at
// which a constraint binds: decode turns compute-bound (cost cannot fall further), HBM is full,
// or the step reaches the latency target. The step's compute and memory times and the HBM in use
// are affine in B, so each bound is a closed form; the first to bind is the answer. The same
// roots found by TOMS 748 on monotone functions of ln B (solver/root_find.hpp) are the
// independent check the tests hold the closed form to (BatchSearch::root_finding).

#include <cmath>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

// The largest batch the serving plan searches: far beyond any HBM (1e15 sequences).
inline constexpr double kMaxServingBatch = 1e15;
inline const double kLogMaxServingBatch = std::log(kMaxServingBatch);

// What fixed the batch.
enum class BatchBound {
  given,    // the setup names the batch
  balance,  // decode turned compute-bound: larger batches cost the same per token
  hbm,      // weights plus KV caches fill the replica's HBM
  latency,  // the decode step reached the latency target
  mfu,      // not batched: priced at fixed utilizations (pricing = mfu)
};
std::string_view to_string(BatchBound bound);

struct ServingPlan {
  Status status = Status::not_converged;  // converged: the batch is verified as chosen
  std::string message;
  double context_tokens = 0.0;
  double batch = 0.0;  // sequences per decode step (continuous relaxation)
  BatchBound bound = BatchBound::given;
  DecodeStep step;                // at `batch`
  PrefillToken prefill;           // one input token at this context
  ComputeCost input_token;        // cost of one prefilled token
  ComputeCost output_token;       // cost of one decoded token
  double hbm_bytes_needed = 0.0;  // weights + KV caches at `batch`

  // Output over input cost per token (chip-time ratio, so independent of the price).
  double output_input_ratio() const { return output_token.chip_hours / input_token.chip_hours; }
};

// How the best batch is found: the closed form (the default: a serving plan is priced at every
// evaluation of every solve), or TOMS 748 on ln B, ~20x slower, kept as its independent check.
enum class BatchSearch { closed_form, root_finding };

// Throws InputError (fields named with `prefix`: "inference", "rl", or "--" for flags) when the
// weights, or one sequence, do not fit the replica's HBM, when a given batch does not fit, or
// when no batch meets the latency target; the message says how much is needed and available.
ServingPlan plan_serving(const Roofline& roofline, const ServingSetup& setup, double context_tokens,
                         std::string_view prefix, BatchSearch search = BatchSearch::closed_form);

// pricing = mfu (Sardana et al. 2024): a token costs 2 N_active FLOPs at prefill_mfu (input) or
// decode_mfu (output) of the replica's peak; no batch and no memory check.
ServingPlan plan_serving_by_mfu(const Roofline& roofline, const ServingSetup& setup,
                                double context_tokens);

// The plan the setup's pricing asks for: the roofline's, or the fixed utilizations'.
ServingPlan plan_inference(const Roofline& roofline, const ServingSetup& setup,
                           double context_tokens, std::string_view prefix);

}  // namespace scaleopt
