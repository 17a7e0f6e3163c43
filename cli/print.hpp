#pragma once
// What the commands print for people: the text report/ builds for an answer, written to the
// command's output. (JSON is built by report/ too; the commands dump it.)

#include <ostream>
#include <string>
#include <vector>

#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/analysis/stress_check.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/compute_optimal/allocation.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/report/fit_output.hpp"
#include "scaleopt/report/stress_output.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {

// `optimal` and `loss`: report::allocation_text.
void print_allocation(std::ostream& out, const std::string& title, const Allocation& allocation,
                      const AllocationRule& rule);

// `cost`: report::cost_text.
void print_cost(std::ostream& out, const Scenario& scenario, const PhaseCosts& cost);

// `solve`: report::solution_text.
void print_solution(std::ostream& out, const Scenario& scenario, const LossLaw& law,
                    const QuestionSolution& solution);

// `fit`: report::fit_text.
void print_fit(std::ostream& out, const report::FitReport& fit);

// `sensitivity`: report::sensitivity_text.
void print_sensitivity(std::ostream& out, const Scenario& scenario,
                       const SensitivityReport& sensitivity,
                       const SensitivityAnalysisOptions& options);

// `uncertainty`: report::uncertainty_text.
void print_uncertainty(std::ostream& out, const Scenario& scenario,
                       const MonteCarloReport& monte_carlo, const MonteCarloOptions& options,
                       const std::string& samples_file);

// `selftest`: report::stress_text.
void print_stress(std::ostream& out, const StressSummary& summary, const StressRunOptions& options,
                  const report::StressTiming& timing);

// The `pricing` commands: report::assumptions_text.
void print_assumptions(std::ostream& out, const std::vector<std::string>& assumptions);

}  // namespace scaleopt::cli
