#pragma once
// 1-D root finding for the reduced (constraint-eliminated) problems, by Boost.Math's TOMS 748
// on a bracket. A thin layer: it adds the sign check and a result with a status, nothing of
// the algorithm.

#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "scaleopt/solver/status.hpp"

namespace scaleopt {

struct RootOptions {
  // Bits of agreement between the bracket ends at which TOMS 748 stops (52 of double's 53).
  int bits = std::numeric_limits<double>::digits - 1;
  // Upper bound on function evaluations.
  std::uintmax_t max_iterations = 200;
};

struct RootResult {
  Status status = Status::not_converged;
  std::string message;
  double x = std::numeric_limits<double>::quiet_NaN();
  std::uintmax_t iterations = 0;
};

// A root of f in [lower, upper], where f(lower) and f(upper) have opposite signs (or one is
// zero). A bracket without a sign change gives status infeasible.
template <class F>
RootResult find_root_in_bracket(F f, double lower, double upper, const RootOptions& options = {}) {
  RootResult result;
  const double f_lower = f(lower);
  const double f_upper = f(upper);
  if (!std::isfinite(f_lower) || !std::isfinite(f_upper)) {
    result.message = "function not finite at the ends of the bracket";
    return result;
  }
  if (f_lower == 0.0 || f_upper == 0.0) {
    result.status = Status::converged;
    result.x = f_lower == 0.0 ? lower : upper;
    result.message = "root at the end of the bracket";
    return result;
  }
  if ((f_lower > 0.0) == (f_upper > 0.0)) {
    result.status = Status::infeasible;
    result.message = "no sign change in the bracket";
    return result;
  }
  std::uintmax_t iterations = options.max_iterations;
  const auto [a, b] = boost::math::tools::toms748_solve(
      f, lower, upper, f_lower, f_upper, boost::math::tools::eps_tolerance<double>(options.bits),
      iterations);
  result.iterations = iterations;
  result.x = 0.5 * (a + b);
  if (iterations >= options.max_iterations) {
    result.message = "iteration limit reached";
    return result;
  }
  result.status = Status::converged;
  result.message = "converged (TOMS 748)";
  return result;
}

}  // namespace scaleopt
