// scaleopt pricing cache: the cheapest place to keep a prompt's KV cache for a hold time
// (recompute, HBM, host DRAM, flash, disk), each tier's capacity, bandwidth, drain time and
// price, and the hold times at which the cheapest tier changes (docs/pricing.md, "Cache tiers").

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/pricing_commands.hpp"
#include "scaleopt/cli/serving_flags.hpp"
#include "scaleopt/costmodel/cache_cost.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/pricing/cache_plan.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/cache_tier_catalog.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct CacheArgs {
  ServingFlags serving;
  std::string hold;
  std::string context;
  bool json = false;
};

struct TierRow {
  CacheTier tier;  // empty capacity for recompute
  CacheOption option;
};

std::string gb_hour_text(double usd_per_byte_second) {
  return format_quantity(usd_per_byte_second * 1e9 * 3600.0, Unit::usd, 3) + "/GB-h";
}

int run_cache(const CacheArgs& args, std::ostream& out) {
  ServingInputs inputs = resolve_serving(args.serving);
  double hold = 300.0;
  if (!args.hold.empty()) {
    hold = parse_positive_flag("--hold", args.hold, Unit::seconds);
  } else {
    inputs.assumptions.insert(inputs.assumptions.begin(), "--hold 5m");
  }
  double context = 100e3;
  if (!args.context.empty()) {
    context = parse_positive_flag("--context", args.context, Unit::count);
  } else if (!inputs.file.empty()) {
    context = inputs.setup.context_tokens;
  } else {
    inputs.assumptions.insert(inputs.assumptions.begin(), "--context 100K");
  }
  inputs.choose_chips(context);  // the HBM tier is what the replica holds beside the weights
  const Roofline roofline = inputs.roofline();
  // The prompt's cache averaged over its tokens (windows and compressed entries included): for
  // dense attention the KV bytes per token at any context.
  const double bytes_per_token = context > 0.0
                                     ? cached_bytes_per_sequence(roofline, context) / context
                                     : cached_bytes_per_token(roofline);
  const double prefill_usd = input_token_cost(roofline, prefill_token(roofline, context)).usd;

  std::vector<TierRow> rows;
  rows.push_back({CacheTier{}, recompute_option(prefill_usd)});
  const CacheTier hbm = hbm_tier(roofline, inputs.setup.chip.source);
  rows.push_back({hbm, storage_option(hbm, bytes_per_token)});
  for (const CacheTier& tier : builtin_cache_tiers()) {
    rows.push_back({tier, storage_option(tier, bytes_per_token)});
  }
  std::vector<CacheOption> options;
  for (const TierRow& row : rows) options.push_back(row.option);
  const CachePlan plan = plan_cache(options, hold, context * bytes_per_token, "--");
  const bool converged = plan.status == Status::converged;

  std::vector<CacheTier> tiers_of_options;
  for (const TierRow& row : rows) tiers_of_options.push_back(row.tier);
  const Json tiers = cache_tiers_json(tiers_of_options, options, plan, hold, context);
  const Json switches = cache_switches_json(plan, options);
  std::string culprits = extreme_serving_inputs(inputs);
  if (const std::string own = extreme_flags({{"--hold", hold}, {"--context", context}});
      !own.empty()) {
    culprits += (culprits.empty() ? "" : ", ") + own;
  }
  refuse_non_finite(Json{{"tiers", tiers}, {"switches", switches}}, culprits,
                    inputs.file.empty() ? "" : inputs.file + ": ");
  if (args.json) {
    out << pricing_cache_answer(inputs, plan, options, hold, context, bytes_per_token, tiers,
                                switches)
               .dump(2)
        << "\n";
    return converged ? kExitOk : kExitNotConverged;
  }

  if (!converged) out << "STATUS: " << to_string(plan.status) << ": " << plan.message << "\n";
  out << "Keeping a " << format_exact_count(context) << "-token prompt ("
      << format_quantity(plan.prompt_bytes, Unit::bytes, 3) << " of KV, "
      << format_quantity(bytes_per_token, Unit::bytes, 4) << " per token) of " << inputs.model.name
      << " for " << duration_text(hold) << ", served on " << describe_replica(inputs) << "\n";
  Table table;
  table.header({"tier", "capacity", "bandwidth", "drain", "rent", "hold $/Mtok", "retrieve $/Mtok",
                "total $/Mtok", "$/prompt", ""});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& row = tiers[i];
    const bool storage = !row["capacity_bytes"].is_null();
    std::string note = i == plan.cheapest ? "cheapest" : "";
    if (!plan.fits[i]) note = "does not fit";
    table.cells(
        {row["id"].get<std::string>(),
         storage ? format_quantity(row["capacity_bytes"].get<double>(), Unit::bytes, 3) : "-",
         storage ? format_quantity(row["bytes_per_second"].get<double>(), Unit::bytes_per_second, 3)
                 : "-",
         storage ? duration_text(row["drain_seconds"].get<double>()) : "-",
         storage ? gb_hour_text(row["usd_per_byte_second"].get<double>()) : "-",
         usd_per_mtok_text(row["hold_usd_per_mtok"].get<double>()),
         usd_per_mtok_text(row["retrieval_usd_per_mtok"].get<double>()),
         usd_per_mtok_text(row["usd_per_mtok"].get<double>()),
         format_quantity(row["usd_per_prompt"].get<double>(), Unit::usd, 3), note});
  }
  table.print(out);
  out << "Cheapest tier by hold time (crossings of total cost, TOMS 748 on ln T):\n";
  Table envelope;
  double from = CachePlanOptions{}.min_hold_seconds;
  std::size_t current = plan.switches.empty() ? plan.cheapest : plan.switches.front().from;
  for (const CacheSwitch& s : plan.switches) {
    envelope.row(duration_text(from) + " .. " + duration_text(s.hold_seconds), options[current].id);
    from = s.hold_seconds;
    current = s.to;
  }
  envelope.row("from " + duration_text(from), options[current].id);
  envelope.print(out);
  out << "Sources: storage capacities and bandwidths from datasheets; prices are assumptions:\n";
  for (std::size_t i = 2; i < rows.size(); ++i) {
    out << "  " << rows[i].tier.id << ": " << rows[i].tier.price_note << "\n";
  }
  print_assumptions(out, inputs.assumptions);
  return converged ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_pricing_cache_command(CLI::App& pricing, Action& chosen) {
  auto* command = pricing.add_subcommand(
      "cache", "Cheapest place to keep a prompt's KV cache for a hold time, and the switch points");
  auto args = std::make_shared<CacheArgs>();
  add_serving_flags(*command, args->serving, /*with_scenario=*/true);
  command
      ->add_option("--hold", args->hold,
                   "How long the cache waits for the next request (a duration, e.g. 5m)")
      ->type_name("DURATION")
      ->default_str("5m (assumed)");
  command->add_option("--context", args->context, "Context: tokens in the cached prompt")
      ->type_name("COUNT")
      ->default_str("100K (assumed), or the scenario's");
  command->add_flag("--json", args->json, "Print one JSON object instead of tables");
  command->footer(
      "A tier holding b bytes per token for T seconds costs rent x b x (T + drain time), the\n"
      "drain time being capacity / bandwidth (the retrieval keeps the unit busy); recomputing\n"
      "costs the prefill. Tiers: costmodel/data/cache_tiers.toml, HBM from the replica.\n"
      "Examples:\n"
      "  scaleopt pricing cache --hardware h100-sxm --model llama3-70b --hold 5m --context 100K\n"
      "  scaleopt pricing cache examples/gemini_200k.toml --hold 1h\n"
      "  scaleopt pricing cache --hardware h200 --model deepseek-v3 --hold 30s --json\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_cache(*args, out); }; });
}

}  // namespace scaleopt::cli
