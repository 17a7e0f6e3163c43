#include "scaleopt/analysis/sweep_csv_writer.hpp"

#include <utility>
#include <vector>

#include "scaleopt/analysis/lifecycle_csv.hpp"

namespace scaleopt {

SweepCsvWriter::SweepCsvWriter(const SweepGrid& grid, AnswerLayout layout,
                               std::string nlopt_algorithm)
    : grid_(grid), layout_(layout), nlopt_algorithm_(std::move(nlopt_algorithm)) {}

std::string SweepCsvWriter::header() const {
  std::string header = "point,points";
  for (const SweepAxis& axis : grid_.axes()) {
    header += ',';
    append_text_cell(header, axis.input.path());
  }
  for (const std::string& column : summary_columns(layout_)) header += "," + column;
  return header;
}

std::string SweepCsvWriter::values_text(std::size_t point) const {
  std::vector<double> values(grid_.axes().size());
  grid_.values_at(point, values);
  std::string text;
  for (double v : values) {
    text += ',';
    append_number(text, v);
  }
  return text;
}

std::string SweepCsvWriter::rows(std::span<const SweepPoint> points) const {
  std::string text;
  append_rows(text, points);
  return text;
}

void SweepCsvWriter::append_rows(std::string& text, std::span<const SweepPoint> points) const {
  const std::size_t start = text.size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    append_integer(text, p.point);
    text += ',';
    append_integer(text, grid_.size());
    for (double v : p.values) {
      text += ',';
      append_number(text, v);
    }
    text += ',';
    if (p.invalid_input) {
      append_unsolved_cells(text, layout_, Status::invalid_input);
    } else {
      append_summary_cells(text, p.summary, layout_, nlopt_algorithm_);
    }
    text += '\n';
    if (i == 0) text.reserve(start + (text.size() - start) * points.size() * 9 / 8);
  }
}

}  // namespace scaleopt
