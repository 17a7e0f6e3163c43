#pragma once
// How a Monte Carlo report is shown: the inputs and their distributions, the shares of samples
// by outcome, and the 5/50/95% quantiles (and mean) of each output; or JSON.

#include <ostream>
#include <string>
#include "scaleopt/report/json_fwd.hpp"

#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {

// Keys: status ("not_converged" when no sample converged), message, scenario, problem, unit,
// samples, seed, converged, infeasible, not_converged, invalid,
// infeasible_share, invalid_share, not_converged_share, fast_path, inputs [{path, dist, <its
// two parameters>}], law ("bootstrap" or null), quantiles {output: {p05, p50, p95, mean}},
// heuristic_quantiles (equal-cost), samples_file (with --out).
Json uncertainty_json(const Scenario& scenario, const MonteCarloReport& report,
                      const MonteCarloOptions& options, const std::string& samples_file);

// "lognormal(median 50M/s, sigma 0.5)": an input's distribution in the input's unit.
std::string distribution_text(const Scenario& scenario, const UncertainInput& input);

// The 5/50/95% quantiles and the mean of each output, as uncertainty_text shows them.
Table quantiles_table(const std::string& title, const OutputQuantiles& quantiles);

// "none of the N samples converged (...): there are no quantiles".
std::string no_converged_sample_message(const MonteCarloReport& report);

std::string uncertainty_text(const Scenario& scenario, const MonteCarloReport& report,
                             const MonteCarloOptions& options, const std::string& samples_file);

}  // namespace scaleopt::report
