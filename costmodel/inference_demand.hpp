#pragma once
// How many tokens a model serves over its life, and how many of them are decoded outputs.
// Either a total (tokens) or a rate over a duration (the talk's "50M tokens/s for 2 months").

#include <optional>
#include <string_view>

namespace scaleopt {

struct InferenceDemand {
  std::optional<double> tokens;             // lifetime inference tokens, input + output
  std::optional<double> tokens_per_second;  // served rate (with duration_seconds)
  std::optional<double> duration_seconds;   // how long the model serves at that rate
  // Share of inference tokens that are decoded outputs; the rest are prefilled inputs.
  // Required with any demand: published shares range from ~0.75 (LMSys chats, as used by
  // Sardana et al. 2024: 70 input, 215 output tokens) to ~0.1 (agentic use).
  std::optional<double> output_fraction;

  bool any() const { return tokens || tokens_per_second || duration_seconds; }
  double total_tokens() const;  // 0 when no demand is given
  double input_tokens() const { return total_tokens() * (1.0 - output_fraction.value_or(0.0)); }
  double output_tokens() const { return total_tokens() * output_fraction.value_or(0.0); }

  // Throws InputError naming the field: exactly one form (tokens, or rate and duration),
  // output_fraction in [0, 1] and present with any demand.
  void validate(std::string_view prefix) const;
};

}  // namespace scaleopt
