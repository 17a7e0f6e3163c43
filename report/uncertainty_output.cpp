#include "scaleopt/report/uncertainty_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt::report {
namespace {

Json quantiles_json(const OutputQuantiles& q) {
  Json json = Json::object();
  for (std::size_t j = 0; j < q.size(); ++j) {
    json[std::string(kElasticityOutputs[j])] = Json{{"p05", finite_or_null(q[j].p05)},
                                                    {"p50", finite_or_null(q[j].p50)},
                                                    {"p95", finite_or_null(q[j].p95)},
                                                    {"mean", finite_or_null(q[j].mean)}};
  }
  return json;
}

double share(std::size_t count, std::size_t total) {
  return static_cast<double>(count) / static_cast<double>(total);
}

std::string percent(std::size_t count, std::size_t total) {
  return format_quantity(100 * share(count, total), Unit::number, 3) + "%";
}

// What the run assumes: each distribution of [uncertainty] (chosen by the scenario, not
// measured: the quantiles hold only as far as it does), then the defaults the scenario did not
// set.
std::vector<std::string> run_assumptions(const Scenario& scenario) {
  std::vector<std::string> lines;
  for (const UncertainInput& input : scenario.uncertainty.inputs) {
    lines.push_back(input.path + " ~ " + distribution_text(scenario, input) +
                    ": an assumption of the scenario's [uncertainty] table, not a measurement");
  }
  lines.insert(lines.end(), scenario.assumptions.begin(), scenario.assumptions.end());
  return lines;
}

}  // namespace

std::string distribution_text(const Scenario& scenario, const UncertainInput& input) {
  const Unit unit = NumericInputSetter(scenario, input.path).unit();
  const InputDistribution& d = input.distribution;
  const auto [first, second] = InputDistribution::parameter_names(d.kind);
  const Unit second_unit = d.kind == DistributionKind::lognormal ? Unit::number : unit;
  return std::string(to_string(d.kind)) + "(" + std::string(first) + " " +
         format_quantity(d.first, unit, 4) + ", " + std::string(second) + " " +
         format_quantity(d.second, second_unit, 4) + ")";
}

Table quantiles_table(const std::string& title, const OutputQuantiles& q) {
  Table table(title);
  table.header({"output", "5%", "50%", "95%", "mean"});
  // NaN without converged samples: a dash, never "nan" printed as a quantile.
  auto cell = [](double v) { return std::isfinite(v) ? format_scientific(v, 4) : "-"; };
  for (std::size_t j = 0; j < q.size(); ++j) {
    table.cells({std::string(kElasticityOutputs[j]), cell(q[j].p05), cell(q[j].p50), cell(q[j].p95),
                 cell(q[j].mean)});
  }
  return table;
}

std::string no_converged_sample_message(const MonteCarloReport& report) {
  return "none of the " + std::to_string(report.samples) + " samples converged (" +
         std::to_string(report.infeasible) + " infeasible, " + std::to_string(report.invalid) +
         " invalid, " + std::to_string(report.not_converged) +
         " not converged): there are no quantiles";
}

Json uncertainty_json(const Scenario& scenario, const MonteCarloReport& report,
                      const MonteCarloOptions& options, const std::string& samples_file) {
  const std::size_t n = report.samples;
  Json json{{"status", report.converged > 0 ? "converged" : "not_converged"},
            {"message", report.converged > 0 ? "" : no_converged_sample_message(report)},
            {"scenario", scenario.file},
            {"problem", std::string(to_string(scenario.problem.kind))},
            {"samples", n},
            {"seed", options.seed},
            {"converged", report.converged},
            {"infeasible", report.infeasible},
            {"not_converged", report.not_converged},
            {"invalid", report.invalid},
            {"infeasible_share", share(report.infeasible, n)},
            {"invalid_share", share(report.invalid, n)},
            {"not_converged_share", share(report.not_converged, n)},
            {"fast_path", report.fast_path}};
  json["inputs"] = Json::array();
  for (const UncertainInput& input : scenario.uncertainty.inputs) {
    const auto [first, second] = InputDistribution::parameter_names(input.distribution.kind);
    json["inputs"].push_back(Json{{"path", input.path},
                                  {"dist", std::string(to_string(input.distribution.kind))},
                                  {std::string(first), input.distribution.first},
                                  {std::string(second), input.distribution.second}});
  }
  json["law"] = scenario.uncertainty.law_bootstrap ? Json("bootstrap") : Json(nullptr);
  json["assumptions"] = run_assumptions(scenario);
  json["quantiles"] = quantiles_json(report.quantiles);
  if (report.heuristic) json["heuristic_quantiles"] = quantiles_json(*report.heuristic);
  if (!samples_file.empty()) json["samples_file"] = samples_file;
  return json_document(json);
}

std::string uncertainty_text(const Scenario& scenario, const MonteCarloReport& report,
                             const MonteCarloOptions& options, const std::string& samples_file) {
  std::ostringstream out;
  const std::size_t n = report.samples;
  if (report.converged == 0)
    out << "STATUS: not_converged: " << no_converged_sample_message(report) << "\n";
  out << "Monte Carlo over " << scenario.file << ": " << n << " samples, seed " << options.seed
      << "\n";
  for (const UncertainInput& input : scenario.uncertainty.inputs) {
    out << "  " << input.path << " ~ " << distribution_text(scenario, input) << "\n";
  }
  if (scenario.uncertainty.law_bootstrap) {
    out << "  law coefficients ~ normal around " << scenario.law->name << " with "
        << (scenario.law->uncertainty && scenario.law->uncertainty->covariance
                ? "the covariance of [law.uncertainty]"
                : "independent standard errors (no covariance known: wider than a joint draw)")
        << "\n";
  }
  out << "  " << report.converged << " converged (" << percent(report.converged, n) << "), "
      << report.infeasible << " infeasible (" << percent(report.infeasible, n) << "), "
      << report.invalid << " invalid draws (" << percent(report.invalid, n) << "), "
      << report.not_converged << " not converged (" << percent(report.not_converged, n) << "); "
      << report.fast_path << " by the 1-D Newton fast path\n";
  const auto finish = [&] {
    if (!samples_file.empty()) out << "  every sample: " << samples_file << "\n";
    out << "Assumptions (the distributions drawn from, and defaults the scenario did not set):\n";
    for (const std::string& line : run_assumptions(scenario)) out << "  " << line << "\n";
    return out.str();
  };
  if (report.converged == 0) return finish();
  const bool equal_cost = report.heuristic.has_value();
  quantiles_table(std::string("Quantiles over the converged samples") +
                      (equal_cost ? ", true optimum at the heuristic's loss" : "") + " (cost in " +
                      std::string(to_string(scenario.problem.kind == ProblemKind::min_lifetime_flops
                                                ? CostUnit::flops
                                                : CostUnit::usd)) +
                      ")",
                  report.quantiles)
      .print(out);
  if (equal_cost) quantiles_table("The equal-cost heuristic's plan", *report.heuristic).print(out);
  return finish();
}

}  // namespace scaleopt::report
