#pragma once
// The inference roofline (Pope et al. 2022, "Efficiently Scaling Transformer Inference";
// "How to Scale Your Model", ch. 7; Pope on Dwarkesh 2026), docs/model.md, Inference roofline. One
// decode step of B sequences at context S on a replica with peak F FLOP/s and bandwidth W bytes/s:
//
//   t_compute = B * 2 N_active / F
//   t_memory  = (N_total * bytes_per_param + B * S * kv_bytes_per_token) / W
//   t_step    = max(t_compute, t_memory),   cost per output token = t_step * price / B
//
// With sparse attention a step reads min(S, k) cached tokens plus the indexer's keys of all
// S; with attention FLOPs counted, t_compute adds B times the attention FLOPs at context S.
// Everything here is closed form; choosing the batch is an optimisation (problems/serving_plan).

#include <string_view>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"

namespace scaleopt {

// A serving replica and a model reduced to the numbers of the roofline.
struct Roofline {
  double chips = 1.0;
  double peak_flop_per_second = 0.0;  // replica, at the serving precision
  double flop_per_second = 0.0;       // F: peak times compute_efficiency
  double bytes_per_second = 0.0;      // W: replica HBM bandwidth times bandwidth_efficiency
  double hbm_bytes = 0.0;             // replica HBM capacity
  double usd_per_chip_hour = 0.0;
  double total_params = 0.0;
  double active_params = 0.0;
  double weight_bytes = 0.0;             // N_total * bytes per parameter
  double kv_bytes_per_token = 0.0;       // cached per context token, all layers
  double sparse_top_k = 0.0;             // 0: dense attention reads every cached token
  double indexer_bytes_per_token = 0.0;  // sparse attention: indexer keys cached per token
  // Attention FLOPs per context token (0 unless ServingSetup::attention_flops).
  double decode_attention_flops_per_context_token = 0.0;
  double prefill_attention_flops_per_context_token = 0.0;
  double indexer_flops_per_context_token = 0.0;

  double usd_per_second() const { return chips * usd_per_chip_hour / kSecondsPerHour; }
};

// Throws InputError naming fields with `prefix` ("inference", or "--" for flags) when the
// setup is invalid, the price is unknown, or attention FLOPs are asked of a model without shape.
Roofline make_roofline(const Architecture& architecture, const ServingSetup& setup,
                       std::string_view prefix);

// One decode step of `batch` sequences, each with `context_tokens` cached tokens.
struct DecodeStep {
  double batch = 0.0;
  double context_tokens = 0.0;
  double flops = 0.0;            // model FLOPs of the step
  double bytes = 0.0;            // bytes read from HBM: weights once, KV once per sequence
  double compute_seconds = 0.0;  // flops / F
  double memory_seconds = 0.0;   // bytes / W
  double seconds() const {
    return compute_seconds > memory_seconds ? compute_seconds : memory_seconds;
  }
  bool memory_bound() const { return memory_seconds >= compute_seconds; }
};
DecodeStep decode_step(const Roofline& roofline, double batch, double context_tokens);

// Cost of one output token decoded in `step`: FLOPs per token, chip-hours = t_step * chips / B.
ComputeCost output_token_cost(const Roofline& roofline, const DecodeStep& step);

// Prefill of one input token in a prompt of `context_tokens`: compute-bound (the weights are
// read once per long pass, so their traffic is neglected); memory time is writing its KV.
struct PrefillToken {
  double flops = 0.0;
  double compute_seconds = 0.0;
  double memory_seconds = 0.0;
  double seconds() const {
    return compute_seconds > memory_seconds ? compute_seconds : memory_seconds;
  }
};
PrefillToken prefill_token(const Roofline& roofline, double context_tokens);
ComputeCost input_token_cost(const Roofline& roofline, const PrefillToken& token);

// HBM a batch needs: the weights plus each sequence's KV cache (and indexer keys).
double hbm_bytes_needed(const Roofline& roofline, double batch, double context_tokens);

// Bytes cached per context token: the KV cache plus, for sparse attention, the indexer's keys.
double cached_bytes_per_token(const Roofline& roofline);

// Bytes one sequence reads per decode step at `context_tokens`, and its FLOPs per token. The
// read splits into the attended tokens' KV (min(S, k) tokens when sparse) and, for sparse
// attention, the indexer keys of all S tokens.
double kv_bytes_read_per_sequence(const Roofline& roofline, double context_tokens);
double attended_kv_bytes_per_sequence(const Roofline& roofline, double context_tokens);
double indexer_bytes_per_sequence(const Roofline& roofline, double context_tokens);
double decode_flops_per_token(const Roofline& roofline, double context_tokens);

// B* = F * bytes_per_param * N_total / (2 W N_active): the batch at which reading the weights
// takes as long as the matmuls (context ignored). ~295 for a dense model on an H100.
double critical_batch(const Roofline& roofline);

// S*: the context above which a decode step is memory-bound at any batch (large-batch limit,
// where the weight read is amortised away): 2 N_active W / (F kv_bytes_per_token) for dense
// attention without attention FLOPs; the piecewise-linear generalisation otherwise.
// +infinity when no context makes decode memory-bound.
double crossover_context(const Roofline& roofline);

// The talk's inverse: the KV bytes per token that put the crossover at `crossover_context`
// for `flop_per_byte` = F / W: 2 N_active / (F/W * S*). 100B, 600, 200K -> 1666.67 bytes.
double kv_bytes_for_crossover(double active_params, double flop_per_byte, double crossover_context);

}  // namespace scaleopt
