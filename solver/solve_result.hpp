#pragma once
#include <limits>
#include <string>
#include <vector>

#include "scaleopt/solver/status.hpp"

namespace scaleopt {

// What a solve returns, in the manner of Ceres' Solver::Summary.
struct SolveResult {
  Status status = Status::not_converged;
  std::string message;    // one line, human readable, says why when not converged
  std::vector<double> x;  // the solution in the problem's (log-space) variables
  double objective = std::numeric_limits<double>::quiet_NaN();
  int evaluations = 0;  // objective evaluations over all starts
  double kkt_residual = std::numeric_limits<double>::quiet_NaN();
  double constraint_violation = std::numeric_limits<double>::quiet_NaN();
  // Lagrange multipliers at x (grad f + sum lambda_i grad c_i = 0), kept for sensitivities.
  std::vector<double> equality_multipliers;
  std::vector<double> inequality_multipliers;  // zero for inactive constraints
  std::string algorithm;                       // e.g. "LD_SLSQP", "closed form", "toms748"

  bool converged() const { return status == Status::converged; }
};

}  // namespace scaleopt
