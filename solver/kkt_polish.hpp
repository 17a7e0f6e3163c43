#pragma once
// Newton steps on the KKT conditions after NLopt stops.
//
// Why: SLSQP's line search compares objective values, and near a flat optimum those differ by
// less than their rounding error once |x - x*| < ~sqrt(machine epsilon); it then stalls with
// relative errors of ~1e-8 in N and D. The gradients are still exact there, so Newton's method
// on grad f + J^T lambda = 0, h = 0 (Hessian of the Lagrangian by central differences of the
// analytic gradients) takes the answer to ~1e-15 in one or two steps. A step is kept only if
// it lowers the KKT residual without breaking a constraint or a bound. The problem is only
// evaluated within its bounds (differences are one-sided there).

#include <span>
#include <vector>

#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

struct PolishOptions {
  int max_steps = 4;                   // Newton steps at most
  double difference_step = 1e-5;       // central-difference step in each (log) variable
  double active_tolerance = 1e-8;      // as in check_kkt
  double constraint_tolerance = 1e-9;  // a step may not push a violation above this
};

// Returns the improved point (or `x` unchanged when no step helped).
std::vector<double> polish_kkt(const Problem& problem, std::span<const double> x,
                               const PolishOptions& options = {});

}  // namespace scaleopt
