#pragma once
// A sweep's rows as JSON objects (`POST /api/sweep` of `scaleopt serve`, docs/serve.md), keyed
// like the columns of the sweep's CSV (analysis/sweep_csv_writer.hpp): "point", "points", the
// varied inputs' paths, then the answer's columns (analysis/lifecycle_csv.hpp). A number is the
// same double the CSV's shortest text reads back as; where the CSV's cell is empty (no number,
// or no algorithm for a point whose inputs break a rule) the value is null; the status and
// algorithm columns are the CSV's text.

#include <span>
#include <string>
#include <string_view>

#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/problems/question/answer_fields.hpp"
#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// One object per point, in the order given. `nlopt_algorithm` names the algorithm of answers
// found by NLopt, as the CSV writer's does. `only`: the answer columns to give (each one of
// summary_columns(layout)), in the CSV's order; empty, all of them. "point", "points" and the
// varied inputs are always given.
Json sweep_rows_json(const SweepGrid& grid, const AnswerLayout& layout,
                     std::span<const SweepPoint> points, std::string_view nlopt_algorithm,
                     std::span<const std::string> only = {});

}  // namespace scaleopt::report
