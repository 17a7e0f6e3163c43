// scaleopt pricing long-context: cost per output token at a long context (1M) against a short
// one (8K) for dense MHA, GQA, MLA, shared-KV layers and top-k sparse attention, with the
// attention FLOPs counted, and which resource binds (docs/pricing.md, "Long context").

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/pricing_commands.hpp"
#include "scaleopt/cli/serving_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/pricing/long_context.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct LongContextArgs {
  ServingFlags serving;
  std::string context;
  std::string reference;
  std::string kv_heads;
  std::string share_layers;
  bool json = false;
};

int run_long_context(const LongContextArgs& args, std::ostream& out) {
  ServingFlags flags = args.serving;
  std::vector<std::string> defaults;
  if (flags.scenario.empty()) {
    if (flags.model.empty()) {
      flags.model = "deepseek-v3.2";
      defaults.push_back(
          "--model deepseek-v3.2 (DeepSeek Sparse Attention: each query reads the 2,048 entries "
          "its indexer picks)");
    }
    if (flags.hardware.empty()) {
      flags.hardware = "h200";
      defaults.push_back("--hardware h200");
    }
  }
  ServingInputs inputs = resolve_serving(flags);
  inputs.assumptions.insert(inputs.assumptions.begin(), defaults.begin(), defaults.end());
  const double long_context =
      args.context.empty() ? 1e6 : parse_positive_flag("--context", args.context, Unit::count);
  const double reference = args.reference.empty()
                               ? 8000.0
                               : parse_positive_flag("--reference", args.reference, Unit::count);
  if (!(reference < long_context)) {
    throw InputError("--reference: the short context (" + format_exact_count(reference) +
                     (args.reference.empty() ? ", the default" : "") +
                     ") must be below --context (" + format_exact_count(long_context) +
                     (args.context.empty() ? ", the default" : "") + ")");
  }
  // The variants keep the model's query heads and layers: more K/V heads than query heads, or
  // a cache shared by more layers than there are, describes no model.
  const Architecture& model = inputs.model;
  VariantOptions options;
  if (!args.kv_heads.empty()) {
    options.gqa_kv_heads = parse_count_flag("--kv-heads", args.kv_heads, 1, kMaxShapeCount);
    if (model.has_shape() && options.gqa_kv_heads > model.heads) {
      throw InputError("--kv-heads: at most the model's " +
                       format_quantity(model.heads, Unit::count) + " query heads (" + model.name +
                       "), got " + args.kv_heads);
    }
  }
  if (!args.share_layers.empty()) {
    options.layers_per_shared_cache =
        parse_count_flag("--share-layers", args.share_layers, 1, kMaxShapeCount);
    if (model.has_shape() && options.layers_per_shared_cache > model.layers) {
      throw InputError("--share-layers: at most the model's " +
                       format_quantity(model.layers, Unit::count) + " layers (" + model.name +
                       "), got " + args.share_layers);
    }
  }
  inputs.roofline();  // checks the setup (price, precision) with the scenario's messages
  if (!inputs.chips_given) inputs.note_replica_choice();
  std::vector<LongContextRow> rows;
  try {
    rows = compare_long_context(
        attention_variants(inputs.model, options), inputs.setup, reference, long_context,
        inputs.prefix,
        inputs.chips_given ? std::nullopt : std::optional<double>(inputs.max_replica_nodes));
  } catch (const InputError& e) {
    throw InputError((inputs.file.empty() ? "" : inputs.file + ": ") + e.what());
  }
  bool converged = true;
  for (const LongContextRow& row : rows) {
    converged = converged && row.reference.point.plan.status == Status::converged &&
                row.long_context.point.plan.status == Status::converged;
  }

  const Json list = long_context_variants_json(rows);
  refuse_non_finite(list, extreme_flags({{"--context", long_context}, {"--reference", reference}}),
                    inputs.file.empty() ? "" : inputs.file + ": ");
  if (args.json) {
    out << pricing_long_context_answer(inputs, converged, reference, long_context, list).dump(2)
        << "\n";
    return converged ? kExitOk : kExitNotConverged;
  }

  if (!converged) {
    out << "STATUS: not_converged: a best batch was not found; those rows are not optimal\n";
  }
  out << "Cost per output token at " << format_exact_count(long_context) << " against "
      << format_exact_count(reference) << " tokens: " << inputs.model.name
      << "'s parameters with six attentions, on " << inputs.setup.chip.id << " ("
      << to_string(inputs.setup.precision) << " weights, " << to_string(inputs.setup.kv_precision)
      << " KV), attention FLOPs " << (inputs.setup.attention_flops ? "counted" : "not counted")
      << "\n";
  Table table;
  table.header({"variant", "KV/token", "$/Mtok @short", "$/Mtok @long", "x", "chips", "batch",
                "weights/B", "KV term", "indexer", "binds at long context"});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const LongContextRow& row = rows[i];
    const ServingPlan& plan = row.long_context.point.plan;
    table.cells({row.variant.id, format_quantity(row.kv_bytes_per_token, Unit::bytes, 3),
                 usd_per_mtok_text(row.reference.point.plan.output_token.usd * kTokensPerMillion),
                 usd_per_mtok_text(plan.output_token.usd * kTokensPerMillion),
                 format_quantity(list[i]["output_cost_ratio"].get<double>(), Unit::number, 3),
                 format_quantity(row.long_context.chips, Unit::number, 4),
                 format_quantity(plan.batch, Unit::number, 3),
                 usd_per_mtok_text(row.long_context.point.output.weight_usd * kTokensPerMillion),
                 usd_per_mtok_text(row.long_context.point.output.kv_usd * kTokensPerMillion),
                 usd_per_mtok_text(row.long_context.point.output.indexer_usd * kTokensPerMillion),
                 binding_text(plan)});
  }
  table.print(out);
  for (const LongContextRow& row : rows) {
    out << "  " << row.variant.id << ": " << row.variant.description << "\n";
  }
  if (inputs.chips_given) {
    out << "A replica grows past its chips (given) only when one sequence would not fit its HBM.\n";
  } else {
    out << "Each replica chosen (chips column): for each variant and context, "
        << replica_choice_text(inputs.setup.chip.node_chips, inputs.max_replica_nodes) << ".\n";
  }
  print_assumptions(out, inputs.assumptions);
  return converged ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_pricing_long_context_command(CLI::App& pricing, Action& chosen) {
  auto* command = pricing.add_subcommand(
      "long-context",
      "Cost per output token at 1M vs 8K for MHA, GQA, MLA, shared-KV, sparse, hybrid");
  auto args = std::make_shared<LongContextArgs>();
  add_serving_flags(*command, args->serving, /*with_scenario=*/true);
  // Here neither is required: without a scenario they default (run_long_context).
  command->get_option("--hardware")
      ->description("Chip id (see 'scaleopt hardware'); without a scenario, default h200");
  command->get_option("--model")->description(
      "Model preset (see 'scaleopt models'); without a scenario, default deepseek-v3.2");
  command->add_option("--context", args->context, "The long context, in tokens")
      ->type_name("COUNT")
      ->default_str("1M");
  command
      ->add_option("--reference", args->reference,
                   "The short context compared with, in tokens (below --context)")
      ->type_name("COUNT")
      ->default_str("8K");
  command
      ->add_option("--kv-heads", args->kv_heads,
                   "K/V heads of the GQA and shared-KV variants (at most the model's query heads)")
      ->type_name("COUNT")
      ->default_str("8");
  command
      ->add_option(
          "--share-layers", args->share_layers,
          "Layers sharing one KV cache in the shared-KV variant (at most the model's layers)")
      ->type_name("COUNT")
      ->default_str("2");
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "The model's parameter counts are kept; only the attention changes. Sparse attention\n"
      "(DeepSeek-V3.2 DSA) reads k = 2048 cached tokens per step plus the indexer's FP8 keys\n"
      "of all S tokens, and its indexer costs FLOPs over all S. The hybrid (DeepSeek-V4)\n"
      "keeps a window of 128 raw tokens in every layer; CSA layers compress 4 tokens into an\n"
      "entry and attend the indexer's top 1024, HCA layers compress 128 and attend all.\n"
      "Examples:\n"
      "  scaleopt pricing long-context --context 1M\n"
      "  scaleopt pricing long-context --hardware b200 --price 5/h --model deepseek-v3 --precision "
      "fp8\n"
      "  scaleopt pricing long-context examples/long_context_1m.toml --json\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out) { return run_long_context(*args, out); };
  });
}

}  // namespace scaleopt::cli
