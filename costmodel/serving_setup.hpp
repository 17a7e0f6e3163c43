#pragma once
// How a model is served: a replica of `chips` chips acting as one device (tensor / expert
// parallel; communication not modelled) with their FLOP/s, HBM bandwidth and HBM capacity
// summed, at a precision, a context length, a batch (or the best one) and efficiency caps.

#include <optional>
#include <string_view>

#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/precision.hpp"

namespace scaleopt {

// How a served token is priced: by the roofline (batch, context and KV cache decide), or by
// fixed model-FLOPs utilizations for prefill and decode as Sardana et al. (2024) do.
enum class InferencePricing { roofline, mfu };
std::string_view to_string(InferencePricing pricing);
InferencePricing parse_inference_pricing(std::string_view text);  // throws InputError

// The largest replica considered when its size is chosen, in nodes (inference.max_replica_nodes):
// an assumption. 32 nodes of 8 chips reach past DeepSeek's published decode units (18 nodes,
// EP144), so every catalog preset has at least two sizes to choose from.
inline constexpr double kDefaultMaxReplicaNodes = 32.0;

struct ServingSetup {
  Hardware chip;       // resolved from the catalog
  double chips = 8.0;  // chips per replica (one 8-GPU node: assumed)
  // The lifetime questions choose the chips per replica with N (problems/serving/fleet_plan.hpp)
  // instead of using `chips`: whole nodes of the chip up to `max_replica_nodes`. Scenarios set
  // it when inference.chips is absent; a library caller who builds the setup by hand opts in.
  bool replica_chosen = false;
  double max_replica_nodes = kDefaultMaxReplicaNodes;
  // The serving fleet (problems/serving/fleet_plan.hpp): sized for the peak, `peak_to_mean`
  // times the mean demand (an assumption: 1), and paid for the demand's whole duration with at
  // least one replica. `elastic`: only busy chip-hours are paid, any fraction of a replica
  // (what a demand without a duration is priced at anyway).
  double peak_to_mean = 1.0;
  bool elastic = false;
  // Whether the fleet is priced by busy chip-hours only: `elastic`, or a demand with no duration
  // to pay a replica over. The one definition every pricing path reads.
  bool priced_elastically(bool demand_has_duration) const {
    return elastic || !demand_has_duration;
  }
  Precision precision = Precision::bf16;     // compute precision and bytes per weight
  Precision kv_precision = Precision::bf16;  // bytes per cached KV element
  // Formats beyond one precision, from a model's shipped formats (apply_shipped_formats):
  // routed experts' bytes per parameter when narrower (DeepSeek-V4's FP4 experts: 0.5), and
  // the precision of a cached row's rotary dimensions when wider (its BF16 RoPE part). Absent:
  // as `precision` and `kv_precision`.
  std::optional<double> routed_expert_bytes_per_param;
  std::optional<Precision> kv_rope_precision;
  // Tokens of one prefill pass: prompts share a pass up to it, a longer prompt is split into
  // chunks of it. Absent: a pass is filled with prompts up to the compute ridge.
  std::optional<double> prefill_tokens_per_pass;
  double context_tokens = 8000.0;  // tokens in each sequence's KV cache (assumed; "8K")
  std::optional<double> batch;     // sequences per decode step; absent: best batch
  std::optional<double> latency_per_token_seconds;  // upper bound on one decode step
  // Fractions of the peak that kernels reach; 1 is the pure roofline of docs/model.md.
  double compute_efficiency = 1.0;
  double bandwidth_efficiency = 1.0;
  // Count attention FLOPs (q.k and values over the attended context, the indexer's scoring) in
  // the compute time, when the model has a shape. Off reproduces the talk's
  // roofline, where t_compute = B * 2 N_active / F.
  bool attention_flops = true;
  std::optional<double> usd_per_chip_hour;  // absent: the chip's catalog price (assumed)
  InferencePricing pricing = InferencePricing::roofline;
  // Used when pricing = mfu: the share of peak FLOP/s that prefill and decode reach.
  // 0.5 for prefill is the beyond-chinchilla code's default (an assumption); decode has no
  // default because it decides the answer (that code's 0.01 is far below what batching gives).
  double prefill_mfu = 0.5;
  std::optional<double> decode_mfu;

  double price_per_chip_hour(std::string_view prefix) const;  // as TrainingSetup's
  double weight_bytes_per_param() const { return bytes_per_element(precision); }
  double kv_rope_bytes_per_element() const {
    return bytes_per_element(kv_rope_precision.value_or(kv_precision));
  }
  // F / W of the replica at the serving precision and efficiencies (the chip count cancels):
  // the arithmetic intensity at which decode turns compute-bound. Throws InputError when the
  // chip has no figure at the precision.
  double flop_per_byte() const;

  // Throws InputError naming the first bad field ("inference.chips: ...", or "--chips: ..."
  // when prefix is "--").
  void validate(std::string_view prefix) const;
};

}  // namespace scaleopt
