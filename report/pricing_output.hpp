#pragma once
// What the `pricing` commands share in their output: $/Mtok and time formatting, the price list
// as JSON and as text, the assumptions taken.

#include <string>
#include <vector>

#include "scaleopt/costmodel/price_list.hpp"
#include "scaleopt/problems/pricing/request_cost.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

inline constexpr double kTokensPerMillion = 1e6;

// "$1.25" per million tokens, with enough digits for sub-cent prices ("$0.00123").
std::string usd_per_mtok_text(double usd_per_mtok);

// "29ms", "4s", "9.1min", "23.4h", "27d": durations from milliseconds to years.
std::string duration_text(double seconds);

// {name, source, tiers: [{max_context (null: unbounded), usd_per_mtok_input, ...}]}
Json price_list_json(const PriceList& prices);

// "<= 200K: $1.25 in, $10 out; above: $2.5 in, $15 out"
std::string price_list_text(const PriceList& prices);

// One request (--input-tokens, --output-tokens): {input_tokens, output_tokens, prefill_usd,
// decode_usd, first_output_token_usd, last_output_token_usd, method, status, message}; the
// command's JSON also has its total as request_usd.
Json request_json(const RequestCost& request);

// "One request of 2K input and 500 output tokens: $0.0123 (prefill $0.00412, decode ...)",
// with the contexts its output tokens are priced at, on one line.
std::string request_text(const RequestCost& request);

// The defaults taken that are assumptions, one a line, after a heading (nothing when none).
std::string assumptions_text(const std::vector<std::string>& assumptions);

}  // namespace scaleopt::report
