#pragma once
// The [pricing] table of a scenario: a provider's price list in tiers by prompt length.
//
//   [pricing]
//   name = "Gemini 2.5 Pro"          # optional
//   source = "..."                   # where and when the prices were published
//
//   [[pricing.tier]]
//   max_context = "200K"             # prompts of at most 200K tokens
//   usd_per_mtok_input = "$1.25"     # per million input tokens
//   usd_per_mtok_output = "$10"      # per million output tokens
//
//   [[pricing.tier]]                 # the last tier has no max_context: longer prompts
//   usd_per_mtok_input = "$2.50"
//   usd_per_mtok_output = "$15"

#include <toml++/toml.h>
#include <string>

#include "scaleopt/costmodel/price_list.hpp"

namespace scaleopt {

// Reads the table found at `key` (normally "pricing") of `file`; errors give file:line and key.
PriceList read_price_list(const std::string& file, const toml::table& table,
                          const std::string& key);

}  // namespace scaleopt
