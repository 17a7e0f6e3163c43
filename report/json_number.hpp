#pragma once
// A double as JSON: JSON has no infinity or NaN, so those print as null.

#include <cmath>

#include "scaleopt/report/json.hpp"

namespace scaleopt::report {

inline Json finite_or_null(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

}  // namespace scaleopt::report
