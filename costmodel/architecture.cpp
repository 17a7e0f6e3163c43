#include "scaleopt/costmodel/architecture.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {
namespace {

// Gated FFN (SwiGLU, Shazeer 2020): gate, up and down projections.
constexpr double kGatedFfnMatrices = 3.0;

double effective_kv_heads(const Architecture& a) {
  if (a.kv_heads > 0.0) return a.kv_heads;
  if (a.attention == AttentionKind::mha) return a.heads;
  if (a.attention == AttentionKind::mqa) return 1.0;
  return 0.0;
}

double value_head_dim(const Architecture& a) {
  return a.v_head_dim > 0.0 ? a.v_head_dim : a.head_dim;
}

double cache_layers(const Architecture& a) {
  return a.kv_cache_layers > 0.0 ? a.kv_cache_layers : a.layers;
}

// The layer every layer is without a layer_pattern.
LayerAttention uniform_layer(const Architecture& a) {
  LayerAttention layer;
  layer.top_k = a.sparse_top_k > 0.0;
  return layer;
}

// Distinct layer attentions and how many layers have each, in order of first appearance.
struct LayerCounts {
  std::array<std::pair<LayerAttention, double>, kMaxAttentionGroups> items{};
  std::size_t count = 0;
  const std::pair<LayerAttention, double>* begin() const { return items.data(); }
  const std::pair<LayerAttention, double>* end() const { return items.data() + count; }
};

// Layers past the kMaxAttentionGroups-th distinct attention are not counted: validate()
// refuses such a pattern, and nothing is computed of an architecture it refuses.
LayerCounts layer_counts(const Architecture& a) {
  LayerCounts counts;
  if (a.layer_pattern.empty()) {
    counts.items[0] = {uniform_layer(a), a.layers};
    counts.count = 1;
    return counts;
  }
  for (const LayerAttention& layer : a.layer_pattern) {
    auto* end = counts.items.data() + counts.count;
    auto* same = std::find_if(counts.items.data(), end,
                              [&](const auto& entry) { return entry.first == layer; });
    if (same != end) {
      same->second += 1.0;
    } else if (counts.count < kMaxAttentionGroups) {
      counts.items[counts.count++] = {layer, 1.0};
    }
  }
  return counts;
}

std::size_t distinct_layers(const std::vector<LayerAttention>& pattern) {
  std::vector<LayerAttention> seen;
  for (const LayerAttention& layer : pattern) {
    if (std::find(seen.begin(), seen.end(), layer) == seen.end()) seen.push_back(layer);
  }
  return seen.size();
}

// Projections of one attention block common to every layer (no biases, as in Llama 3 and
// DeepSeek-V3).
double attention_params_per_layer(const Architecture& a) {
  const double d = a.d_model, h = a.heads, dh = a.head_dim;
  if (a.attention == AttentionKind::mla) {
    // DeepSeek-V2 section 2.1.2-2.1.3: W_DQ, RMSNorm, W_UQ + W_QR; W_DKV + W_KR, RMSNorm,
    // W_UK + W_UV; W_O.
    const double q_width = h * (dh + a.rope_dim);
    const double q = a.q_latent_dim > 0.0
                         ? d * a.q_latent_dim + a.q_latent_dim + a.q_latent_dim * q_width
                         : d * q_width;
    const double kv = d * (a.kv_latent_dim + a.rope_dim) + a.kv_latent_dim +
                      a.kv_latent_dim * h * (dh + value_head_dim(a));
    const double o = h * value_head_dim(a) * d;
    return q + kv + o;
  }
  // Queries directly, or through a low-rank latent with its RMSNorm (DeepSeek-V4's wq_a, wq_b).
  const double q = a.q_latent_dim > 0.0
                       ? d * a.q_latent_dim + a.q_latent_dim + a.q_latent_dim * h * dh
                       : d * h * dh;
  const double kv = (a.shared_key_value ? 1.0 : 2.0) * d * effective_kv_heads(a) * dh;
  // Output directly, or by groups through a latent (DeepSeek-V4's wo_a, wo_b).
  const double o = a.output_groups > 0.0 && a.output_latent_dim > 0.0
                       ? h * dh * a.output_latent_dim + a.output_groups * a.output_latent_dim * d
                       : h * dh * d;
  return q + kv + o;
}

// What one layer adds for the way it attends (DeepSeek-V4 inference/model.py, Compressor and
// Indexer): a compressor of C > 1 tokens projects each token to its row and to a gate
// (2 d row), over two overlapping windows when the layer is top-k (CSA, C = 4 in V4: twice
// that); an indexer has its query heads (from the query latent), a weight per head, and keys
// (one projection d indexer_head_dim for every token, or a compressor's two, overlapped).
double layer_attention_params(const Architecture& a, const LayerAttention& layer) {
  const double d = a.d_model;
  const double windows = layer.top_k ? 2.0 : 1.0;
  double params = 0.0;
  if (layer.compressed()) params += 2.0 * windows * d * a.kv_row_elements();
  if (layer.top_k && a.indexer_heads > 0.0) {
    const double query_input = a.q_latent_dim > 0.0 ? a.q_latent_dim : d;
    params += query_input * a.indexer_heads * a.indexer_head_dim + d * a.indexer_heads;
    params += d * a.indexer_head_dim * (layer.compressed() ? 2.0 * windows : 1.0);
  }
  return params;
}

double dense_layer_count(const Architecture& a) {
  return a.has_experts() ? a.dense_ffn_layers : a.layers;
}

// Everything but the FFNs: attention, two RMSNorms per layer, embeddings, final norm.
double non_ffn_params(const Architecture& a) {
  const double embeddings = a.vocab * a.d_model * (a.tied_embeddings ? 1.0 : 2.0);
  double attention = a.layers * (attention_params_per_layer(a) + 2.0 * a.d_model);
  for (const auto& [layer, count] : layer_counts(a)) {
    attention += count * layer_attention_params(a, layer);
  }
  return attention + embeddings + a.d_model;
}

double ffn_params(const Architecture& a, double routed_experts_used) {
  const double dense = dense_layer_count(a) * kGatedFfnMatrices * a.d_model * a.ffn_dim;
  if (!a.has_experts()) return dense;
  const double moe_layers = a.layers - a.dense_ffn_layers;
  const double experts =
      (routed_experts_used + a.shared_experts) * kGatedFfnMatrices * a.d_model * a.expert_ffn_dim;
  const double router = a.d_model * a.routed_experts;
  return dense + moe_layers * (experts + router);
}

// Messages are built only on failure: validation runs for every point of a sweep or sample of
// a Monte Carlo, where formatting them eagerly cost more than the solve.
void require(bool ok, std::string_view prefix, std::string_view field, std::string_view what) {
  if (!ok) throw field_error(qualified_field(prefix, field), std::string(what));
}

void require_non_negative(std::string_view prefix, std::string_view field, double value) {
  if (std::isfinite(value) && value >= 0.0) return;
  std::ostringstream got;
  got << "must be finite and >= 0, got " << value;
  require(false, prefix, field, got.str());
}

}  // namespace

std::string_view to_string(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::mha:
      return "mha";
    case AttentionKind::gqa:
      return "gqa";
    case AttentionKind::mqa:
      return "mqa";
    case AttentionKind::mla:
      return "mla";
  }
  return "gqa";
}

AttentionKind parse_attention_kind(std::string_view text) {
  for (AttentionKind k :
       {AttentionKind::mha, AttentionKind::gqa, AttentionKind::mqa, AttentionKind::mla}) {
    if (text == to_string(k)) return k;
  }
  throw InputError("unknown attention kind " + quoted_input(text) +
                   ": expected mha, gqa, mqa or mla");
}

double Architecture::total_param_count() const {
  if (total_params) return *total_params;
  return non_ffn_params(*this) + ffn_params(*this, routed_experts);
}

double Architecture::active_param_count() const {
  if (active_params) return *active_params;
  if (total_params || !has_experts()) return total_param_count();
  return non_ffn_params(*this) + ffn_params(*this, experts_per_token);
}

double Architecture::kv_row_elements() const {
  if (attention == AttentionKind::mla) return kv_latent_dim + rope_dim;
  return (shared_key_value ? 1.0 : 2.0) * effective_kv_heads(*this) * head_dim;
}

double Architecture::kv_elements_per_token() const {
  if (!has_shape()) return 0.0;
  const double share = cache_layers(*this) / layers;
  double elements = 0.0;
  for (const auto& [layer, count] : layer_counts(*this)) {
    if (layer.has_stream()) elements += count * share * kv_row_elements() / layer.compress_ratio;
  }
  return elements;
}

double Architecture::kv_cache_bytes_per_token(double bytes_per_element) const {
  if (kv_bytes_per_token) return *kv_bytes_per_token;
  return kv_elements_per_token() * bytes_per_element;
}

double Architecture::kv_row_rope_elements() const {
  const double rope =
      attention == AttentionKind::mla ? rope_dim : effective_kv_heads(*this) * rope_dim;
  return std::min(rope, kv_row_elements());
}

double Architecture::kv_row_bytes(double bytes_per_element, double rope_bytes_per_element) const {
  const double rope = kv_row_rope_elements();
  return (kv_row_elements() - rope) * bytes_per_element + rope * rope_bytes_per_element;
}

double Architecture::cached_bytes_per_token(double bytes_per_element,
                                            double rope_bytes_per_element) const {
  return scaleopt::cached_bytes_per_token(
      attention_layers(*this, kv_row_bytes(bytes_per_element, rope_bytes_per_element)));
}

double Architecture::routed_expert_param_count() const {
  if (!has_shape() || !has_experts()) return 0.0;
  const double moe_layers = layers - dense_ffn_layers;
  const double routed = moe_layers * routed_experts * kGatedFfnMatrices * d_model * expert_ffn_dim;
  if (!total_params) return routed;
  // Direct (or scaled) totals: the shape's share of routed experts in them.
  return routed * *total_params / (non_ffn_params(*this) + ffn_params(*this, routed_experts));
}

double Architecture::attention_flops_per_context_token(AttentionPass pass) const {
  if (!has_shape()) return 0.0;
  double qk_width = head_dim, v_width = head_dim;
  if (attention == AttentionKind::mla) {
    if (pass == AttentionPass::decode) {
      // Absorbed: q.k over the latent plus the RoPE part, values summed in latent space.
      qk_width = kv_latent_dim + rope_dim;
      v_width = kv_latent_dim;
    } else {
      qk_width = head_dim + rope_dim;
      v_width = value_head_dim(*this);
    }
  }
  return 2.0 * layers * heads * (qk_width + v_width);
}

double Architecture::indexer_bytes_per_token() const {
  double bytes = 0.0;
  for (const auto& [layer, count] : layer_counts(*this)) {
    if (layer.top_k) {
      bytes += count * indexer_head_dim * indexer_bytes_per_element / layer.compress_ratio;
    }
  }
  return bytes;
}

double Architecture::indexer_flops_per_context_token() const {
  double flops = 0.0;
  for (const auto& [layer, count] : layer_counts(*this)) {
    if (layer.top_k) flops += count * 2.0 * indexer_heads * indexer_head_dim / layer.compress_ratio;
  }
  return flops;
}

double Architecture::attention_flops_per_token(AttentionPass pass, double context_tokens) const {
  double flops = 0.0;
  for (const AttentionLayers& group : attention_layers(*this, kv_row_elements())) {
    const double per_entry = pass == AttentionPass::decode ? group.decode_flops_per_entry
                                                           : group.prefill_flops_per_entry;
    flops += group.attended(context_tokens) * per_entry +
             group.indexed(context_tokens) * group.indexer_flops_per_entry;
  }
  return flops;
}

double AttentionLayers::entries(double context_tokens) const {
  return attention.has_stream() ? context_tokens / attention.compress_ratio : 0.0;
}

double AttentionLayers::window_rows(double context_tokens) const {
  return std::min(context_tokens, attention.window);
}

double AttentionLayers::attended(double context_tokens) const {
  const double stream = entries(context_tokens);
  return window_rows(context_tokens) + (attention.top_k ? std::min(stream, top_k) : stream);
}

double AttentionLayers::indexed(double context_tokens) const {
  return attention.top_k ? entries(context_tokens) : 0.0;
}

double AttentionLayers::cached_bytes(double context_tokens) const {
  return (window_rows(context_tokens) + entries(context_tokens)) * entry_bytes +
         indexed(context_tokens) * indexer_key_bytes;
}

double AttentionLayers::attended_bytes(double context_tokens) const {
  return attended(context_tokens) * entry_bytes;
}

double AttentionLayers::indexer_bytes(double context_tokens) const {
  return indexed(context_tokens) * indexer_key_bytes;
}

std::vector<double> AttentionLayers::kinks() const {
  std::vector<double> at;
  if (attention.window > 0.0) at.push_back(attention.window);
  if (attention.top_k && attention.has_stream()) at.push_back(top_k * attention.compress_ratio);
  return at;
}

double cached_bytes_per_token(const AttentionGroups& groups) {
  double bytes = 0.0;
  for (const AttentionLayers& group : groups) {
    if (group.attention.has_stream()) {
      bytes += (group.entry_bytes + (group.attention.top_k ? group.indexer_key_bytes : 0.0)) /
               group.attention.compress_ratio;
    }
  }
  return bytes;
}

AttentionGroups attention_layers(const Architecture& a, double kv_row_bytes) {
  AttentionGroups groups;
  const bool shape = a.has_shape();
  const double share = shape ? cache_layers(a) / a.layers : 1.0;
  const double decode_per_layer =
      shape ? a.attention_flops_per_context_token(AttentionPass::decode) / a.layers : 0.0;
  const double prefill_per_layer =
      shape ? a.attention_flops_per_context_token(AttentionPass::prefill) / a.layers : 0.0;
  for (const auto& [layer, count] : layer_counts(a)) {
    AttentionLayers group;
    group.attention = layer;
    group.layers = count;
    group.top_k = layer.top_k ? a.sparse_top_k : 0.0;
    group.entry_bytes = a.kv_bytes_per_token ? *a.kv_bytes_per_token : count * share * kv_row_bytes;
    group.indexer_key_bytes =
        layer.top_k ? count * a.indexer_head_dim * a.indexer_bytes_per_element : 0.0;
    group.decode_flops_per_entry = count * decode_per_layer;
    group.prefill_flops_per_entry = count * prefill_per_layer;
    group.indexer_flops_per_entry =
        layer.top_k ? count * 2.0 * a.indexer_heads * a.indexer_head_dim : 0.0;
    groups.items[groups.count++] = group;
  }
  return groups;
}

void Architecture::validate(std::string_view prefix) const {
  const std::pair<const char*, double> dims[] = {{"layers", layers},
                                                 {"d_model", d_model},
                                                 {"vocab", vocab},
                                                 {"heads", heads},
                                                 {"kv_heads", kv_heads},
                                                 {"head_dim", head_dim},
                                                 {"v_head_dim", v_head_dim},
                                                 {"kv_latent_dim", kv_latent_dim},
                                                 {"rope_dim", rope_dim},
                                                 {"q_latent_dim", q_latent_dim},
                                                 {"kv_cache_layers", kv_cache_layers},
                                                 {"ffn_dim", ffn_dim},
                                                 {"dense_ffn_layers", dense_ffn_layers},
                                                 {"routed_experts", routed_experts},
                                                 {"shared_experts", shared_experts},
                                                 {"experts_per_token", experts_per_token},
                                                 {"expert_ffn_dim", expert_ffn_dim},
                                                 {"sparse_top_k", sparse_top_k},
                                                 {"indexer_heads", indexer_heads},
                                                 {"indexer_head_dim", indexer_head_dim},
                                                 {"output_groups", output_groups},
                                                 {"output_latent_dim", output_latent_dim}};
  for (const auto& [field, value] : dims) require_non_negative(prefix, field, value);
  if (total_params) require_positive(prefix, "total_params", *total_params);
  if (active_params) require_positive(prefix, "active_params", *active_params);
  if (kv_bytes_per_token) require_positive(prefix, "kv_bytes_per_token", *kv_bytes_per_token);
  require_positive(prefix, "indexer_bytes_per_element", indexer_bytes_per_element);
  require((output_groups == 0.0) == (output_latent_dim == 0.0), prefix, "output_latent_dim",
          "give both output_groups and output_latent_dim, or neither");
  require(!shared_key_value || attention != AttentionKind::mla, prefix, "shared_key_value",
          "is for mha, gqa and mqa (MLA caches one latent already)");
  if (!layer_pattern.empty()) {
    require(has_shape(), prefix, "layer_pattern", "needs the model's shape (layers, d_model)");
    require(!kv_bytes_per_token.has_value(), prefix, "kv_bytes_per_token",
            "cannot be given with a layer_pattern (the pattern decides what each layer caches)");
    if (static_cast<double>(layer_pattern.size()) != layers) {
      std::ostringstream count;
      count << "lists " << layer_pattern.size() << " layers but layers = " << layers;
      require(false, prefix, "layer_pattern", count.str());
    }
    bool any_top_k = false;
    for (const LayerAttention& layer : layer_pattern) {
      require(std::isfinite(layer.window) && layer.window >= 0.0 &&
                  std::isfinite(layer.compress_ratio) &&
                  (layer.compress_ratio == 0.0 || layer.compress_ratio >= 1.0) &&
                  (layer.has_stream() || layer.window > 0.0) &&
                  (layer.has_stream() || !layer.top_k),
              prefix, "layer_pattern",
              "a layer needs a window >= 1 or a stream (all, top-k, compressed:C >= 1)");
      any_top_k = any_top_k || layer.top_k;
    }
    if (distinct_layers(layer_pattern) > kMaxAttentionGroups) {
      require(false, prefix, "layer_pattern",
              "has more than 8 distinct layers (ways of attending); at most 8 are modelled");
    }
    require(!any_top_k || sparse_top_k > 0.0, prefix, "sparse_top_k",
            "must be > 0: layer_pattern has top-k layers");
  }

  if (!has_shape()) {
    require(layers == 0.0 && d_model == 0.0, prefix, layers == 0.0 ? "layers" : "d_model",
            "give both layers and d_model (a shape), or neither (then total_params)");
    require(total_params.has_value(), prefix, "total_params",
            "required when the shape (layers, d_model, ...) is not given");
    // kv_bytes_per_token is required only where a KV cache is priced (make_roofline): a model
    // that is only trained has none.
  } else {
    require_positive(prefix, "heads", heads, "for a model with a shape");
    require_positive(prefix, "vocab", vocab, "for a model with a shape");
    if (attention == AttentionKind::mla) {
      require_positive(prefix, "kv_latent_dim", kv_latent_dim, "for attention = \"mla\"");
      require_positive(prefix, "head_dim", head_dim, "for attention = \"mla\"");
    } else {
      require_positive(prefix, "head_dim", head_dim, "for a model with a shape");
      const double kv = effective_kv_heads(*this);
      if (!(kv >= 1.0 && kv <= heads)) {
        require(false, prefix, "kv_heads",
                "must be between 1 and heads for attention = \"" +
                    std::string(to_string(attention)) + "\"");
      }
      require(attention != AttentionKind::mha || kv == heads, prefix, "kv_heads",
              "must equal heads for attention = \"mha\" (use \"gqa\" for fewer)");
      require(attention != AttentionKind::mqa || kv == 1.0, prefix, "kv_heads",
              "must be 1 for attention = \"mqa\"");
    }
    require(kv_cache_layers <= layers, prefix, "kv_cache_layers", "must not exceed layers");
    if (has_experts()) {
      require(experts_per_token >= 1.0 && experts_per_token <= routed_experts, prefix,
              "experts_per_token", "must be between 1 and routed_experts");
      require_positive(prefix, "expert_ffn_dim", expert_ffn_dim, "for a mixture of experts");
      require(dense_ffn_layers <= layers, prefix, "dense_ffn_layers", "must not exceed layers");
      if (dense_ffn_layers > 0.0) {
        require_positive(prefix, "ffn_dim", ffn_dim, "when dense_ffn_layers > 0");
      }
    } else {
      require_positive(prefix, "ffn_dim", ffn_dim, "for a dense model");
    }
  }
  require((indexer_heads == 0.0 && indexer_head_dim == 0.0) || sparse_top_k > 0.0, prefix,
          "sparse_top_k", "the indexer (indexer_heads, indexer_head_dim) needs sparse_top_k > 0");
  require((indexer_heads == 0.0) == (indexer_head_dim == 0.0), prefix, "indexer_head_dim",
          "give both indexer_heads and indexer_head_dim, or neither");
  require(sparse_top_k == 0.0 || has_shape() || kv_bytes_per_token.has_value(), prefix,
          "sparse_top_k", "needs the KV bytes per token");
  const double total = total_param_count(), active = active_param_count();
  if (!(active <= total * (1.0 + 1e-12))) {
    std::ostringstream both;
    both << "active parameters (" << active << ") exceed total parameters (" << total << ")";
    require(false, prefix, "active_params", both.str());
  }
}

}  // namespace scaleopt
