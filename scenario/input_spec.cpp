#include "scaleopt/scenario/input_spec.hpp"

#include <cmath>
#include <sstream>

namespace scaleopt {

bool Range::contains(double value) const {
  if (!std::isfinite(value)) return false;
  const bool above = lower_open ? value > lower : value >= lower;
  const bool below = upper_open ? value < upper : value <= upper;
  return above && below;
}

std::string Range::describe() const {
  std::ostringstream text;
  const bool bounded_below = std::isfinite(lower), bounded_above = std::isfinite(upper);
  if (bounded_below && bounded_above) {
    text << "in " << (lower_open ? "(" : "[") << lower << ", " << upper << (upper_open ? ")" : "]");
  } else if (bounded_below) {
    text << (lower_open ? "> " : ">= ") << lower;
  } else if (bounded_above) {
    text << (upper_open ? "< " : "<= ") << upper;
  } else {
    text << "any finite number";
  }
  return text.str();
}

std::string Range::refusal(double value, std::string_view key) const {
  std::ostringstream text;
  text << "must be " << describe() << ", got " << value;
  // A fraction typed as a percentage: 40 for 40%.
  if (lower >= 0.0 && upper <= 1.0 && contains(value / 100.0)) {
    const char* is = key.starts_with("--") ? " " : " = ";  // a flag or a scenario key
    text << " (a percentage? " << value << "% is " << value / 100.0 << ": " << key << is
         << value / 100.0 << " or \"" << value << "%\")";
  } else if (!why.empty()) {
    text << " (" << why << ")";
  }
  return text.str();
}

}  // namespace scaleopt
