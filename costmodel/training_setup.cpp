#include "scaleopt/costmodel/training_setup.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

double TrainingSetup::price_per_chip_hour(std::string_view prefix) const {
  return chip_hour_price(usd_per_chip_hour, chip, prefix);
}

double TrainingSetup::effective_flop_per_second() const {
  return chip.peak_flop_per_second(precision) * mfu * goodput;
}

void TrainingSetup::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, double value, std::string_view rule) {
    std::ostringstream message;
    message << rule << ", got " << value;
    throw field_error(qualified_field(prefix, field), message.str());
  };
  if (!std::isfinite(tokens) || tokens < 0.0) fail("tokens", tokens, "must be >= 0");
  if (!(mfu > 0.0 && mfu <= 1.0)) fail("mfu", mfu, "must be in (0, 1]");
  if (!std::isfinite(cluster_chips) || cluster_chips < 0.0) {
    fail("chips", cluster_chips, "must be >= 0");
  }
  if (!(goodput > 0.0 && goodput <= 1.0)) fail("goodput", goodput, "must be in (0, 1]");
  if (max_chips && !(*max_chips >= 1.0 && std::isfinite(*max_chips))) {
    fail("max_chips", *max_chips, "must be at least 1");
  }
  if (max_chips && cluster_chips > 0.0) {
    throw field_error(qualified_field(prefix, "max_chips"),
                      "give the chips (training.chips) or a cap on them, not both");
  }
  if (deadline_seconds && !(*deadline_seconds > 0.0 && std::isfinite(*deadline_seconds))) {
    fail("deadline", *deadline_seconds, "must be a positive duration");
  }
  if (context_tokens && !(*context_tokens > 0.0 && std::isfinite(*context_tokens))) {
    fail("context", *context_tokens, "must be positive");
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
