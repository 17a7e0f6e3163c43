#include "scaleopt/report/analysis_figures.hpp"
#include "scaleopt/report/report_text.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/plots/tornado_figure.hpp"
#include "scaleopt/plots/uncertainty_figure.hpp"
#include "scaleopt/report/sensitivity_output.hpp"
#include "scaleopt/report/sweep_plot.hpp"
#include "scaleopt/report/uncertainty_output.hpp"

namespace scaleopt::report {
namespace {

std::string column_of(std::size_t output, CostUnit unit) {
  const std::string_view name = kElasticityOutputs[output];
  if (name == "cost_total") return "cost.total." + std::string(to_string(unit));
  return std::string(name);
}

}  // namespace

plots::SweepAxis output_axis(std::size_t output, CostUnit unit) {
  return sweep_axis(column_of(output, unit));
}

plots::Figure tornado_of(const Scenario& scenario, const SensitivityReport& report,
                         const SensitivityAnalysisOptions& options) {
  const std::size_t k = options.rank_by;
  std::vector<plots::TornadoBar> bars;
  bool law_bars = false;
  for (const std::size_t i : report.tornado) {
    const InputSensitivity& s = report.inputs[i];
    if (no_effect(s) || !(s.swing > 1e-10)) continue;  // below 1e-10: the solver's rounding
    law_bars = law_bars || law_coefficient(s.path);
    bars.push_back({s.path,
                    format_quantity(s.low.value, s.unit, 4) + " .. " +
                        format_quantity(s.high.value, s.unit, 4),
                    s.low.status == Status::converged ? s.low.outputs[k] : NAN,
                    s.high.status == Status::converged ? s.high.outputs[k] : NAN});
  }
  plots::TornadoText text;
  text.output = output_axis(k, report.unit);
  text.base = report.base[k];
  const std::string percent = format_quantity(100 * options.tornado_fraction, Unit::number) + "%";
  text.title = "Tornado: " + text.output.name + " of the optimum with each input -" + percent +
               " and +" + percent + " (" + file_name(scenario) + ")";
  text.assumptions = std::string(to_string(report.kind)) + ", re-solved at each side; base " +
                     text.output.name + " = " + text.output.format(text.base) +
                     "; ranked by swing; inputs without effect left out" +
                     (law_bars ? "; the law's coefficients (law.*) ranked below the inputs" : "");
  return plots::tornado_figure(bars, text);
}

plots::Figure uncertainty_of(const Scenario& scenario, const MonteCarloReport& report,
                             const MonteCarloOptions& options) {
  if (!options.keep_outputs) throw InputError("uncertainty: the samples' outputs were not kept");
  const CostUnit unit = scenario_setup(scenario).unit;  // of cost_total
  std::vector<plots::UncertaintyPanel> panels;
  for (std::size_t j = 0; j < kElasticityOutputs.size() && panels.size() < 4; ++j) {
    std::vector<double> samples;
    for (const OutputValues& values : report.outputs) samples.push_back(values[j]);
    if (samples.empty()) break;
    const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
    if (!(*high > *low * (1 + 1e-9))) continue;  // does not vary (a loss target)
    const Quantiles& q = report.quantiles[j];
    panels.push_back({output_axis(j, unit), std::move(samples), q.p05, q.p50, q.p95});
  }
  if (panels.empty()) {
    throw InputError(scenario.file + ": uncertainty: no converged sample (" +
                     std::to_string(report.infeasible) + " infeasible, " +
                     std::to_string(report.invalid) + " invalid draws)");
  }
  plots::UncertaintyText text;
  text.title = "Monte Carlo: " + std::to_string(report.converged) + " of " +
               std::to_string(report.samples) + " samples converged (" + file_name(scenario) +
               ", seed " + std::to_string(options.seed) + "); 5%, 50% and 95% marked";
  for (const UncertainInput& input : scenario.uncertainty.inputs) {
    text.assumptions += (text.assumptions.empty() ? "" : "; ") + input.path + " ~ " +
                        distribution_text(scenario, input);
  }
  if (scenario.uncertainty.law_bootstrap) {
    text.assumptions += (text.assumptions.empty() ? "" : "; ") +
                        std::string("law coefficients from their uncertainty");
  }
  return plots::uncertainty_figure(panels, text);
}

}  // namespace scaleopt::report
