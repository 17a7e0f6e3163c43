#include "scaleopt/analysis/lifecycle_csv.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

namespace scaleopt {
namespace {

void answer_columns(std::vector<std::string>& columns, const AnswerLayout& layout,
                    const std::string& prefix) {
  for (const AnswerField& field : answer_fields()) {
    if (field.in_csv() && layout.has(field.presence)) {
      columns.push_back(prefix + std::string(field.key));
    }
  }
}

// The cells of one answer, formatted into a buffer on the stack and appended to the row at
// once: one copy an answer instead of one per cell, which was a tenth of a 10^6-point sweep.
// An answer has ~35 cells of at most 24 characters and two short texts: under 1 KB.
class AnswerCells {
 public:
  void number(double value) {
    // A number that does not exist (NaN), or one that overflowed, is an empty cell: a row never
    // prints inf or nan as a value.
    if (!std::isfinite(value)) return;
    size_ =
        static_cast<std::size_t>(std::to_chars(data_ + size_, data_ + kSize, value).ptr - data_);
  }
  void comma() { data_[size_++] = ','; }
  void text(std::string_view text) {
    std::memcpy(data_ + size_, text.data(), text.size());
    size_ += text.size();
  }
  void append_to(std::string& out) const { out.append(data_, size_); }

 private:
  static constexpr std::size_t kSize = 2048;
  char data_[kSize];
  std::size_t size_ = 0;
};

void append_answer(std::string& out, const AnswerSummary& a, const AnswerLayout& layout,
                   std::string_view nlopt_algorithm, bool first) {
  if (!first) out += ',';
  AnswerCells cells;
  bool leading = true;  // the first cell has no comma before it
  const auto comma = [&] {
    if (!leading) cells.comma();
    leading = false;
  };
  visit_answer_cells(
      a, layout,
      [&](double v) {
        comma();
        cells.number(v);
      },
      [&](Status status) {
        comma();
        cells.text(to_string(status));
      },
      [&](SolvePath path) {
        comma();
        cells.text(algorithm_name(path, nlopt_algorithm));
      });
  cells.append_to(out);
}

}  // namespace

std::vector<std::string> summary_columns(const AnswerLayout& layout) {
  std::vector<std::string> columns;
  answer_columns(columns, layout, "");
  if (layout.has_optimum()) {
    answer_columns(columns, layout, "optimum.");
    for (const SolutionField& field : solution_fields()) columns.emplace_back(field.key);
  }
  return columns;
}

std::vector<AnswerFieldKind> summary_column_kinds(const AnswerLayout& layout) {
  std::vector<AnswerFieldKind> kinds;
  for (int answer = 0; answer < (layout.has_optimum() ? 2 : 1); ++answer) {
    for (const AnswerField& field : answer_fields()) {
      if (field.in_csv() && layout.has(field.presence)) kinds.push_back(field.kind);
    }
  }
  if (layout.has_optimum())
    kinds.insert(kinds.end(), solution_fields().size(), AnswerFieldKind::number);
  return kinds;
}

void append_summary_cells(std::string& out, const QuestionSummary& s, const AnswerLayout& layout,
                          std::string_view nlopt_algorithm) {
  append_answer(out, s.answer, layout, nlopt_algorithm, true);
  if (layout.has_optimum()) {
    append_answer(out, s.optimum, layout, nlopt_algorithm, false);
    for (const SolutionField& field : solution_fields()) {
      out += ',';
      append_number(out, field.number(s));
    }
  }
}

void append_unsolved_cells(std::string& out, const AnswerLayout& layout, Status status) {
  const std::vector<std::string> columns = summary_columns(layout);
  bool first = true;
  for (const std::string& column : columns) {
    if (!first) out += ',';
    first = false;
    if (column == "status" || column == "optimum.status") out += to_string(status);
  }
}

void append_number(std::string& out, double value) {
  if (!std::isfinite(value)) return;  // as AnswerCells::number
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_integer(std::string& out, std::size_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_text_cell(std::string& out, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace scaleopt
