#pragma once
// How many tokens a model serves over its life, and how many of them are decoded outputs.
// A total (tokens), a rate over a duration (the talk's "50M tokens/s for 2 months"), or a
// number of requests of so many input and output tokens each (Sardana et al. 2024).

#include <optional>
#include <string_view>

namespace scaleopt {

struct InferenceDemand {
  std::optional<double> tokens;             // lifetime inference tokens, input + output
  std::optional<double> tokens_per_second;  // served rate (with duration_seconds)
  std::optional<double> duration_seconds;   // how long the model serves at that rate
  std::optional<double> requests;           // lifetime requests (with the two per-request counts)
  std::optional<double> input_tokens_per_request;
  std::optional<double> output_tokens_per_request;
  // Share of inference tokens that are decoded outputs; the rest are prefilled inputs.
  // Required with tokens or rate (derived from the per-request counts otherwise): published shares
  // range from ~0.75 (LMSys chats, as used by Sardana et al. 2024: 70 input, 215 output tokens) to
  // ~0.1 (agentic use).
  std::optional<double> output_fraction;

  bool any() const {
    return tokens || tokens_per_second || duration_seconds || requests ||
           input_tokens_per_request || output_tokens_per_request;
  }
  double total_tokens() const;  // 0 when no demand is given
  double input_tokens() const;
  double output_tokens() const;

  // Throws InputError naming the field: exactly one form (tokens; rate and duration; requests
  // with input and output tokens per request), output_fraction in [0, 1] and present with the
  // first two forms, absent with the third.
  void validate(std::string_view prefix) const;
};

}  // namespace scaleopt
