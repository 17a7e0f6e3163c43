#include "scaleopt/report/catalog_output.hpp"

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"

namespace scaleopt::report {

double tokens_per_param_at_reference(const LossLaw& law) {
  const auto allocation =
      compute_optimal_allocation(coefficients_of<double>(law), kReferenceComputeFlops);
  return allocation.tokens / allocation.params;
}

Json hardware_json(const std::vector<Hardware>& chips) {
  Json list = Json::array();
  for (const Hardware& chip : chips) {
    list.push_back(Json{
        {"id", chip.id},
        {"name", chip.name},
        {"bf16_flop_per_second", optional_or_null(chip.bf16_flop_per_second)},
        {"fp8_flop_per_second", optional_or_null(chip.fp8_flop_per_second)},
        {"int8_op_per_second", optional_or_null(chip.int8_op_per_second)},
        {"hbm_bytes_per_second", chip.hbm_bytes_per_second},
        {"hbm_bytes", chip.hbm_bytes},
        {"usd_per_hour", optional_or_null(chip.usd_per_hour)},
        {"price_is_assumption", true},
        {"price_note", chip.price_note},
        {"source", chip.source},
        {"tdp_watts", optional_or_null(chip.tdp_watts)},
        {"power_source", chip.power_source},
        {"power_unknown", chip.tdp_watts ? Json(nullptr)
                                         : Json(chip.power_unknown.empty() ? "no published figure"
                                                                           : chip.power_unknown)}});
  }
  return json_document(Json{{"hardware", list}});
}

Json laws_json(const std::vector<LossLaw>& laws, const std::vector<JointLossLaw>& joint_laws) {
  Json list = Json::array();
  for (const LossLaw& law : laws) {
    Json entry = law_json(law);
    entry["tokens_per_param_at_1e24_flops"] = tokens_per_param_at_reference(law);
    list.push_back(entry);
  }
  Json joint_list = Json::array();
  for (const JointLossLaw& law : joint_laws) {
    Json entry{{"name", law.name}, {"form", "joint"}, {"formula", kJointLawFormula}};
    const std::array<double, 9> values = law.coefficients();
    for (std::size_t i = 0; i < values.size(); ++i) entry[kJointCoefficientNames[i]] = values[i];
    entry["experts_start"] = law.experts_start;
    entry["experts_max"] = law.experts_max;
    entry["source"] = law.source;
    entry["fitted_range"] = law.fitted_range ? fitted_range_json(*law.fitted_range) : Json(nullptr);
    joint_list.push_back(entry);
  }
  return json_document(Json{{"laws", list}, {"joint_laws", joint_list}});
}

namespace {

// The formats a preset ships in, with the KV bytes per token they give; null without them.
Json shipped_json(const Architecture& a) {
  if (!a.shipped) return Json(nullptr);
  const ShippedFormats& f = *a.shipped;
  return Json{
      {"precision", std::string(to_string(f.weights))},
      {"routed_expert_bytes_per_param",
       f.routed_expert_bytes_per_param ? Json(*f.routed_expert_bytes_per_param) : Json(nullptr)},
      {"weights_source", f.weights_source},
      {"kv_precision", std::string(to_string(f.kv))},
      {"kv_rope_precision", f.kv_rope ? Json(std::string(to_string(*f.kv_rope))) : Json(nullptr)},
      {"kv_bytes_per_token", shipped_kv_bytes_per_token(a)},
      {"kv_source", f.kv_source}};
}

// A dimension the architecture may lack: null where 0 means "none".
Json dimension_json(double value) {
  return value > 0.0 ? Json(value) : Json(nullptr);
}

// The shape as the public config.json states it, each quantity under a name close to the
// config's (docs/cli.md, "scaleopt models"): null where the architecture has no such part, and
// the whole object null for a preset given by its totals alone.
Json shape_json(const Architecture& a) {
  if (!a.has_shape()) return Json(nullptr);
  const bool mla = a.attention == AttentionKind::mla;
  const bool moe = a.has_experts();
  const bool sparse = a.sparse_top_k > 0.0;
  double kv_heads = a.kv_heads;
  if (kv_heads == 0.0 && a.attention == AttentionKind::mha) kv_heads = a.heads;
  if (kv_heads == 0.0 && a.attention == AttentionKind::mqa) kv_heads = 1.0;
  const auto only = [](bool applies, const Json& value) { return applies ? value : Json(nullptr); };
  return Json{{"hidden_size", a.d_model},
              {"layers", a.layers},
              {"vocab_size", a.vocab},
              {"tied_embeddings", a.tied_embeddings},
              {"attention_heads", a.heads},
              {"kv_heads", only(!mla, Json(kv_heads))},
              {"head_dim", only(!mla, Json(a.head_dim))},
              {"keys_equal_values", only(!mla, Json(a.shared_key_value))},
              {"qk_nope_head_dim", only(mla, Json(a.head_dim))},
              {"v_head_dim", only(mla, Json(a.v_head_dim > 0.0 ? a.v_head_dim : a.head_dim))},
              {"kv_lora_rank", only(mla, Json(a.kv_latent_dim))},
              {"qk_rope_head_dim", dimension_json(a.rope_dim)},
              {"q_lora_rank", dimension_json(a.q_latent_dim)},
              {"o_groups", dimension_json(a.output_groups)},
              {"o_lora_rank", dimension_json(a.output_latent_dim)},
              {"kv_cache_layers", a.kv_cache_layers > 0.0 ? a.kv_cache_layers : a.layers},
              {"intermediate_size", dimension_json(a.ffn_dim)},
              {"dense_ffn_layers", only(moe, Json(a.dense_ffn_layers))},
              {"routed_experts", only(moe, Json(a.routed_experts))},
              {"experts_per_token", only(moe, Json(a.experts_per_token))},
              {"shared_experts", only(moe, Json(a.shared_experts))},
              {"moe_intermediate_size", only(moe, Json(a.expert_ffn_dim))},
              {"indexer_heads", only(sparse, Json(a.indexer_heads))},
              {"indexer_head_dim", only(sparse, Json(a.indexer_head_dim))},
              {"indexer_key_bytes_per_element", only(sparse, Json(a.indexer_bytes_per_element))}};
}

}  // namespace

Json models_json(const std::vector<Architecture>& models) {
  Json list = Json::array();
  for (const Architecture& a : models) {
    list.push_back(
        Json{{"name", a.name},
             {"total_params", a.total_param_count()},
             {"active_params", a.active_param_count()},
             {"layers", a.layers},
             {"attention", a.has_shape() ? Json(to_string(a.attention)) : Json(nullptr)},
             {"shape", shape_json(a)},
             {"kv_bytes_per_token_bf16", a.cached_bytes_per_token(2.0, 2.0)},
             {"kv_bytes_per_token_fp8", a.cached_bytes_per_token(1.0, 1.0)},
             {"shipped", shipped_json(a)},
             {"sparse_top_k", a.sparse_top_k},
             {"layer_pattern",
              a.has_layer_pattern() ? Json(format_layer_pattern(a.layer_pattern)) : Json(nullptr)},
             {"source", a.source}});
  }
  return json_document(Json{{"models", list}});
}

}  // namespace scaleopt::report
