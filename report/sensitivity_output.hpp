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
// high_value, low {output...}, high {output...}, low_status, high_status, group ("inputs", or
// "law" for the law's coefficients), whole_number, swing}]: the inputs, then the law's.
Json sensitivity_json(const Scenario& scenario, const SensitivityReport& report,
                      const SensitivityAnalysisOptions& options);

std::string sensitivity_text(const Scenario& scenario, const SensitivityReport& report,
                             const SensitivityAnalysisOptions& options);

// The tables sensitivity_text shows, for other renderings (the HTML report). `notes` gets
// the reasons of the cells shown as n/a, the inputs left out (no answer, no effect) and those
// that are whole numbers. The tornado is two tables: the scenario's inputs, and with
// `law_group` the law's coefficients (law.*), ranked apart: a fit's uncertainty is not a
// choice of the plan, and its exponents would dominate an economic question.
Table elasticity_table(const std::string& title, const SensitivityReport& report, bool heuristic,
                       std::vector<std::string>& notes);
Table tornado_table(const SensitivityReport& report, const SensitivityAnalysisOptions& options,
                    std::vector<std::string>& notes, bool law_group = false);

// Whether `table` has a row beyond its header.
bool has_rows(const Table& table);

// An input that reaches none of the problem's functions (e.g. a chip field the scenario's
// pricing does not use): its elasticities are exactly 0.
bool no_effect(const InputSensitivity& sensitivity);

}  // namespace scaleopt::report
