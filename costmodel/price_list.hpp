#pragma once
// A provider's price list for one model: dollars per million input and output tokens, in tiers
// by prompt length. Gemini 2.5 Pro, for example, charges $1.25 / $10 per million input / output
// tokens for prompts up to 200K tokens and $2.50 / $15 above (Google AI for Developers, Gemini
// API pricing). Pope on Dwarkesh (2026) reads such a step as the context where decode turns
// memory-bound (docs/pricing.md).

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace scaleopt {

struct PriceTier {
  // Prompts of at most this many tokens pay this tier; +infinity for the last tier.
  double max_context_tokens = std::numeric_limits<double>::infinity();
  double usd_per_mtok_input = 0.0;   // per million input (prompt) tokens
  double usd_per_mtok_output = 0.0;  // per million output (generated) tokens

  // Output over input price; +infinity when the input is free.
  double output_input_ratio() const { return usd_per_mtok_output / usd_per_mtok_input; }
};

struct PriceList {
  std::string name;              // "Gemini 2.5 Pro"
  std::string source;            // where the prices were published, and when
  std::vector<PriceTier> tiers;  // ascending max_context_tokens; the last one unbounded

  // The tier a prompt of `context_tokens` pays.
  const PriceTier& tier_for(double context_tokens) const;

  // Throws InputError naming the first bad field ("pricing.tier[2].max_context: ...") when
  // there are no tiers, bounds do not ascend, the last tier is bounded or a price is negative.
  void validate(std::string_view prefix) const;
  // The same rules for tiers[index] alone (against the tier before it), so that a reader can
  // locate the error at that tier.
  void validate_tier(std::string_view prefix, std::size_t index) const;
};

}  // namespace scaleopt
