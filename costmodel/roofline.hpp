#pragma once
// The inference roofline (Pope et al. 2022, "Efficiently Scaling Transformer Inference";
// "How to Scale Your Model", ch. 7; Pope on Dwarkesh 2026), docs/model.md, Inference roofline. One
// decode step of B sequences at context S on a replica with peak F FLOP/s and bandwidth W bytes/s:
//
//   t_compute = B * (2 N_decode + attention FLOPs at S) / F
//   t_memory  = (weights read + B * (embedding row + KV read at S)) / W
//   t_step    = max(t_compute, t_memory),   cost per output token = t_step * price / B
//
// N_decode is the active parameters less the input embedding table, of which a step gathers
// only B rows; the output head counts once per generated token. What a sequence reads and
// computes at S follows how each layer attends (costmodel/attention_pattern.hpp): a window,
// every token, compressed entries, or the top-k of them plus the indexer's keys of all.
// Attention FLOPs count unless ServingSetup::attention_flops is off (the talk's roofline).
// Everything here is closed form; choosing the batch is an optimisation (problems/serving_plan).

#include <string_view>
#include <vector>

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
  // Parameters multiplied per generated token: active, less an untied input embedding table
  // (a lookup). Per prompt token in prefill: that, less the output head, which prefill applies
  // once per prompt (head_params). Without a shape (direct totals) both are active_params.
  double decode_params = 0.0;
  double prefill_params = 0.0;
  double head_params = 0.0;
  double weight_bytes = 0.0;         // resident in HBM: serving_weight_bytes
  double weight_read_bytes = 0.0;    // read per step: weight_bytes less the input embedding table
  double embedding_row_bytes = 0.0;  // gathered per token from that table: d_model * bytes
  // Bytes cached per token as the context grows, all layers: K/V rows and the indexer's keys
  // (cached_bytes_per_token).
  double kv_bytes_per_token = 0.0;
  // Tokens of one prefill pass (ServingSetup::prefill_tokens_per_pass); 0: filled with prompts
  // up to the compute ridge.
  double prefill_tokens_per_pass = 0.0;
  AttentionGroups attention;     // the layers grouped by how they attend
  bool attention_flops = false;  // attention FLOPs counted (per-entry FLOPs non-zero)

  double usd_per_second() const { return chips * usd_per_chip_hour / kSecondsPerHour; }
};

// Throws InputError naming fields with `prefix` ("inference", or "--" for flags) when the
// setup is invalid or the price is unknown. A model without a shape has no attention FLOPs to
// count (attention_flops stays false).
Roofline make_roofline(const Architecture& architecture, const ServingSetup& setup,
                       std::string_view prefix);

// The replica's figures that scale with its chips (FLOP/s, HBM bandwidth and capacity), set for
// `chips` of setup.chip as make_roofline sets them: a caller trying replica sizes rebuilds
// nothing else (the attention layers, the weights).
void set_replica_chips(Roofline& r, const ServingSetup& setup, double chips);

// One decode step of `batch` sequences, each with `context_tokens` cached tokens.
struct DecodeStep {
  double batch = 0.0;
  double context_tokens = 0.0;
  double flops = 0.0;            // model FLOPs of the step
  double bytes = 0.0;            // bytes read from HBM: weights once, rows and KV per sequence
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

// A prefill pass over `prompts` prompts of `prompt_tokens` tokens each (tokens in flight:
// their product): every prompt token's FLOPs (attending to half its prompt on average) and the
// output head once per prompt; memory reads the weights once, gathers each token's embedding
// row, writes each token's KV and reads it back once. Time is the larger of the two, so a pass
// with fewer tokens in flight than the critical batch is bound by the weight read.
struct PrefillPass {
  double tokens = 0.0;  // in flight
  double flops = 0.0;
  double bytes = 0.0;
  double compute_seconds = 0.0;
  double memory_seconds = 0.0;
  double seconds() const {
    return compute_seconds > memory_seconds ? compute_seconds : memory_seconds;
  }
};
PrefillPass prefill_pass(const Roofline& roofline, double prompts, double prompt_tokens);

// One input token of a prompt of `context_tokens` (at least one token): its FLOPs (the
// prompt's over its tokens, prefill_pass) and the time its share of a pass takes. Prompts share
// passes of Roofline::prefill_tokens_per_pass tokens, or by default as many as make the pass
// compute-bound (the ridge, as serving engines batch prompts), so that short prompts share the
// weight read; a prompt longer than a given pass is split into chunks of it, each reading the
// weights and the cache of the chunks before it, priced together (the larger of the chunks'
// total compute and memory time).
struct PrefillToken {
  double flops = 0.0;
  double compute_seconds = 0.0;
  double memory_seconds = 0.0;          // traffic plus the weight read
  double weight_memory_seconds = 0.0;   // the part of memory_seconds that reads the weights
  double traffic_memory_seconds = 0.0;  // the rest: embedding rows, the cache written and read
  double seconds() const {
    return compute_seconds > memory_seconds ? compute_seconds : memory_seconds;
  }
};
PrefillToken prefill_token(const Roofline& roofline, double context_tokens);
ComputeCost input_token_cost(const Roofline& roofline, const PrefillToken& token);

// Bytes of the weights resident in HBM: every parameter at the serving precision, routed
// experts at ServingSetup::routed_expert_bytes_per_param when it is set.
double serving_weight_bytes(const Architecture& architecture, const ServingSetup& setup);

// HBM a batch needs: the weights plus each sequence's cache (KV, windows, indexer keys).
double hbm_bytes_needed(const Roofline& roofline, double batch, double context_tokens);

// Bytes one sequence of `context_tokens` caches: windows, entries and indexer keys.
double cached_bytes_per_sequence(const Roofline& roofline, double context_tokens);
// Bytes cached per token as the context grows (windows full): the KV cache plus the indexer's
// keys. For dense attention the same at every context.
double cached_bytes_per_token(const Roofline& roofline);
// The longest context one sequence can cache in `free_bytes` (+infinity when none fills it).
double longest_context(const Roofline& roofline, double free_bytes);

// Bytes one sequence reads per decode step at `context_tokens`, and its FLOPs per token. The
// read splits into the attended rows and entries (the KV term) and the indexer keys of every
// entry of top-k layers.
double kv_bytes_read_per_sequence(const Roofline& roofline, double context_tokens);
double attended_kv_bytes_per_sequence(const Roofline& roofline, double context_tokens);
double indexer_bytes_per_sequence(const Roofline& roofline, double context_tokens);
double decode_flops_per_token(const Roofline& roofline, double context_tokens);
// The attention part of it (0 when attention FLOPs are not counted).
double decode_attention_flops_per_token(const Roofline& roofline, double context_tokens);

// B* = F * weight_read_bytes / (2 W N_decode): the batch at which reading the weights takes
// as long as the matmuls (context ignored). ~295 for a dense model on an H100.
double critical_batch(const Roofline& roofline);

// S*: the context above which a decode step is memory-bound at any batch (large-batch limit,
// where the weight read is amortised away): 2 N_decode W / (F kv_bytes_per_token) for dense
// attention without attention FLOPs; otherwise the first zero of compute minus memory time per
// sequence, piecewise linear in S (kinks at windows and at k C). +infinity when no context
// makes decode memory-bound.
double crossover_context(const Roofline& roofline);

// The talk's inverse: the KV bytes per token that put the crossover at `crossover_context`
// for `flop_per_byte` = F / W: 2 N_active / (F/W * S*). 100B, 600, 200K -> 1666.67 bytes.
double kv_bytes_for_crossover(double active_params, double flop_per_byte, double crossover_context);

}  // namespace scaleopt
