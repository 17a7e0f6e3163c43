#include "scaleopt/report/sweep_rows_json.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"

namespace scaleopt::report {

Json sweep_rows_json(const SweepGrid& grid, const AnswerLayout& layout,
                     std::span<const SweepPoint> points, std::string_view nlopt_algorithm,
                     std::span<const std::string> only) {
  // The column names once: the CSV's own (summary_columns), so the keys cannot drift from it.
  const std::vector<std::string> columns = summary_columns(layout);
  const std::vector<AnswerFieldKind> kinds = summary_column_kinds(layout);
  // Which of them to give: a page that draws five columns need not parse ninety.
  std::vector<char> keep(columns.size(), only.empty() ? 1 : 0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    keep[c] = keep[c] || std::find(only.begin(), only.end(), columns[c]) != only.end();
  }
  Json rows = Json::array();
  for (const SweepPoint& p : points) {
    Json row = Json::object();
    row["point"] = p.point;
    row["points"] = grid.size();
    for (std::size_t a = 0; a < grid.axes().size() && a < p.values.size(); ++a) {
      row[grid.axes()[a].input.path()] = finite_or_null(p.values[a]);
    }
    if (p.invalid_input) {
      // As append_unsolved_cells: the status columns say why, every other cell is empty.
      for (std::size_t c = 0; c < columns.size(); ++c) {
        if (!keep[c]) continue;
        row[columns[c]] = kinds[c] == AnswerFieldKind::status
                              ? Json(std::string(to_string(Status::invalid_input)))
                              : Json(nullptr);
      }
    } else {
      std::size_t c = 0;
      visit_summary_cells(
          p.summary, layout,
          [&](double v) {
            if (keep[c]) row[columns[c]] = finite_or_null(v);
            ++c;
          },
          [&](Status status) {
            if (keep[c]) row[columns[c]] = std::string(to_string(status));
            ++c;
          },
          [&](SolvePath path) {
            if (keep[c]) row[columns[c]] = std::string(algorithm_name(path, nlopt_algorithm));
            ++c;
          });
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace scaleopt::report
