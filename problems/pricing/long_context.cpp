#include "scaleopt/problems/pricing/long_context.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/serving/replica_choice.hpp"

namespace scaleopt {
namespace {

std::string number(double value) {
  return format_quantity(value, Unit::number, 6);
}

// The base with its attention cleared: dense, no cache sharing, no latent, no sparsity, and
// the parameter counts pinned.
Architecture cleared(const Architecture& base) {
  Architecture a = base;
  a.total_params = base.total_param_count();
  a.active_params = base.active_param_count();
  a.kv_bytes_per_token.reset();
  a.kv_heads = 0.0;
  a.v_head_dim = 0.0;
  a.kv_latent_dim = 0.0;
  a.rope_dim = 0.0;
  a.q_latent_dim = 0.0;
  a.kv_cache_layers = 0.0;
  a.sparse_top_k = 0.0;
  a.indexer_heads = 0.0;
  a.indexer_head_dim = 0.0;
  a.indexer_bytes_per_element = 1.0;
  a.layer_pattern.clear();
  a.shared_key_value = false;
  a.output_groups = 0.0;
  a.output_latent_dim = 0.0;
  return a;
}

// DeepSeek-V4-Pro's schedule on `layers` layers (config.json compress_ratios): the first two
// layers heavily compressed (HCA), then compressed-sparse (CSA) on even layers and HCA on odd.
std::vector<LayerAttention> hybrid_schedule(double layers, const VariantOptions& o) {
  LayerAttention csa{o.window, o.csa_ratio, true};
  LayerAttention hca{o.window, o.hca_ratio, false};
  std::vector<LayerAttention> pattern;
  for (double i = 0; i < layers; ++i) {
    pattern.push_back(i >= 2 && std::fmod(i, 2.0) == 0.0 ? csa : hca);
  }
  return pattern;
}

Architecture latent(const Architecture& base, const VariantOptions& o) {
  const bool own = base.attention == AttentionKind::mla;
  Architecture a = cleared(base);
  a.attention = AttentionKind::mla;
  a.kv_latent_dim = own ? base.kv_latent_dim : o.kv_latent_dim;
  a.rope_dim = own ? base.rope_dim : o.rope_dim;
  a.v_head_dim = own ? base.v_head_dim : 0.0;
  a.q_latent_dim = own ? base.q_latent_dim : 0.0;
  return a;
}

}  // namespace

void VariantOptions::validate(std::string_view prefix) const {
  const std::pair<const char*, double> fields[] = {
      {"gqa_kv_heads", gqa_kv_heads},
      {"layers_per_shared_cache", layers_per_shared_cache},
      {"kv_latent_dim", kv_latent_dim},
      {"rope_dim", rope_dim},
      {"sparse_top_k", sparse_top_k},
      {"indexer_heads", indexer_heads},
      {"indexer_head_dim", indexer_head_dim},
      {"window", window},
      {"csa_ratio", csa_ratio},
      {"hca_ratio", hca_ratio},
      {"hybrid_top_k", hybrid_top_k}};
  for (const auto& [field, value] : fields) {
    if (!(std::isfinite(value) && value >= 1.0)) {
      std::ostringstream message;
      message << "must be >= 1, got " << value;
      throw field_error(qualified_field(prefix, field), message.str());
    }
  }
}

std::vector<AttentionVariant> attention_variants(const Architecture& base,
                                                 const VariantOptions& o) {
  o.validate("--");
  if (!base.has_shape()) {
    throw InputError("model: " + base.name +
                     " has no shape (layers, heads, head_dim): the attention variants need one");
  }
  const bool own_sparse = base.sparse_top_k > 0.0;
  const double heads = base.heads, dh = base.head_dim;

  Architecture mha = cleared(base);
  mha.attention = AttentionKind::mha;
  mha.kv_heads = heads;

  Architecture gqa = cleared(base);
  gqa.attention = AttentionKind::gqa;
  gqa.kv_heads = std::min(o.gqa_kv_heads, heads);

  Architecture shared = gqa;
  shared.kv_cache_layers = std::ceil(base.layers / o.layers_per_shared_cache);

  const Architecture mla = latent(base, o);

  Architecture sparse = mla;
  sparse.sparse_top_k = own_sparse ? base.sparse_top_k : o.sparse_top_k;
  sparse.indexer_heads = own_sparse ? base.indexer_heads : o.indexer_heads;
  sparse.indexer_head_dim = own_sparse ? base.indexer_head_dim : o.indexer_head_dim;

  // The compressed hybrid: the base's own per-layer attention when it has one (DeepSeek-V4),
  // else MLA rows compressed on DeepSeek-V4-Pro's schedule with its indexer keys in FP4.
  const bool own_hybrid = base.has_layer_pattern();
  Architecture hybrid = own_hybrid ? base : mla;
  if (own_hybrid) {
    hybrid.total_params = base.total_param_count();
    hybrid.active_params = base.active_param_count();
  } else {
    hybrid.layer_pattern = hybrid_schedule(base.layers, o);
    hybrid.sparse_top_k = o.hybrid_top_k;
    hybrid.indexer_heads = own_sparse ? base.indexer_heads : o.indexer_heads;
    hybrid.indexer_head_dim = own_sparse ? base.indexer_head_dim : o.indexer_head_dim;
    hybrid.indexer_bytes_per_element = o.hybrid_indexer_bytes_per_element;
  }
  std::size_t csa = 0, hca = 0;
  for (const LayerAttention& layer : hybrid.layer_pattern) {
    if (layer.top_k) ++csa;
    if (layer.compressed() && !layer.top_k) ++hca;
  }
  const std::string hybrid_text =
      own_hybrid
          ? base.name + "'s own layers: " + format_layer_pattern(base.layer_pattern)
          : "MLA rows, " + std::to_string(csa) + " layers compressed " + number(o.csa_ratio) +
                "x with top-" + number(o.hybrid_top_k) + ", " + std::to_string(hca) +
                " compressed " + number(o.hca_ratio) + "x, window " + number(o.window);

  std::vector<AttentionVariant> variants{
      {"mha", "MHA, " + number(heads) + " K/V heads of " + number(dh), mha},
      {"gqa", "GQA, " + number(gqa.kv_heads) + " K/V heads of " + number(dh), gqa},
      {"mla", "MLA, latent " + number(mla.kv_latent_dim) + " + RoPE " + number(mla.rope_dim), mla},
      {"shared-kv",
       "GQA-" + number(gqa.kv_heads) + ", one cache per " + number(o.layers_per_shared_cache) +
           " layers (" + number(shared.kv_cache_layers) + " caches)",
       shared},
      {"sparse",
       "MLA + top-" + number(sparse.sparse_top_k) + " sparse, indexer " +
           number(sparse.indexer_heads) + " x " + number(sparse.indexer_head_dim),
       sparse},
      {"hybrid", hybrid_text, hybrid}};
  for (AttentionVariant& v : variants) {
    v.architecture.name = base.name + " (" + v.id + ")";
    v.architecture.validate("variant " + v.id);
  }
  return variants;
}

double chips_for_one_sequence(const Architecture& model, const ServingSetup& setup,
                              double context_tokens) {
  const Roofline r = make_roofline(model, setup, "--");
  const double needed = hbm_bytes_needed(r, 1.0, context_tokens);
  const double chips = std::ceil(needed / setup.chip.hbm_bytes);
  if (chips <= setup.chips) return setup.chips;
  return std::ceil(chips / setup.chip.node_chips) * setup.chip.node_chips;  // whole nodes
}

std::vector<LongContextRow> compare_long_context(const std::vector<AttentionVariant>& variants,
                                                 const ServingSetup& setup,
                                                 double reference_context, double long_context,
                                                 std::string_view prefix,
                                                 std::optional<double> max_replica_nodes) {
  std::vector<LongContextRow> rows;
  for (const AttentionVariant& variant : variants) {
    LongContextRow row;
    row.variant = variant;
    auto cost_at = [&](double context) {
      ServingSetup grown = setup;
      std::optional<ReplicaChoice> choice;
      if (max_replica_nodes) {
        choice = choose_replica(variant.architecture, setup, context, *max_replica_nodes, prefix);
        grown.chips = choice->chips;
      } else {
        grown.chips = chips_for_one_sequence(variant.architecture, setup, context);
      }
      const Roofline r = make_roofline(variant.architecture, grown, prefix);
      row.kv_bytes_per_token = cached_bytes_per_token(r);
      ContextCost cost;
      cost.chips = grown.chips;
      cost.kv_bytes_per_sequence = cached_bytes_per_sequence(r, context);
      cost.point.plan = choice ? choice->plan : plan_serving(r, grown, context, prefix);
      cost.point.output = output_cost_terms(r, cost.point.plan);
      return cost;
    };
    row.reference = cost_at(reference_context);
    row.long_context = cost_at(long_context);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace scaleopt
