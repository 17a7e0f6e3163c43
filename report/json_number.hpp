#pragma once
// A double as JSON: JSON has no infinity or NaN, so those print as null.

#include <cmath>
#include <optional>

#include "scaleopt/report/json.hpp"

namespace scaleopt::report {

inline Json finite_or_null(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

// A figure that may be absent (a chip without fp8, a bound the source does not state): null.
inline Json optional_or_null(const std::optional<double>& value) {
  return value ? Json(*value) : Json(nullptr);
}

}  // namespace scaleopt::report
