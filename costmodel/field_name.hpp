#pragma once
// Names of fields in error messages, for inputs that come from a scenario file
// ("inference.latency_per_token") or from flags ("--latency-per-token"). A prefix ending in
// "--" gives the flag spelling (underscores become dashes); any other prefix is joined with a
// dot; an empty prefix gives the bare name.

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

inline std::string qualified_field(std::string_view prefix, std::string_view name) {
  if (prefix.ends_with("--")) {
    std::string flag(name);
    for (char& c : flag) {
      if (c == '_') c = '-';
    }
    return std::string(prefix) + flag;
  }
  if (prefix.empty()) return std::string(name);
  return std::string(prefix) + "." + std::string(name);
}

// Throws field_error for `field` under `prefix` unless `value` is finite and positive: "must be
// finite and positive[ <why>], got <value>".
inline void require_positive(std::string_view prefix, std::string_view field, double value,
                             std::string_view why = {}) {
  if (std::isfinite(value) && value > 0.0) return;
  std::ostringstream got;
  got << "must be finite and positive";
  if (!why.empty()) got << " " << why;
  got << ", got " << value;
  throw field_error(qualified_field(prefix, field), got.str());
}

}  // namespace scaleopt
