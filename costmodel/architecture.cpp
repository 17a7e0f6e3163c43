#include "scaleopt/costmodel/architecture.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

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

// Projections of one attention block (no biases, as in Llama 3 and DeepSeek-V3).
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
  return d * h * dh + 2.0 * d * effective_kv_heads(a) * dh + h * dh * d;
}

double dense_layer_count(const Architecture& a) {
  return a.has_experts() ? a.dense_ffn_layers : a.layers;
}

// Everything but the FFNs: attention, two RMSNorms per layer, embeddings, final norm.
double non_ffn_params(const Architecture& a) {
  const double embeddings = a.vocab * a.d_model * (a.tied_embeddings ? 1.0 : 2.0);
  return a.layers * (attention_params_per_layer(a) + 2.0 * a.d_model) + embeddings + a.d_model;
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

void require_positive(std::string_view prefix, std::string_view field, double value,
                      std::string_view why = {}) {
  if (std::isfinite(value) && value > 0.0) return;
  std::ostringstream got;
  got << "must be finite and positive";
  if (!why.empty()) got << " " << why;
  got << ", got " << value;
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
  throw InputError("unknown attention kind '" + std::string(text) +
                   "': expected mha, gqa, mqa or mla");
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

double Architecture::kv_elements_per_token() const {
  if (!has_shape()) return 0.0;
  if (attention == AttentionKind::mla) return cache_layers(*this) * (kv_latent_dim + rope_dim);
  return 2.0 * cache_layers(*this) * effective_kv_heads(*this) * head_dim;
}

double Architecture::kv_cache_bytes_per_token(double bytes_per_element) const {
  if (kv_bytes_per_token) return *kv_bytes_per_token;
  return kv_elements_per_token() * bytes_per_element;
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
  return layers * indexer_head_dim * 1.0;
}

double Architecture::indexer_flops_per_context_token() const {
  return 2.0 * layers * indexer_heads * indexer_head_dim;
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
                                                 {"indexer_head_dim", indexer_head_dim}};
  for (const auto& [field, value] : dims) require_non_negative(prefix, field, value);
  if (total_params) require_positive(prefix, "total_params", *total_params);
  if (active_params) require_positive(prefix, "active_params", *active_params);
  if (kv_bytes_per_token) require_positive(prefix, "kv_bytes_per_token", *kv_bytes_per_token);

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
