#include "scaleopt/scenario/extreme_inputs.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt {
namespace {

// No rate, price, count or efficiency a user means is beyond 1e30 or within 1e-30 of zero (the
// solver's own range is 1 to 1e30 parameters and tokens).
constexpr double kExtreme = 1e30;

bool extreme(double value) {
  const double magnitude = std::fabs(value);
  return magnitude > kExtreme || (magnitude > 0.0 && magnitude < 1.0 / kExtreme);
}

}  // namespace

std::string extreme_inputs(const Scenario& scenario) {
  std::ostringstream text;
  text.precision(3);
  for (const NumericInput& input : numeric_inputs(scenario)) {
    if (extreme(input.value)) {
      text << (text.tellp() > 0 ? ", " : "") << input.path << " = " << input.value;
    }
  }
  return text.str();
}

std::string extreme_flags(const std::vector<std::pair<std::string_view, double>>& flags) {
  std::ostringstream text;
  text.precision(3);
  for (const auto& [flag, value] : flags) {
    if (extreme(value)) text << (text.tellp() > 0 ? ", " : "") << flag << " = " << value;
  }
  return text.str();
}

}  // namespace scaleopt
