#include "scaleopt/costmodel/rl_returns.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

void RlReturns::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, double value, std::string_view rule) {
    std::ostringstream message;
    message << rule << ", got " << value;
    throw field_error(qualified_field(prefix, field), message.str());
  };
  if (!(max_gain >= 1.0 && std::isfinite(max_gain))) fail("max_gain", max_gain, "must be >= 1");
  if (!(half_ratio > 0.0 && std::isfinite(half_ratio))) {
    fail("half_ratio", half_ratio, "must be > 0");
  }
  if (!(steepness > 0.0 && std::isfinite(steepness))) fail("steepness", steepness, "must be > 0");
}

RlGain rl_gain(const RlReturns& returns, double log_ratio) {
  // s = 1 / (1 + (r_half / r)^h) = logistic(h (ln r - ln r_half)); ds / d ln r = h s (1 - s).
  const double z = returns.steepness * (log_ratio - std::log(returns.half_ratio));
  // s and 1 - s each from the side where exp does not overflow.
  const double s = z >= 0.0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
  const double one_minus_s =
      z >= 0.0 ? std::exp(-z) / (1.0 + std::exp(-z)) : 1.0 / (1.0 + std::exp(z));
  const double span = returns.max_gain - 1.0;
  const double gain = 1.0 + span * s;
  const double h = returns.steepness;
  const double ds = h * s * one_minus_s;  // ds / d ln r
  const double elasticity = span * ds / gain;
  // d/d ln r of span * ds / g: span (d2s g - ds span ds) / g^2, d2s = h ds (1 - 2 s).
  const double d2s = h * ds * (one_minus_s - s);
  const double d_elasticity = span * (d2s * gain - span * ds * ds) / (gain * gain);
  return {gain, elasticity, d_elasticity};
}

}  // namespace scaleopt
