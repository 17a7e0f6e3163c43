#pragma once
// How a scaling-law fit is shown: a table for people, JSON for programs.

#include <optional>
#include <ostream>
#include <string>

#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"
#include "scaleopt/report/allocation_output.hpp"

namespace scaleopt::report {

// Everything `scaleopt fit` reports.
struct FitReport {
  std::string file;              // the CSV as named on the command line
  std::size_t runs_read = 0;     // data rows in the file
  std::size_t runs_dropped = 0;  // by --drop-highest-loss
  double huber_delta = 0.0;
  FitResult fit;
  LawImplications implied;                   // of fit.law
  std::optional<BootstrapResult> bootstrap;  // with --bootstrap
  std::string law_file;                      // written by --emit-law, empty otherwise
};

// Keys: E, A, B, alpha, beta, objective, runs, runs_read, runs_dropped, starts,
// starts_converged, status, message, huber_delta, gradient_norm, evaluations, best_start, a, b,
// tokens_per_param_at_1e24_flops, law, and with --bootstrap: bootstrap {replicates, converged,
// seed, quantiles, spread {E, A, B, alpha, beta, a, b, tokens_per_param_at_1e24_flops:
// {standard_error, lower, upper}}, covariance}; law_file when written.
Json fit_json(const FitReport& report);

// "240 read, the 5 of highest loss dropped (--drop-highest-loss)": the runs row of a fit's
// table (this fit's and the joint fit's, report/joint_fit_output.hpp).
std::string runs_note(std::size_t runs_read, std::size_t runs_dropped);

// The status first when not converged, then the coefficients (with standard errors and 10/90%
// intervals after a bootstrap), what they imply, and how the fit went.
std::string fit_text(const FitReport& report);

}  // namespace scaleopt::report
