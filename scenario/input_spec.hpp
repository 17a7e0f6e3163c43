#pragma once
// What an input key accepts: its kind (number, text, boolean) and, for numbers, the range of
// allowed values. Shared by the scenario key registry and the hardware fields.

#include <limits>
#include <string>
#include <string_view>

namespace scaleopt {

enum class KeyKind { number, text, boolean };

// An interval of allowed values; a bound is open when the value may not equal it.
struct Range {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool lower_open = false;
  bool upper_open = false;
  // Why the bounds are where they are, added to a refusal (empty: the range says it).
  std::string_view why = {};

  bool contains(double value) const;
  // "> 0", ">= 0", ">= 1", "in (0, 1]", "any": the text of error messages and docs.
  std::string describe() const;
  // "must be in [0.001, 1], got 40", and for a range within [0, 1] a value that is one as a
  // percentage "... (a percentage? 40% is 0.4: training.mfu = 0.4 or \"40%\")" naming `key`.
  std::string refusal(double value, std::string_view key) const;
};

inline constexpr Range kPositive{0.0, std::numeric_limits<double>::infinity(), true, false};
inline constexpr Range kNonNegative{0.0, std::numeric_limits<double>::infinity(), false, false};
inline constexpr Range kAtLeastOne{1.0, std::numeric_limits<double>::infinity(), false, false};
inline constexpr Range kFraction{0.0, 1.0, true, false};  // (0, 1]
// [1e-3, 1]: MFUs and efficiencies. Below a thousandth of peak nothing trains or serves:
// decoding one sequence at a time, the least efficient use of a chip, reaches ~3e-3 of an
// H100's peak (F / W = 295 FLOP per byte, against 1 FLOP per byte of bf16 weights read). A
// smaller value is a slip (1e-3 typed for 1e-1, a percentage typed as a fraction), and would
// only overflow the answer (docs/scenario.md, "Rules").
inline constexpr Range kEfficiency{
    1e-3, 1.0, false, false,
    "below a thousandth of peak nothing trains or serves: decoding one sequence at a time "
    "reaches ~0.003"};
inline constexpr Range kUnitInterval{0.0, 1.0, false, false};  // [0, 1]: shares

}  // namespace scaleopt
