#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/json.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt::report {
namespace {

struct Found {
  std::string path;
  double value = 0.0;
};

std::optional<Found> find_non_finite(const Json& json, const std::string& path) {
  if (json.is_number_float()) {
    const double value = json.get<double>();
    if (!std::isfinite(value)) return Found{path, value};
  } else if (json.is_object()) {
    for (const auto& [key, value] : json.items()) {
      if (auto found = find_non_finite(value, path.empty() ? key : path + "." + key)) {
        return found;
      }
    }
  } else if (json.is_array()) {
    for (std::size_t i = 0; i < json.size(); ++i) {
      if (auto found = find_non_finite(json[i], path + "[" + std::to_string(i) + "]")) {
        return found;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> non_finite_path(const Json& json) {
  if (auto found = find_non_finite(json, "")) return found->path;
  return std::nullopt;
}

namespace {

// "PREFIXthe answer's PATH came out as inf: an input lies beyond what double precision can hold"
std::string overflow_message(const Found& found, const std::string& prefix) {
  std::ostringstream message;
  message << prefix << "the answer's " << found.path << " came out as "
          << (std::isnan(found.value) ? "nan"
              : found.value > 0       ? "inf"
                                      : "-inf")
          << ": an input lies beyond what double precision can hold";
  return message.str();
}

}  // namespace

void refuse_non_finite(const Json& json, const std::string& culprits, const std::string& prefix) {
  const std::optional<Found> found = find_non_finite(json, "");
  if (!found) return;
  std::string message = overflow_message(*found, prefix);
  if (!culprits.empty()) message += " (inputs beyond 1e30 or below 1e-30: " + culprits + ")";
  throw InputError(message);
}

void refuse_non_finite(const Json& json,
                       const std::vector<std::pair<std::string_view, double>>& inputs,
                       const std::string& prefix) {
  const std::optional<Found> found = find_non_finite(json, "");
  if (!found) return;
  const std::string extreme = extreme_flags(inputs);
  if (!extreme.empty()) refuse_non_finite(json, extreme, prefix);
  std::ostringstream given;
  given.precision(3);
  for (const auto& [name, value] : inputs) {
    given << (given.tellp() > 0 ? ", " : "") << name << " = " << value;
  }
  throw InputError(overflow_message(*found, prefix) +
                   " (no input is beyond 1e30 or below 1e-30; it follows from " + given.str() +
                   ")");
}

}  // namespace scaleopt::report
