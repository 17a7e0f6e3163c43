#include "costmodel/serving_setup.hpp"

#include <cmath>
#include <sstream>

#include "costmodel/field_name.hpp"
#include "costmodel/input_error.hpp"

namespace scaleopt {

double ServingSetup::price_per_chip_hour(std::string_view prefix) const {
  if (usd_per_chip_hour) return *usd_per_chip_hour;
  if (chip.usd_per_hour) return *chip.usd_per_hour;
  throw field_error(qualified_field(prefix, "usd_per_chip_hour"),
                    "required: " + chip.id + " has no price in the catalog");
}

double ServingSetup::flop_per_byte() const {
  return chip.peak_flop_per_second(precision) * compute_efficiency /
         (chip.hbm_bytes_per_second * bandwidth_efficiency);
}

void ServingSetup::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, double value, std::string_view rule) {
    std::ostringstream message;
    message << rule << ", got " << value;
    throw field_error(qualified_field(prefix, field), message.str());
  };
  if (!(chips >= 1.0 && std::isfinite(chips))) fail("chips", chips, "must be >= 1");
  if (!(context_tokens >= 0.0 && std::isfinite(context_tokens))) {
    fail("context", context_tokens, "must be >= 0");
  }
  if (batch && !(*batch >= 1.0 && std::isfinite(*batch))) fail("batch", *batch, "must be >= 1");
  if (latency_per_token_seconds &&
      !(*latency_per_token_seconds > 0.0 && std::isfinite(*latency_per_token_seconds))) {
    fail("latency_per_token", *latency_per_token_seconds, "must be positive");
  }
  if (!(compute_efficiency > 0.0 && compute_efficiency <= 1.0)) {
    fail("compute_efficiency", compute_efficiency, "must be in (0, 1]");
  }
  if (!(bandwidth_efficiency > 0.0 && bandwidth_efficiency <= 1.0)) {
    fail("bandwidth_efficiency", bandwidth_efficiency, "must be in (0, 1]");
  }
  if (usd_per_chip_hour && !(*usd_per_chip_hour >= 0.0 && std::isfinite(*usd_per_chip_hour))) {
    fail("usd_per_chip_hour", *usd_per_chip_hour, "must be >= 0");
  }
  if (!chip.supports(precision)) {
    try {
      chip.peak_flop_per_second(precision);
    } catch (const InputError& e) {
      throw field_error(qualified_field(prefix, "precision"), e.what());
    }
  }
}

}  // namespace scaleopt
