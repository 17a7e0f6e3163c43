#pragma once
// A transformer's shape, reduced to what the cost models need: parameters (total and active,
// for mixtures of experts), KV-cache bytes per token, and attention FLOPs per context token
// (docs/model.md, Architecture). Dimensions are doubles so that every numeric input can be
// set, swept or sampled by path like any other (scenario/scenario_keys.hpp).
//
// Either the shape is given (layers, d_model, heads, ...) and everything is derived from it,
// or the totals are given directly (total_params, active_params, kv_bytes_per_token), as for
// the talk's frontier model; a direct figure always wins over the derived one.

#include <optional>
#include <string>
#include <string_view>

namespace scaleopt {

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
  double heads = 0.0;              // query heads
  double kv_heads = 0.0;           // K/V heads (GQA); MHA: 0 means = heads; MQA: 0 means 1
  double head_dim = 0.0;           // per-head q/k/v width (MLA: the q/k part without RoPE)
  double v_head_dim = 0.0;         // MLA: value head width (0 means = head_dim)
  double kv_latent_dim = 0.0;      // MLA: compressed KV width (kv_lora_rank)
  double rope_dim = 0.0;           // MLA: decoupled RoPE key width (qk_rope_head_dim)
  double q_latent_dim = 0.0;       // MLA: query compression width (q_lora_rank); 0 = none
  double kv_cache_layers = 0.0;    // layers with their own KV cache (cross-layer sharing);
                                   // 0 means every layer
  double ffn_dim = 0.0;            // dense FFN hidden size (gated, SwiGLU: three matrices)
  double dense_ffn_layers = 0.0;   // with experts: how many (first) layers keep a dense FFN
  double routed_experts = 0.0;     // mixture of experts: routed experts per MoE layer (0 = dense)
  double shared_experts = 0.0;     // always-active experts per MoE layer
  double experts_per_token = 0.0;  // routed experts each token uses
  double expert_ffn_dim = 0.0;     // hidden size of one expert (gated)
  // Sparse attention (DeepSeek-V3.2 DSA): each decode step reads only sparse_top_k cached
  // tokens, after a "lightning indexer" scores all of them with indexer_heads heads of
  // indexer_head_dim, whose keys are cached in FP8 (1 byte per element).
  double sparse_top_k = 0.0;  // 0 = dense attention
  double indexer_heads = 0.0;
  double indexer_head_dim = 0.0;

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

  // Elements cached per token over all layers: 2 * kv_cache_layers * kv_heads * head_dim
  // (MHA/GQA/MQA) or kv_cache_layers * (kv_latent_dim + rope_dim) (MLA), docs/model.md "KV bytes
  // per token".
  double kv_elements_per_token() const;
  // kv_bytes_per_token if given, else kv_elements_per_token() * bytes_per_element.
  double kv_cache_bytes_per_token(double bytes_per_element) const;

  // Forward FLOPs for one query token attending to one context token, over all layers:
  // 2 FLOPs per multiply-add for q.k and for the weighted sum of values. MHA/GQA/MQA:
  // 4 * layers * heads * head_dim, so a causal sequence of n tokens averages n/2 context
  // tokens and gives Kaplan et al. (2020)'s 2 * n_layer * n_ctx * d_attn per token.
  double attention_flops_per_context_token(AttentionPass pass) const;

  // Sparse attention's indexer, per context token and decode step, over all layers.
  double indexer_bytes_per_token() const;          // layers * indexer_head_dim * 1 byte (FP8)
  double indexer_flops_per_context_token() const;  // 2 * layers * indexer_heads * indexer_head_dim

  // Throws InputError naming the first bad field ("architecture.kv_heads: ...").
  void validate(std::string_view prefix) const;
};

}  // namespace scaleopt
