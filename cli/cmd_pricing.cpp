// scaleopt pricing: the API-pricing analysis of the roofline (docs/pricing.md): cost per token
// against context, the KV bytes a price step implies, the output/input ratio, where to keep a
// prompt's cache, and what a million-token context costs. One subcommand per question.

#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/pricing_commands.hpp"

namespace scaleopt::cli {

void add_pricing_command(CLI::App& app, Action& chosen) {
  auto* pricing = app.add_subcommand(
      "pricing", "API pricing from the roofline: context curve, KV back-out, ratio, cache, 1M");
  pricing->require_subcommand(1);
  pricing->footer(
      "Each subcommand reads a scenario file (model, [inference], [pricing] price list) or\n"
      "flags; see docs/pricing.md for the equations and their sources.\n"
      "Examples:\n"
      "  scaleopt pricing curve --hardware h200 --model deepseek-v3 --context 1K..1M\n"
      "  scaleopt pricing infer-kv --breakpoint 200K --active-params 100B --flop-per-byte 600\n"
      "  scaleopt pricing ratio examples/gemini_200k.toml\n"
      "  scaleopt pricing cache --hardware h100-sxm --model llama3-70b --hold 5m --context 100K\n"
      "  scaleopt pricing long-context --context 1M\n");
  add_pricing_curve_command(*pricing, chosen);
  add_pricing_infer_kv_command(*pricing, chosen);
  add_pricing_ratio_command(*pricing, chosen);
  add_pricing_cache_command(*pricing, chosen);
  add_pricing_long_context_command(*pricing, chosen);
}

}  // namespace scaleopt::cli
