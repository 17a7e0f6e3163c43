#pragma once
// What an input key accepts: its kind (number, text, boolean) and, for numbers, the range of
// allowed values. Shared by the scenario key registry and the hardware fields.

#include <limits>
#include <string>

namespace scaleopt {

enum class KeyKind { number, text, boolean };

// An interval of allowed values; a bound is open when the value may not equal it.
struct Range {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool lower_open = false;
  bool upper_open = false;

  bool contains(double value) const;
  // "> 0", ">= 0", ">= 1", "in (0, 1]", "any": the text of error messages and docs.
  std::string describe() const;
};

inline constexpr Range kPositive{0.0, std::numeric_limits<double>::infinity(), true, false};
inline constexpr Range kNonNegative{0.0, std::numeric_limits<double>::infinity(), false, false};
inline constexpr Range kAtLeastOne{1.0, std::numeric_limits<double>::infinity(), false, false};
inline constexpr Range kFraction{0.0, 1.0, true, false};       // (0, 1]: efficiencies, MFU
inline constexpr Range kUnitInterval{0.0, 1.0, false, false};  // [0, 1]: shares

}  // namespace scaleopt
