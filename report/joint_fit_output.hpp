#pragma once
// How a fit of the joint dense/MoE law (`scaleopt fit --experts-col`) is shown: a table for
// people, JSON for programs.

#include <optional>
#include <string>

#include "scaleopt/problems/fit/joint_law_fit.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

struct JointFitReport {
  std::string file;              // the CSV as named on the command line
  std::size_t runs_read = 0;     // data rows in the file
  std::size_t runs_dropped = 0;  // by --drop-highest-loss
  double huber_delta = 0.0;
  JointFitResult fit;
  std::optional<JointBootstrapResult> bootstrap;  // with --bootstrap
  std::string law_file;                           // written by --emit-law, empty otherwise
};

// Keys: form ("joint"), E, a, b, alpha, beta, delta, gamma, omega, zeta, experts_start,
// experts_max, objective, runs, runs_read, runs_dropped, starts, starts_converged, status,
// message, huber_delta, gradient_norm, evaluations, best_start, fitted_range {min_params,
// max_params, min_tokens, max_tokens, min_experts, max_experts}; with --bootstrap: bootstrap
// {replicates, converged, seed, spread {E, a, ...: {standard_error, lower, upper}}}; law_file
// when written.
Json joint_fit_json(const JointFitReport& report);

// The status first when not converged, then the coefficients (with standard errors and 10/90%
// intervals after a bootstrap) and how the fit went.
std::string joint_fit_text(const JointFitReport& report);

}  // namespace scaleopt::report
