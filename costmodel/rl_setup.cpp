#include "scaleopt/costmodel/rl_setup.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

void RlSetup::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, double value, std::string_view rule) {
    std::ostringstream message;
    message << rule << ", got " << value;
    throw field_error(qualified_field(prefix, field), message.str());
  };
  if (!(rollout_tokens >= 0.0 && std::isfinite(rollout_tokens))) {
    fail("rollout_tokens", rollout_tokens, "must be >= 0");
  }
  if (!(trained_fraction >= 0.0 && trained_fraction <= 1.0)) {
    fail("trained_fraction", trained_fraction, "must be in [0, 1]");
  }
  if (!(extra_forward_passes >= 0.0 && std::isfinite(extra_forward_passes))) {
    fail("extra_forward_passes", extra_forward_passes, "must be >= 0");
  }
  if (context_tokens && !(*context_tokens >= 0.0 && std::isfinite(*context_tokens))) {
    fail("context", *context_tokens, "must be >= 0");
  }
  if (mfu && !(*mfu > 0.0 && *mfu <= 1.0)) fail("mfu", *mfu, "must be in (0, 1]");
  if (returns) returns->validate(qualified_field(prefix, "returns"));
}

}  // namespace scaleopt
