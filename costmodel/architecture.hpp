#pragma once
// A transformer's shape, reduced to what the cost models need: parameters (total and active,
// for mixtures of experts), KV-cache bytes per token, and attention FLOPs per context token
// (docs/model.md, Architecture). Dimensions are doubles so that every numeric input can be
// set, swept or sampled by path like any other (scenario/scenario_keys.hpp).
//
// Either the shape is given (layers, d_model, heads, ...) and everything is derived from it,
// or the totals are given directly (total_params, active_params, kv_bytes_per_token), as for
// the talk's frontier model; a direct figure always wins over the derived one.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/attention_pattern.hpp"
#include "scaleopt/costmodel/precision.hpp"

namespace scaleopt {

// The number formats a model's published checkpoint stores its weights in and its reference
// inference code caches K/V in, each with its source: what a served model costs when
// inference.precision and inference.kv_precision are not given (docs/model.md, Precision).
struct ShippedFormats {
  Precision weights = Precision::bf16;  // every weight, computed at this precision's peak
  // Routed experts stored narrower than the other weights, in bytes per parameter (DeepSeek-V4:
  // FP4, 0.5), computed at the weights' peak; absent: as the other weights.
  std::optional<double> routed_expert_bytes_per_param;
  std::string weights_source;
  Precision kv = Precision::bf16;  // the elements of a cached K/V row
  // The rotary dimensions of a cached row when stored wider than the rest (DeepSeek-V4: BF16
  // beside FP8); absent: as the rest.
  std::optional<Precision> kv_rope;
  std::string kv_source;
};

enum class AttentionKind {
  mha,  // multi-head: one K and V head per query head
  gqa,  // grouped-query (Ainslie et al. 2023): kv_heads K/V heads shared by groups of queries
  mqa,  // multi-query (Shazeer 2019): one K/V head
  mla,  // multi-head latent attention (DeepSeek-V2, 2024, section 2.1): a compressed latent
        // of kv_latent_dim plus a decoupled RoPE key of rope_dim per token and layer
};

std::string_view to_string(AttentionKind kind);
AttentionKind parse_attention_kind(std::string_view text);  // throws InputError

// Which computation an attention FLOP count is for. MLA differs: prefill and training use
// the decompressed heads, decode multiplies against the cached latent directly ("absorbed"
// projections, DeepSeek-V2 section 2.1.2), which costs more FLOPs per context token.
enum class AttentionPass { prefill, decode };

struct Architecture {
  std::string name = "custom";
  std::string source;  // public config the shape comes from

  // --- shape (all zero when only direct totals are known) ---
  double layers = 0.0;           // transformer blocks
  double d_model = 0.0;          // hidden size
  double vocab = 0.0;            // vocabulary size
  bool tied_embeddings = false;  // input and output embeddings share one matrix
  AttentionKind attention = AttentionKind::gqa;
  double heads = 0.0;          // query heads
  double kv_heads = 0.0;       // K/V heads (GQA); MHA: 0 means = heads; MQA: 0 means 1
  double head_dim = 0.0;       // per-head q/k/v width (MLA: the q/k part without RoPE)
  double v_head_dim = 0.0;     // MLA: value head width (0 means = head_dim)
  double kv_latent_dim = 0.0;  // MLA: compressed KV width (kv_lora_rank)
  // MLA: decoupled RoPE key width (qk_rope_head_dim), cached beside the latent. MHA/GQA/MQA:
  // the rotary part inside head_dim (DeepSeek-V4: 64 of 512), shown but not counted again.
  double rope_dim = 0.0;
  double q_latent_dim = 0.0;  // query compression width (q_lora_rank); 0 = none
  // MHA/GQA/MQA: keys are the values (DeepSeek-V4): one vector cached per K/V head, not two.
  bool shared_key_value = false;
  // Grouped low-rank output projection (DeepSeek-V4's o_groups, o_lora_rank): heads split into
  // output_groups groups, each projected to output_latent_dim, then all of them to d_model.
  // 0: one dense output matrix.
  double output_groups = 0.0;
  double output_latent_dim = 0.0;
  double kv_cache_layers = 0.0;    // layers with their own KV cache (cross-layer sharing);
                                   // 0 means every layer
  double ffn_dim = 0.0;            // dense FFN hidden size (gated, SwiGLU: three matrices)
  double dense_ffn_layers = 0.0;   // with experts: how many (first) layers keep a dense FFN
  double routed_experts = 0.0;     // mixture of experts: routed experts per MoE layer (0 = dense)
  double shared_experts = 0.0;     // always-active experts per MoE layer
  double experts_per_token = 0.0;  // routed experts each token uses
  double expert_ffn_dim = 0.0;     // hidden size of one expert (gated)
  // Sparse attention (DeepSeek-V3.2 DSA, DeepSeek-V4 CSA): each decode step attends only
  // sparse_top_k entries, after a "lightning indexer" scores all of them with indexer_heads
  // heads of indexer_head_dim, whose keys are cached at indexer_bytes_per_element (FP8: 1,
  // FP4: 0.5). Without a layer_pattern every layer is top-k when sparse_top_k > 0.
  double sparse_top_k = 0.0;  // 0 = dense attention
  double indexer_heads = 0.0;
  double indexer_head_dim = 0.0;
  double indexer_bytes_per_element = 1.0;
  // How each layer attends (costmodel/attention_pattern.hpp), one entry per layer; empty:
  // every layer attends all cached tokens (or the top-k of them with sparse_top_k).
  std::vector<LayerAttention> layer_pattern;

  // The parameter counts are a scaled model's (problems/lifetime/lifetime_cost_from_setup.hpp
  // varies N with the shape kept for the KV cache and attention): its embedding table is not the
  // shape's, so the roofline counts 2 N per token as for direct totals.
  bool scaled_counts = false;

  // The formats the published model ships in; absent for a custom shape or direct totals
  // (then bf16, an assumption).
  std::optional<ShippedFormats> shipped;

  // --- direct figures (override the shape) ---
  std::optional<double> total_params;
  std::optional<double> active_params;       // default: total (dense)
  std::optional<double> kv_bytes_per_token;  // bytes per cached token, all layers, as served

  bool has_shape() const { return layers > 0.0 && d_model > 0.0; }
  bool has_experts() const { return routed_experts > 0.0; }

  // Parameters including both embedding matrices (as model cards count them). Active: those
  // one token uses (shared and experts_per_token routed experts of each MoE layer).
  double total_param_count() const;
  double active_param_count() const;

  // The attention of every layer in order: layer_pattern, or the uniform default. One entry
  // (every token, top-k with sparse_top_k) for a model without a shape.
  std::vector<LayerAttention> layer_attention() const;
  bool has_layer_pattern() const { return !layer_pattern.empty(); }

  // Elements one layer caches per entry (token or compressed entry): 2 * kv_heads * head_dim
  // (MHA/GQA/MQA; once with shared_key_value) or kv_latent_dim + rope_dim (MLA).
  double kv_row_elements() const;
  // Elements cached per token over all layers as the context grows (windows fill up, so they
  // add nothing per token): 2 * kv_cache_layers * kv_heads * head_dim (MHA/GQA/MQA) or
  // kv_cache_layers * (kv_latent_dim + rope_dim) (MLA); a layer that
  // compresses C tokens into one entry counts 1/C of its row.
  double kv_elements_per_token() const;
  // kv_bytes_per_token if given, else kv_elements_per_token() * bytes_per_element.
  double kv_cache_bytes_per_token(double bytes_per_element) const;
  // The rotary elements of one layer's row (MLA: rope_dim; keys = values: kv_heads * rope_dim;
  // separate K and V: the keys' kv_heads * rope_dim), at most the row.
  double kv_row_rope_elements() const;
  // Bytes of one layer's cached row: its rotary elements at `rope_bytes_per_element`, the rest
  // at `bytes_per_element`.
  double kv_row_bytes(double bytes_per_element, double rope_bytes_per_element) const;
  // Bytes cached per token over all layers as the context grows (windows full): every layer's
  // K/V row (or 1/C of it for a layer compressing C tokens) plus the indexer keys of its top-k
  // layers. The one definition of "KV bytes per token" every command prints; kv_bytes_per_token
  // when given (then no indexer keys are added unless the model is sparse).
  double cached_bytes_per_token(double bytes_per_element, double rope_bytes_per_element) const;

  // Parameters of the routed experts, all of them (0 for a dense model or direct totals
  // without a shape; a model scaled by its parameter count keeps the shape's share).
  double routed_expert_param_count() const;

  // Forward FLOPs for one query token attending to one context token, over all layers:
  // 2 FLOPs per multiply-add for q.k and for the weighted sum of values. MHA/GQA/MQA:
  // 4 * layers * heads * head_dim, so a causal sequence of n tokens averages n/2 context
  // tokens and gives Kaplan et al. (2020)'s 2 * n_layer * n_ctx * d_attn per token.
  double attention_flops_per_context_token(AttentionPass pass) const;

  // Sparse attention's indexer, per context token and decode step, over the top-k layers of a
  // uniform model: layers * indexer_head_dim * indexer_bytes_per_element and
  // 2 * layers * indexer_heads * indexer_head_dim (per indexed entry of one layer, times layers).
  double indexer_bytes_per_token() const;
  double indexer_flops_per_context_token() const;

  // Forward attention FLOPs of one query token that sees `context_tokens` earlier tokens, over
  // every layer as it attends (window, entries, top-k) plus the indexer's scoring: for dense
  // attention attention_flops_per_context_token(pass) * context_tokens.
  double attention_flops_per_token(AttentionPass pass, double context_tokens) const;

  // Throws InputError naming the first bad field ("architecture.kv_heads: ...").
  void validate(std::string_view prefix) const;
};

// Layers that attend alike, their cache and FLOPs summed over them: what the roofline needs of
// the attention (costmodel/roofline.hpp). At context S a layer keeps min(S, window) raw rows
// and S / C entries, attends the rows and all the entries (or the top-k of them), and its
// indexer scores every entry.
struct AttentionLayers {
  LayerAttention attention;
  double layers = 0.0;                   // how many layers attend like this
  double top_k = 0.0;                    // entries attended when attention.top_k
  double entry_bytes = 0.0;              // bytes of one cached row or entry, over these layers
  double indexer_key_bytes = 0.0;        // bytes of one indexer key, over these layers
  double decode_flops_per_entry = 0.0;   // q.k and values, absorbed MLA form, over the layers
  double prefill_flops_per_entry = 0.0;  // the same in prefill (decompressed MLA heads)
  double indexer_flops_per_entry = 0.0;  // 2 indexer_heads indexer_head_dim, over the layers

  double entries(double context_tokens) const;         // S / C (0 without a stream)
  double window_rows(double context_tokens) const;     // min(S, window)
  double attended(double context_tokens) const;        // rows plus entries (or top-k of them)
  double indexed(double context_tokens) const;         // entries the indexer scores
  double cached_bytes(double context_tokens) const;    // rows, entries and indexer keys
  double attended_bytes(double context_tokens) const;  // rows and attended entries
  double indexer_bytes(double context_tokens) const;   // the indexer keys it reads
  // Context lengths where attended() changes slope: the window and, with top-k, k C.
  std::vector<double> kinks() const;
};

// Distinct ways of attending a model may have (DeepSeek-V4 has three); a layer_pattern with
// more is refused by validate(). A fixed array: the roofline that holds the groups is rebuilt
// at every point of a sweep and every step of a solve, without a heap allocation.
inline constexpr std::size_t kMaxAttentionGroups = 8;

struct AttentionGroups {
  std::array<AttentionLayers, kMaxAttentionGroups> items{};
  std::size_t count = 0;
  const AttentionLayers* begin() const { return items.data(); }
  const AttentionLayers* end() const { return items.data() + count; }
  AttentionLayers* begin() { return items.data(); }
  AttentionLayers* end() { return items.data() + count; }
  std::size_t size() const { return count; }
  const AttentionLayers& operator[](std::size_t i) const { return items[i]; }
};

// The model's layers grouped by how they attend, in order of first appearance, with one
// layer's cached row of `kv_row_bytes` (Architecture::kv_row_bytes). The KV of a model without
// a shape is its kv_bytes_per_token, read for every token (and its indexer's keys); FLOPs per
// entry are 0 without a shape.
AttentionGroups attention_layers(const Architecture& architecture, double kv_row_bytes);

// Bytes cached per token as the context grows, over the groups: each row or entry (1/C of it
// for a compressing layer) and the indexer keys of top-k layers.
double cached_bytes_per_token(const AttentionGroups& groups);

}  // namespace scaleopt
