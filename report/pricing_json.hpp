#pragma once
// The `--json` answers of `scaleopt roofline` and the `pricing` commands (docs/pricing.md), and
// the rows their tables and CSV files are printed from. Every *_answer is a whole document (it
// carries "schema_version"); the key lists are docs/schema/<command>.json.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/cache_cost.hpp"
#include "scaleopt/costmodel/cache_tier.hpp"
#include "scaleopt/costmodel/kv_layouts.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/pricing/cache_plan.hpp"
#include "scaleopt/problems/pricing/long_context.hpp"
#include "scaleopt/problems/pricing/price_ratio.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/report/json_fwd.hpp"
#include "scaleopt/scenario/serving_inputs.hpp"

namespace scaleopt::report {

// The replica's size and where it came from, added to `json`: replica_chips, replica_source
// ("chosen" or "given"), replica_nodes_considered (the whole-node sizes tried, ascending; empty
// when given), replica_node_chips, max_replica_nodes (null when given), and with a `plan` (at
// the context the replica was chosen at) batch and binding (the constraint that fixed it).
void add_replica_fields(Json& json, const ServingInputs& inputs, const ServingPlan* plan);

// scaleopt roofline: B*, S* (null: none), the best batch at the setup's context, its costs.
Json roofline_answer(const ServingInputs& inputs, const Roofline& roofline,
                     const ServingPlan& plan);

// pricing curve: one row per context (a CSV row of --out too); `marker` names S*, the knee or
// a price step; price and markup keys are null without a price list.
Json curve_point_json(const CurvePoint& point, const std::string& marker,
                      const std::optional<PriceList>& prices);
// `replica_plan`: the plan at the context the replica was chosen at (replica_context), or at
// the first context when the chips were given.
Json pricing_curve_answer(const ServingInputs& inputs, const Roofline& roofline,
                          const PricingCurve& curve, const Json& points,
                          const ServingPlan& replica_plan);

// pricing infer-kv: a figure and where it came from (a flag, a scenario key, a preset).
struct SourcedFigure {
  double value = 0.0;
  std::string source;
};
Json infer_kv_answer(double kv_bytes_per_token, const SourcedFigure& breakpoint,
                     const SourcedFigure& active_params, const SourcedFigure& flop_per_byte,
                     const KvLayoutOptions& options, const std::vector<KvLayout>& layouts);

// pricing ratio: the output/input cost ratio at a few batches (powers of 4).
Json ratio_by_batch_json(const Roofline& roofline, double context_tokens,
                         const std::vector<double>& batches);
Json pricing_ratio_answer(const ServingInputs& inputs, const Roofline& roofline,
                          const ServingPlan& plan, const Json& ratio_by_batch,
                          const std::optional<double>& price_ratio,
                          const std::string& price_ratio_source,
                          const std::optional<BatchForRatio>& inverse);

// pricing cache: `tiers[i]` is options[i]'s tier (ignored for recompute, options[0]).
Json cache_tiers_json(const std::vector<CacheTier>& tiers, const std::vector<CacheOption>& options,
                      const CachePlan& plan, double hold_seconds, double context_tokens);
Json cache_switches_json(const CachePlan& plan, const std::vector<CacheOption>& options);
Json pricing_cache_answer(const ServingInputs& inputs, const CachePlan& plan,
                          const std::vector<CacheOption>& options, double hold_seconds,
                          double context_tokens, double kv_bytes_per_token, const Json& tiers,
                          const Json& switches);

// pricing long-context: what limits a decode step and what limited the batch
// ("HBM bandwidth, batch capped by HBM capacity").
std::string binding_text(const ServingPlan& plan);
Json long_context_variants_json(const std::vector<LongContextRow>& rows);
Json pricing_long_context_answer(const ServingInputs& inputs, bool converged,
                                 double reference_context, double long_context,
                                 const Json& variants);

}  // namespace scaleopt::report
