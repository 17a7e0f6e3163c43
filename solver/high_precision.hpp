#pragma once
// 50-digit arithmetic for reference values (Boost.Multiprecision), used by tests and by the
// self-checks that compare a double-precision answer with an exact closed form.

#include <boost/multiprecision/cpp_dec_float.hpp>

namespace scaleopt {

using Real50 = boost::multiprecision::cpp_dec_float_50;

// |value - reference| / |reference|, evaluated in 50 digits and returned as a double.
inline double relative_difference(double value, const Real50& reference) {
  const Real50 difference = abs(Real50(value) - reference) / abs(reference);
  return difference.convert_to<double>();
}

}  // namespace scaleopt
