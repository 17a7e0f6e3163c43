// Fuzzes the quantity parser (costmodel/quantity.hpp), the one reader of every number a user
// types. Input: the first byte picks the unit, the rest is the text. Invariants:
//  - parse_quantity returns a finite number or throws InputError (nothing else escapes);
//  - a parsed value prints back (format_quantity) in a form that parses again, to the three
//    significant digits printed (relative error <= 5e-3, the rounding of "%.3g").

#include <cmath>
#include <sstream>

#include "fuzz/fuzz_checks.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"

namespace {

constexpr scaleopt::Unit kUnits[] = {
    scaleopt::Unit::number,          scaleopt::Unit::count,
    scaleopt::Unit::bytes,           scaleopt::Unit::bytes_per_second,
    scaleopt::Unit::flop_per_second, scaleopt::Unit::usd,
    scaleopt::Unit::usd_per_hour,    scaleopt::Unit::per_second,
    scaleopt::Unit::seconds,         scaleopt::Unit::watts};

// "%.3g" rounds to half a unit in the third digit: at most 0.5 / 100 relative (at 1.00x).
constexpr double kPrintedRelativeError = 5e-3;
// Beyond this, printing rounds up past the largest double ("1.8e308"); no unit is used there.
constexpr double kLargestRoundTrip = 1e300;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace scaleopt;
  if (size == 0) return 0;
  const Unit unit = kUnits[data[0] % std::size(kUnits)];
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  double value = 0.0;
  try {
    value = parse_quantity(text, unit);
  } catch (const InputError&) {
    return 0;  // rejected with a message: expected
  }
  std::ostringstream evidence;
  evidence.precision(17);
  evidence << "unit " << unit_expectation(unit) << "\ntext '" << text << "'\nvalue " << value;
  if (!std::isfinite(value))
    fuzz::invariant_broken("parse_quantity returned non-finite", evidence.str());
  if (std::fabs(value) > kLargestRoundTrip) return 0;
  const std::string printed = format_quantity(value, unit);
  evidence << "\nprinted '" << printed << "'";
  double again = 0.0;
  try {
    again = parse_quantity(printed, unit);
  } catch (const InputError& e) {
    evidence << "\n" << e.what();
    fuzz::invariant_broken("format_quantity printed what parse_quantity refuses", evidence.str());
  }
  evidence << "\nparsed again " << again;
  // Values below the smallest normal double print in exponent form and parse back within
  // their own precision; an absolute floor keeps the test meaningful there.
  if (std::fabs(again - value) > kPrintedRelativeError * std::fabs(value) + 1e-300) {
    fuzz::invariant_broken("format_quantity does not round-trip", evidence.str());
  }
  return 0;
}
