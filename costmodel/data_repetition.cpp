#include "scaleopt/costmodel/data_repetition.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

RepeatedCount repeated_count(double log_count, double log_unique, double decay) {
  if (!(log_count > log_unique)) return {log_count, 1.0, 0.0};
  // R = c/u - 1 and 1 - exp(-R/R*) without cancellation for small R.
  const double repeats = std::expm1(log_count - log_unique);
  const double saturation = -std::expm1(-repeats / decay);
  const double ratio = 1.0 + decay * saturation;  // c' / u
  RepeatedCount result;
  result.log_effective = log_unique + std::log1p(decay * saturation);
  // d c' / d c = exp(-R / R*), so d ln c' / d ln c = exp(-R/R*) c / c'.
  result.d_log_count = std::exp(-repeats / decay) * (1.0 + repeats) / ratio;
  result.d_log_unique = 1.0 - result.d_log_count;
  return result;
}

double log_frontier_params(const LossLaw& law, double log_tokens) {
  const double log_g = std::log((law.alpha * law.A) / (law.beta * law.B)) / (law.alpha + law.beta);
  const double ratio = law.beta / law.alpha;
  return (1.0 + ratio) * log_g + ratio * log_tokens;
}

double data_constrained_loss(const LossLaw& law, double params, double tokens,
                             double unique_tokens) {
  const double log_unique = std::log(std::min(unique_tokens, tokens));
  const double log_params = std::log(params);
  const double log_unique_params = std::min(log_params, log_frontier_params(law, log_unique));
  const RepeatedCount d = repeated_count(std::log(tokens), log_unique, law.repeat_decay_tokens);
  const RepeatedCount n = repeated_count(log_params, log_unique_params, law.repeat_decay_params);
  return law.E + law.A * std::exp(-law.alpha * n.log_effective) +
         law.B * std::exp(-law.beta * d.log_effective);
}

double data_constrained_loss_floor(const LossLaw& law, double unique_tokens) {
  const double log_unique = std::log(unique_tokens);
  const double log_params =
      log_frontier_params(law, log_unique) + std::log1p(law.repeat_decay_params);
  const double log_tokens = log_unique + std::log1p(law.repeat_decay_tokens);
  return law.E + law.A * std::exp(-law.alpha * log_params) +
         law.B * std::exp(-law.beta * log_tokens);
}

void validate_unique_tokens(double unique_tokens, std::string_view field) {
  // Below one token there is nothing to repeat; beyond 1e30 the search bounds of D end.
  if (!std::isfinite(unique_tokens) || !(unique_tokens >= 1.0) || unique_tokens > 1e30) {
    std::ostringstream message;
    message << field << " must be a finite count of tokens in [1, 1e30], got " << unique_tokens;
    throw InputError(message.str());
  }
}

}  // namespace scaleopt
