#include "scaleopt/report/pricing_json.hpp"

#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"
#include "scaleopt/report/pricing_output.hpp"

namespace scaleopt::report {

void add_replica_fields(Json& json, const ServingInputs& inputs, const ServingPlan* plan) {
  Json nodes = Json::array();
  if (inputs.replica_choice) {
    for (double chips : inputs.replica_choice->chips_considered) {
      nodes.push_back(chips / inputs.replica_choice->node_chips);
    }
  }
  json["replica_chips"] = inputs.setup.chips;
  json["replica_source"] = std::string(inputs.replica_source());
  json["replica_nodes_considered"] = nodes;
  json["replica_node_chips"] = inputs.setup.chip.node_chips;
  json["max_replica_nodes"] = inputs.chips_given ? Json(nullptr) : Json(inputs.max_replica_nodes);
  if (!plan) return;
  json["batch"] = plan->batch;
  json["binding"] = std::string(to_string(plan->bound));
}

Json roofline_answer(const ServingInputs& inputs, const Roofline& roofline,
                     const ServingPlan& plan) {
  const ServingSetup& setup = inputs.setup;
  Json json = json_document(
      Json{{"critical_batch", critical_batch(roofline)},
           {"crossover_context", finite_or_null(crossover_context(roofline))},
           {"usd_per_mtok_input", plan.input_token.usd * kTokensPerMillion},
           {"usd_per_mtok_output", plan.output_token.usd * kTokensPerMillion},
           {"output_input_ratio", plan.output_input_ratio()},
           {"status", std::string(to_string(plan.status))},
           {"message", plan.message},
           {"hardware", setup.chip.id},
           {"model", inputs.model.name},
           {"context", setup.context_tokens},
           {"chips", setup.chips},
           {"precision", std::string(to_string(setup.precision))},
           {"kv_precision", std::string(to_string(setup.kv_precision))},
           {"routed_expert_bytes_per_param", setup.routed_expert_bytes_per_param
                                                 ? Json(*setup.routed_expert_bytes_per_param)
                                                 : Json(nullptr)},
           {"kv_rope_precision", setup.kv_rope_precision
                                     ? Json(std::string(to_string(*setup.kv_rope_precision)))
                                     : Json(nullptr)},
           {"batch", plan.batch},
           {"batch_bound", std::string(to_string(plan.bound))},
           {"decode_step_seconds", plan.step.seconds()},
           {"decode_memory_bound", plan.step.memory_bound()},
           {"total_params", roofline.total_params},
           {"active_params", roofline.active_params},
           {"kv_bytes_per_token", roofline.kv_bytes_per_token},
           {"kv_bytes_per_sequence", cached_bytes_per_sequence(roofline, setup.context_tokens)},
           {"decode_flops_per_token", decode_flops_per_token(roofline, setup.context_tokens)},
           {"decode_attention_flops_per_token",
            decode_attention_flops_per_token(roofline, setup.context_tokens)},
           {"prefill_flops_per_token", plan.prefill.flops},
           {"prefill_memory_bound", plan.prefill.memory_seconds > plan.prefill.compute_seconds},
           {"hbm_bytes_needed", plan.hbm_bytes_needed},
           {"hbm_bytes", roofline.hbm_bytes},
           {"flop_per_second", roofline.flop_per_second},
           {"bytes_per_second", roofline.bytes_per_second},
           {"usd_per_chip_hour", roofline.usd_per_chip_hour},
           {"attention_flops", roofline.attention_flops},
           {"assumptions", inputs.assumptions}});
  add_replica_fields(json, inputs, &plan);
  return json;
}

Json curve_point_json(const CurvePoint& point, const std::string& marker,
                      const std::optional<PriceList>& prices) {
  const ServingPlan& plan = point.plan;
  Json price_in = nullptr, price_out = nullptr;
  if (prices) {
    const PriceTier& tier = prices->tier_for(plan.context_tokens);
    price_in = tier.usd_per_mtok_input;
    price_out = tier.usd_per_mtok_output;
  }
  if (!point.feasible()) {
    // No batch fits: the row says why, and has no costs.
    return {{"context", plan.context_tokens},
            {"marker", marker},
            {"status", std::string(to_string(plan.status))},
            {"message", plan.message},
            {"batch", nullptr},
            {"batch_bound", nullptr},
            {"decode_memory_bound", nullptr},
            {"usd_per_mtok_input", nullptr},
            {"usd_per_mtok_output", nullptr},
            {"usd_per_mtok_output_large_batch", nullptr},
            {"compute_usd_per_mtok_output", nullptr},
            {"weight_usd_per_mtok_output", nullptr},
            {"kv_usd_per_mtok_output", nullptr},
            {"indexer_usd_per_mtok_output", nullptr},
            {"output_input_ratio", nullptr},
            {"price_usd_per_mtok_input", price_in},
            {"price_usd_per_mtok_output", price_out},
            {"markup_input", nullptr},
            {"markup_output", nullptr}};
  }
  const double input = plan.input_token.usd * kTokensPerMillion;
  const double output = plan.output_token.usd * kTokensPerMillion;
  Json markup_in = nullptr, markup_out = nullptr;
  if (prices) {
    markup_in = finite_or_null(price_in.get<double>() / input);
    markup_out = finite_or_null(price_out.get<double>() / output);
  }
  return {{"context", plan.context_tokens},
          {"marker", marker},
          {"status", std::string(to_string(plan.status))},
          {"message", plan.message},
          {"batch", plan.batch},
          {"batch_bound", std::string(to_string(plan.bound))},
          {"decode_memory_bound", plan.step.memory_bound()},
          {"usd_per_mtok_input", input},
          {"usd_per_mtok_output", output},
          {"usd_per_mtok_output_large_batch", point.output.large_batch_usd * kTokensPerMillion},
          {"compute_usd_per_mtok_output", point.output.compute_usd * kTokensPerMillion},
          {"weight_usd_per_mtok_output", point.output.weight_usd * kTokensPerMillion},
          {"kv_usd_per_mtok_output", point.output.kv_usd * kTokensPerMillion},
          {"indexer_usd_per_mtok_output", point.output.indexer_usd * kTokensPerMillion},
          {"output_input_ratio", plan.output_input_ratio()},
          {"price_usd_per_mtok_input", price_in},
          {"price_usd_per_mtok_output", price_out},
          {"markup_input", markup_in},
          {"markup_output", markup_out}};
}

Json pricing_curve_answer(const ServingInputs& inputs, const Roofline& roofline,
                          const PricingCurve& curve, const Json& points,
                          const ServingPlan& replica_plan) {
  Json json = json_document(
      Json{{"status", std::string(to_string(curve.status))},
           {"message", curve.message},
           {"model", inputs.model.name},
           {"hardware", inputs.setup.chip.id},
           {"chips", inputs.setup.chips},
           {"precision", std::string(to_string(inputs.setup.precision))},
           {"kv_precision", std::string(to_string(inputs.setup.kv_precision))},
           {"usd_per_chip_hour", roofline.usd_per_chip_hour},
           {"kv_bytes_per_token", cached_bytes_per_token(roofline)},
           {"critical_batch", curve.critical_batch},
           {"crossover_context", finite_or_null(curve.crossover_context)},
           {"knee_context", finite_or_null(curve.knee_context)},
           {"price_list", inputs.prices ? price_list_json(*inputs.prices) : Json(nullptr)},
           {"points", points},
           {"assumptions", inputs.assumptions}});
  add_replica_fields(json, inputs, &replica_plan);
  json["replica_context"] = replica_plan.context_tokens;
  return json;
}

Json infer_kv_answer(double kv_bytes_per_token, const SourcedFigure& breakpoint,
                     const SourcedFigure& active_params, const SourcedFigure& flop_per_byte,
                     const KvLayoutOptions& options, const std::vector<KvLayout>& layouts) {
  Json list = Json::array();
  for (const KvLayout& layout : layouts) {
    list.push_back({{"description", layout.describe()},
                    {"attention", std::string(to_string(layout.attention))},
                    {"kv_heads", layout.kv_heads},
                    {"head_dim", layout.head_dim},
                    {"kv_latent_dim", layout.kv_latent_dim},
                    {"rope_dim", layout.rope_dim},
                    {"bytes_per_element", layout.bytes_per_element},
                    {"cache_layers", layout.cache_layers},
                    {"layers_per_cache", options.model_layers > 0.0
                                             ? Json(options.model_layers / layout.cache_layers)
                                             : Json(nullptr)},
                    {"kv_bytes_per_token", layout.kv_bytes_per_token},
                    {"relative_difference", layout.relative_difference}});
  }
  return json_document(
      Json{{"kv_bytes_per_token", kv_bytes_per_token},
           {"breakpoint_context", breakpoint.value},
           {"active_params", active_params.value},
           {"flop_per_byte", flop_per_byte.value},
           {"sources",
            {{"breakpoint_context", breakpoint.source},
             {"active_params", active_params.source},
             {"flop_per_byte", flop_per_byte.source}}},
           {"model_layers", options.model_layers > 0.0 ? Json(options.model_layers) : Json()},
           {"tolerance", options.tolerance},
           {"layouts", list}});
}

Json ratio_by_batch_json(const Roofline& roofline, double context_tokens,
                         const std::vector<double>& batches) {
  Json by_batch = Json::array();
  for (double batch : batches) {
    by_batch.push_back(
        {{"batch", batch},
         {"output_input_ratio", output_input_cost_ratio(roofline, batch, context_tokens)},
         {"memory_bound_factor", decode_memory_bound_factor(roofline, batch, context_tokens)}});
  }
  return by_batch;
}

Json pricing_ratio_answer(const ServingInputs& inputs, const Roofline& roofline,
                          const ServingPlan& plan, const Json& ratio_by_batch,
                          const std::optional<double>& price_ratio,
                          const std::string& price_ratio_source,
                          const std::optional<BatchForRatio>& inverse) {
  const double context = inputs.setup.context_tokens;
  const bool converged =
      plan.status == Status::converged && (!inverse || inverse->status == Status::converged);
  Json json = json_document(
      Json{{"status", converged ? "converged" : "not_converged"},
           {"model", inputs.model.name},
           {"hardware", inputs.setup.chip.id},
           {"context", context},
           {"critical_batch", critical_batch(roofline)},
           {"crossover_context", finite_or_null(crossover_context(roofline))},
           {"batch", plan.batch},
           {"batch_bound", std::string(to_string(plan.bound))},
           {"output_input_ratio", plan.output_input_ratio()},
           {"memory_bound_factor", decode_memory_bound_factor(roofline, plan.batch, context)},
           {"ratio_by_batch", ratio_by_batch},
           {"price_ratio", price_ratio ? Json(*price_ratio) : Json(nullptr)},
           {"price_ratio_source", price_ratio_source},
           {"implied_batch", inverse ? Json(inverse->batch) : Json(nullptr)},
           {"implied_memory_bound_factor", inverse ? Json(inverse->memory_bound_factor) : Json()},
           {"implied_status", inverse ? Json(std::string(to_string(inverse->status))) : Json()},
           {"hbm_full_batch", inverse ? Json(inverse->hbm_full_batch) : Json()},
           {"message", inverse ? inverse->message : plan.message},
           {"assumptions", inputs.assumptions}});
  add_replica_fields(json, inputs, &plan);
  return json;
}

Json cache_tiers_json(const std::vector<CacheTier>& tiers, const std::vector<CacheOption>& options,
                      const CachePlan& plan, double hold_seconds, double context_tokens) {
  Json list = Json::array();
  for (std::size_t i = 0; i < options.size(); ++i) {
    const CacheTier& tier = tiers[i];
    const CacheOption& option = options[i];
    const bool storage = option.id != "recompute";
    list.push_back(
        {{"id", option.id},
         {"name", option.name},
         {"capacity_bytes", storage ? Json(tier.capacity_bytes) : Json(nullptr)},
         {"bytes_per_second", storage ? Json(tier.bytes_per_second) : Json(nullptr)},
         {"drain_seconds", storage ? Json(tier.drain_seconds()) : Json(nullptr)},
         {"usd_per_byte_second", storage ? Json(tier.usd_per_byte_second) : Json(nullptr)},
         {"hold_usd_per_mtok", option.hold_usd_per_token(hold_seconds) * kTokensPerMillion},
         {"retrieval_usd_per_mtok", option.retrieval_usd_per_token * kTokensPerMillion},
         {"usd_per_mtok", option.usd_per_token(hold_seconds) * kTokensPerMillion},
         {"usd_per_prompt", option.usd_per_token(hold_seconds) * context_tokens},
         {"fits", static_cast<bool>(plan.fits[i])},
         {"cheapest", i == plan.cheapest},
         {"price_note", storage ? tier.price_note : "prefill at the roofline"},
         {"source", storage ? tier.source : "the serving replica (scaleopt roofline)"}});
  }
  return list;
}

Json cache_switches_json(const CachePlan& plan, const std::vector<CacheOption>& options) {
  Json switches = Json::array();
  for (const CacheSwitch& s : plan.switches) {
    switches.push_back({{"hold_seconds", s.hold_seconds},
                        {"closed_form_hold_seconds", s.closed_form_hold_seconds},
                        {"from", options[s.from].id},
                        {"to", options[s.to].id}});
  }
  return switches;
}

Json pricing_cache_answer(const ServingInputs& inputs, const CachePlan& plan,
                          const std::vector<CacheOption>& options, double hold_seconds,
                          double context_tokens, double kv_bytes_per_token, const Json& tiers,
                          const Json& switches) {
  Json json = json_document(Json{{"status", std::string(to_string(plan.status))},
                                 {"message", plan.message},
                                 {"model", inputs.model.name},
                                 {"hardware", inputs.setup.chip.id},
                                 {"hold_seconds", hold_seconds},
                                 {"context", context_tokens},
                                 {"kv_bytes_per_token", kv_bytes_per_token},
                                 {"prompt_bytes", plan.prompt_bytes},
                                 {"cheapest", options[plan.cheapest].id},
                                 {"tiers", tiers},
                                 {"switches", switches},
                                 {"assumptions", inputs.assumptions}});
  add_replica_fields(json, inputs, inputs.replica_choice ? &inputs.replica_choice->plan : nullptr);
  return json;
}

std::string binding_text(const ServingPlan& plan) {
  std::string text = plan.step.memory_bound() ? "HBM bandwidth" : "compute";
  if (plan.bound == BatchBound::hbm) text += ", batch capped by HBM capacity";
  if (plan.bound == BatchBound::latency) text += ", batch capped by the latency target";
  return text;
}

namespace {

Json context_json(const ContextCost& cost) {
  const ServingPlan& plan = cost.point.plan;
  const OutputCostTerms& terms = cost.point.output;
  return {{"context", plan.context_tokens},
          {"status", std::string(to_string(plan.status))},
          {"chips", cost.chips},
          {"batch", plan.batch},
          {"batch_bound", std::string(to_string(plan.bound))},
          {"decode_memory_bound", plan.step.memory_bound()},
          {"binding", binding_text(plan)},
          {"usd_per_mtok_output", plan.output_token.usd * kTokensPerMillion},
          {"usd_per_mtok_input", plan.input_token.usd * kTokensPerMillion},
          {"decode_flops_per_token", plan.step.flops / plan.batch},
          {"kv_bytes_per_sequence", cost.kv_bytes_per_sequence},
          {"compute_usd_per_mtok_output", terms.compute_usd * kTokensPerMillion},
          {"weight_usd_per_mtok_output", terms.weight_usd * kTokensPerMillion},
          {"kv_usd_per_mtok_output", terms.kv_usd * kTokensPerMillion},
          {"indexer_usd_per_mtok_output", terms.indexer_usd * kTokensPerMillion}};
}

}  // namespace

Json long_context_variants_json(const std::vector<LongContextRow>& rows) {
  Json list = Json::array();
  for (const LongContextRow& row : rows) {
    const double ratio =
        row.long_context.point.plan.output_token.usd / row.reference.point.plan.output_token.usd;
    list.push_back({{"variant", row.variant.id},
                    {"description", row.variant.description},
                    {"kv_bytes_per_token", row.kv_bytes_per_token},
                    {"reference", context_json(row.reference)},
                    {"long_context", context_json(row.long_context)},
                    {"output_cost_ratio", ratio}});
  }
  return list;
}

Json pricing_long_context_answer(const ServingInputs& inputs, bool converged,
                                 double reference_context, double long_context,
                                 const Json& variants) {
  return json_document(Json{
      {"status", converged ? "converged" : "not_converged"},
      {"model", inputs.model.name},
      {"hardware", inputs.setup.chip.id},
      {"precision", std::string(to_string(inputs.setup.precision))},
      {"kv_precision", std::string(to_string(inputs.setup.kv_precision))},
      {"attention_flops", inputs.setup.attention_flops},
      {"replica_source", std::string(inputs.replica_source())},
      {"max_replica_nodes", inputs.chips_given ? Json(nullptr) : Json(inputs.max_replica_nodes)},
      {"reference_context", reference_context},
      {"long_context", long_context},
      {"variants", variants},
      {"assumptions", inputs.assumptions}});
}

}  // namespace scaleopt::report
