#pragma once
// How a sensitivity report is shown: an elasticity table and a tornado table, or JSON.

#include <ostream>
#include <string>
#include <vector>
#include "scaleopt/report/json_fwd.hpp"

#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {

// Keys: problem, unit, scenario, outputs (names), base {output: value}, heuristic_base,
// tornado_fraction, rank_by, elasticities [{input, value, status, stencil, message,
// <output>...}], heuristic_elasticities (equal-cost), tornado [{input, value, low_value,
// high_value, low {output...}, high {output...}, low_status, high_status, swing}].
Json sensitivity_json(const Scenario& scenario, const SensitivityReport& report,
                      const SensitivityAnalysisOptions& options);

std::string sensitivity_text(const Scenario& scenario, const SensitivityReport& report,
                             const SensitivityAnalysisOptions& options);

// The tables sensitivity_text shows, for other renderings (the HTML report). `notes` gets
// the reasons of the cells shown as n/a and the inputs without effect.
Table elasticity_table(const std::string& title, const SensitivityReport& report, bool heuristic,
                       std::vector<std::string>& notes);
Table tornado_table(const SensitivityReport& report, const SensitivityAnalysisOptions& options,
                    std::vector<std::string>& notes);

// An input that reaches none of the problem's functions (e.g. a chip field the scenario's
// pricing does not use): its elasticities are exactly 0.
bool no_effect(const InputSensitivity& sensitivity);

}  // namespace scaleopt::report
