#pragma once
// What a long context costs under each way of attending (docs/pricing.md, "Long context"):
// one model's parameters with its attention replaced by dense multi-head (MHA), grouped-query
// (GQA), latent (MLA), KV shared across layers, top-k sparse attention (DeepSeek-V3.2 DSA:
// k tokens read per step plus an indexer over all of them), or the compressed hybrid of
// DeepSeek-V4 (CSA and HCA layers with a sliding window). Each is served at a short and a
// long context at its best batch, with the attention FLOPs counted when the setup asks.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"

namespace scaleopt {

struct VariantOptions {
  double gqa_kv_heads = 8.0;  // Llama 3 70B and 405B keep 8 K/V heads (config.json)
  // Layers sharing one KV cache in the shared-KV variant: 2 is Cross-Layer Attention's CLA2
  // (Brandon et al. 2024, "Reducing Transformer Key-Value Cache Size with Cross-Layer
  // Attention"), on top of the GQA variant.
  double layers_per_shared_cache = 2.0;
  // Used when the base model has no MLA or no sparse attention of its own: DeepSeek-V3's
  // kv_lora_rank 512 and qk_rope_head_dim 64, DeepSeek-V3.2-Exp's index_topk 2048,
  // index_n_heads 64 and index_head_dim 128 (config.json files).
  double kv_latent_dim = 512.0;
  double rope_dim = 64.0;
  double sparse_top_k = 2048.0;
  double indexer_heads = 64.0;
  double indexer_head_dim = 128.0;
  // The compressed hybrid (DeepSeek-V4-Pro config.json): a window of 128 raw tokens in every
  // layer, CSA layers compressing 4 tokens into an entry of which the indexer picks 1024
  // (index_topk), HCA layers compressing 128 and attending every entry; its indexer keys in
  // FP4 (0.5 bytes per element, DeepSeek's serving recipe).
  double window = 128.0;
  double csa_ratio = 4.0;
  double hca_ratio = 128.0;
  double hybrid_top_k = 1024.0;
  double hybrid_indexer_bytes_per_element = 0.5;

  void validate(std::string_view prefix) const;  // throws InputError naming the field
};

struct AttentionVariant {
  std::string id;             // "mha", "gqa", "mla", "shared-kv", "sparse", "hybrid"
  std::string description;    // "GQA, 8 K/V heads of 128"
  Architecture architecture;  // the base's parameter counts, this attention
};

// The six variants of `base`, which needs a shape (layers, heads, head_dim). Parameter counts
// are pinned to the base's, so only the attention differs.
std::vector<AttentionVariant> attention_variants(const Architecture& base,
                                                 const VariantOptions& options);

struct ContextCost {
  // Replica used: chosen (choose_replica) when the chips were not given, else the setup's, or
  // more when one sequence needs them.
  double chips = 0.0;
  double kv_bytes_per_sequence = 0.0;  // what one sequence caches at this context
  CurvePoint point;                    // best batch and output cost terms
};

struct LongContextRow {
  AttentionVariant variant;
  double kv_bytes_per_token = 0.0;  // cached per token (KV plus indexer keys)
  ContextCost reference;            // at the short context
  ContextCost long_context;         // at the long one
};

// The setup's replica if its HBM holds the weights and one sequence of `context_tokens`, else
// the fewest whole nodes that do.
double chips_for_one_sequence(const Architecture& model, const ServingSetup& setup,
                              double context_tokens);

// Every variant at both contexts. With `max_replica_nodes` the replica of each variant at each
// context is chosen (problems/serving/replica_choice.hpp) and setup.chips ignored; without it,
// setup.chips grown by chips_for_one_sequence. Throws InputError (named with `prefix`) for a
// bad setup.
std::vector<LongContextRow> compare_long_context(const std::vector<AttentionVariant>& variants,
                                                 const ServingSetup& setup,
                                                 double reference_context, double long_context,
                                                 std::string_view prefix,
                                                 std::optional<double> max_replica_nodes = {});

}  // namespace scaleopt
