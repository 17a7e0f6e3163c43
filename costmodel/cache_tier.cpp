#include "scaleopt/costmodel/cache_tier.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

void CacheTier::validate(std::string_view prefix) const {
  for (const auto& [field, value] :
       {std::pair{"capacity", capacity_bytes}, std::pair{"bandwidth", bytes_per_second},
        std::pair{"price", usd_per_byte_second}}) {
    if (!(std::isfinite(value) && value > 0.0)) {
      std::ostringstream message;
      message << "must be finite and positive, got " << value;
      throw field_error(qualified_field(prefix, field), message.str());
    }
  }
  if (source.empty()) throw field_error(qualified_field(prefix, "source"), "must not be empty");
}

}  // namespace scaleopt
