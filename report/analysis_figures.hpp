#pragma once
// The figures of the analyses over a scenario (docs/sensitivity.md): the sensitivity tornado and
// the Monte Carlo histograms, computed by the same code as `scaleopt sensitivity` and
// `scaleopt uncertainty` and handed to the builders of plots/.

#include <string>

#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/plots/figure.hpp"
#include "scaleopt/plots/sweep_figure.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

// The axis of an output of kElasticityOutputs ("cost_total" in the problem's unit).
plots::SweepAxis output_axis(std::size_t output, CostUnit unit);

// The tornado of a sensitivity report: the ranked output at each input's low and high values,
// around the base; inputs without effect left out.
plots::Figure tornado_of(const Scenario& scenario, const SensitivityReport& report,
                         const SensitivityAnalysisOptions& options);

// Histograms of the optimum's outputs over the converged samples (run with keep_outputs), with
// the report's 5/50/95% quantiles; outputs that do not vary are left out.
plots::Figure uncertainty_of(const Scenario& scenario, const MonteCarloReport& report,
                             const MonteCarloOptions& options);

}  // namespace scaleopt::report
