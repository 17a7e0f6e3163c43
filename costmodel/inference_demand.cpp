#include "scaleopt/costmodel/inference_demand.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

double InferenceDemand::total_tokens() const {
  if (tokens) return *tokens;
  if (tokens_per_second && duration_seconds) return *tokens_per_second * *duration_seconds;
  if (requests)
    return *requests *
           (input_tokens_per_request.value_or(0.0) + output_tokens_per_request.value_or(0.0));
  return 0.0;
}

double InferenceDemand::input_tokens() const {
  if (requests) return *requests * input_tokens_per_request.value_or(0.0);
  return total_tokens() * (1.0 - output_fraction.value_or(0.0));
}

double InferenceDemand::output_tokens() const {
  if (requests) return *requests * output_tokens_per_request.value_or(0.0);
  return total_tokens() * output_fraction.value_or(0.0);
}

void InferenceDemand::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, const std::string& what) {
    throw field_error(qualified_field(prefix, field), what);
  };
  auto check_non_negative = [&](std::string_view field, const std::optional<double>& value) {
    if (value && !(*value >= 0.0 && std::isfinite(*value))) {
      std::ostringstream got;
      got << "must be >= 0, got " << *value;
      fail(field, got.str());
    }
  };
  check_non_negative("tokens", tokens);
  check_non_negative("rate", tokens_per_second);
  check_non_negative("duration", duration_seconds);
  check_non_negative("requests", requests);
  check_non_negative("input_tokens", input_tokens_per_request);
  check_non_negative("output_tokens", output_tokens_per_request);
  const bool per_request = requests || input_tokens_per_request || output_tokens_per_request;
  if (per_request) {
    if (tokens || tokens_per_second || duration_seconds) {
      fail(tokens ? "tokens" : (tokens_per_second ? "rate" : "duration"),
           "give the demand as tokens, as rate and duration, or as requests with input and "
           "output tokens per request: one form only");
    }
    if (!requests || !input_tokens_per_request || !output_tokens_per_request) {
      fail(!requests ? "requests" : (!input_tokens_per_request ? "input_tokens" : "output_tokens"),
           "requests, input_tokens and output_tokens (per request) go together");
    }
    if (output_fraction) {
      fail("output_fraction", "follows from input_tokens and output_tokens per request; remove it");
    }
    return;
  }
  if (tokens && (tokens_per_second || duration_seconds)) {
    fail(tokens_per_second ? "rate" : "duration",
         "give the demand either as tokens or as rate and duration, not both");
  }
  if (tokens_per_second.has_value() != duration_seconds.has_value()) {
    fail(tokens_per_second ? "duration" : "rate", "rate and duration go together");
  }
  if (output_fraction && !(*output_fraction >= 0.0 && *output_fraction <= 1.0)) {
    std::ostringstream got;
    got << "must be in [0, 1], got " << *output_fraction;
    fail("output_fraction", got.str());
  }
  if (any() && !output_fraction) {
    fail("output_fraction",
         "required with an inference demand: the share of tokens that are decoded outputs");
  }
}

}  // namespace scaleopt
