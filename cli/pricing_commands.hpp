#pragma once
// The subcommands of `scaleopt pricing` (cli/cmd_pricing.cpp), one file each; what they share
// in their output ($/Mtok and time formatting, the price list as JSON) is
// report/pricing_output.hpp.

#include <CLI/CLI.hpp>

#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/pricing_json.hpp"
#include "scaleopt/report/pricing_output.hpp"

namespace scaleopt::cli {

void add_pricing_curve_command(CLI::App& pricing, Action& chosen);
void add_pricing_infer_kv_command(CLI::App& pricing, Action& chosen);
void add_pricing_ratio_command(CLI::App& pricing, Action& chosen);
void add_pricing_cache_command(CLI::App& pricing, Action& chosen);
void add_pricing_long_context_command(CLI::App& pricing, Action& chosen);

}  // namespace scaleopt::cli
