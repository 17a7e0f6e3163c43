#pragma once
// How a sensitivity report is shown: an elasticity table and a tornado table, or JSON.

#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/sensitivity_analysis.hpp"

namespace scaleopt::cli {

// Keys: problem, unit, scenario, outputs (names), base {output: value}, heuristic_base,
// tornado_fraction, rank_by, elasticities [{input, value, status, stencil, message,
// <output>...}], heuristic_elasticities (equal-cost), tornado [{input, value, low_value,
// high_value, low {output...}, high {output...}, low_status, high_status, swing}].
nlohmann::ordered_json sensitivity_json(const Scenario& scenario, const SensitivityReport& report,
                                        const SensitivityAnalysisOptions& options);

void print_sensitivity(std::ostream& out, const Scenario& scenario, const SensitivityReport& report,
                       const SensitivityAnalysisOptions& options);

}  // namespace scaleopt::cli
