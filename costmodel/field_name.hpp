#pragma once
// Names of fields in error messages, for inputs that come from a scenario file
// ("inference.latency_per_token") or from flags ("--latency-per-token"). A prefix ending in
// "--" gives the flag spelling (underscores become dashes); any other prefix is joined with a
// dot; an empty prefix gives the bare name.

#include <string>
#include <string_view>

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

}  // namespace scaleopt
