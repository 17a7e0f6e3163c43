#pragma once
// Newton's method kept inside a bracket (Boost.Math's newton_raphson_iterate), for the fast
// paths' smooth 1-D roots (lifetime_newton.cpp, roofline_newton.cpp).

#include <boost/math/policies/error_handling.hpp>
#include <boost/math/tools/roots.hpp>
#include <cstdint>
#include <limits>

namespace scaleopt {

// At most this many Newton steps: quadratic convergence needs under ten from any start the
// fast paths give; more means the function is not what the reduction assumed.
inline constexpr std::uintmax_t kNewtonMaxIterations = 60;

// A root of f (returning {value, derivative}) in [lower, upper] from `start`, or NaN when
// Newton stops without converging (iteration limit, or Boost finds no bracketed root). Stops
// once a step is below 2^(1 - digits) of the iterate. `iterations`: the steps taken.
template <class F>
double newton_root(F f, double start, double lower, double upper, int digits, int& iterations) {
  std::uintmax_t used = kNewtonMaxIterations;
  double root = std::numeric_limits<double>::quiet_NaN();
  try {
    root = boost::math::tools::newton_raphson_iterate(f, start, lower, upper, digits, used);
  } catch (const boost::math::evaluation_error&) {
    used = kNewtonMaxIterations;
  }
  iterations = static_cast<int>(used);
  return used >= kNewtonMaxIterations ? std::numeric_limits<double>::quiet_NaN() : root;
}

}  // namespace scaleopt
