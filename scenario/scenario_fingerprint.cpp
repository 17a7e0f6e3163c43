#include "scaleopt/scenario/scenario_fingerprint.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt {

std::uint64_t fnv1a64(std::string_view text, std::uint64_t hash) {
  constexpr std::uint64_t kPrime = 1099511628211ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kPrime;
  }
  return hash;
}

std::string scenario_fingerprint(const Scenario& scenario, std::span<const std::string> excluded) {
  std::vector<std::string> lines;
  for (const NumericInput& input : numeric_inputs(scenario)) {
    if (std::find(excluded.begin(), excluded.end(), input.path) != excluded.end()) continue;
    // %a: the double's exact bits as text, so no two values print alike.
    char value[64];
    std::snprintf(value, sizeof value, "%a", input.value);
    lines.push_back(input.path + "=" + value + "\n");
  }
  std::sort(lines.begin(), lines.end());
  char document[32];
  std::snprintf(document, sizeof document, "document=%016llx\n",
                static_cast<unsigned long long>(scenario.document_digest));
  std::uint64_t hash = fnv1a64(document);
  for (const std::string& line : lines) hash = fnv1a64(line, hash);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace scaleopt
