#include "scaleopt/cli/print.hpp"

#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/cost_output.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/report/pricing_output.hpp"
#include "scaleopt/report/sensitivity_output.hpp"
#include "scaleopt/report/uncertainty_output.hpp"

namespace scaleopt::cli {

void print_allocation(std::ostream& out, const std::string& title, const Allocation& allocation,
                      const AllocationRule& rule) {
  out << report::allocation_text(title, allocation, rule);
}

void print_cost(std::ostream& out, const Scenario& scenario, const PhaseCosts& cost) {
  out << report::cost_text(scenario, cost);
}

void print_solution(std::ostream& out, const Scenario& scenario, const LossLaw& law,
                    const QuestionSolution& solution) {
  out << report::solution_text(scenario, law, solution);
}

void print_fit(std::ostream& out, const report::FitReport& fit) {
  out << report::fit_text(fit);
}

void print_sensitivity(std::ostream& out, const Scenario& scenario,
                       const SensitivityReport& sensitivity,
                       const SensitivityAnalysisOptions& options) {
  out << report::sensitivity_text(scenario, sensitivity, options);
}

void print_uncertainty(std::ostream& out, const Scenario& scenario,
                       const MonteCarloReport& monte_carlo, const MonteCarloOptions& options,
                       const std::string& samples_file) {
  out << report::uncertainty_text(scenario, monte_carlo, options, samples_file);
}

void print_stress(std::ostream& out, const StressSummary& summary, const StressRunOptions& options,
                  const report::StressTiming& timing) {
  out << report::stress_text(summary, options, timing);
}

void print_assumptions(std::ostream& out, const std::vector<std::string>& assumptions) {
  out << report::assumptions_text(assumptions);
}

}  // namespace scaleopt::cli
