#pragma once
// The subcommands of `scaleopt pricing` (cli/cmd_pricing.cpp), one file each, and what they
// share: $/Mtok and time formatting, the price list as JSON.

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "scaleopt/cli/allocation_output.hpp"  // Json
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/json_number.hpp"
#include "scaleopt/costmodel/price_list.hpp"

namespace scaleopt::cli {

void add_pricing_curve_command(CLI::App& pricing, Action& chosen);
void add_pricing_infer_kv_command(CLI::App& pricing, Action& chosen);
void add_pricing_ratio_command(CLI::App& pricing, Action& chosen);
void add_pricing_cache_command(CLI::App& pricing, Action& chosen);
void add_pricing_long_context_command(CLI::App& pricing, Action& chosen);

inline constexpr double kTokensPerMillion = 1e6;

// "$1.25" per million tokens, with enough digits for sub-cent prices ("$0.00123").
std::string usd_per_mtok_text(double usd_per_mtok);

// "29ms", "4s", "9.1min", "23.4h", "27d": durations from milliseconds to years.
std::string duration_text(double seconds);

// {name, source, tiers: [{max_context (null: unbounded), usd_per_mtok_input, ...}]}
Json price_list_json(const PriceList& prices);

// "<= 200K: $1.25 in, $10 out; above: $2.5 in, $15 out"
std::string price_list_text(const PriceList& prices);

// The defaults taken that are assumptions, one a line, after a heading (nothing when none).
void print_assumptions(std::ostream& out, const std::vector<std::string>& assumptions);

}  // namespace scaleopt::cli
