#include "scaleopt/analysis/lifecycle_csv.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

namespace scaleopt {
namespace {

constexpr std::array<std::string_view, 4> kPhases = {"pretrain", "rl", "inference", "total"};
constexpr std::array<std::string_view, 3> kCostFields = {"flops", "gpu_hours", "usd"};

void answer_columns(std::vector<std::string>& columns, const std::string& prefix) {
  for (const char* key :
       {"params", "active_params", "pretrain_tokens", "rl_tokens", "inference_tokens", "loss"}) {
    columns.push_back(prefix + key);
  }
  for (std::string_view phase : kPhases) {
    for (std::string_view field : kCostFields) {
      columns.push_back(prefix + "cost." + std::string(phase) + "." + std::string(field));
    }
  }
  for (const char* share : {"pretrain", "rl", "inference"}) {
    columns.push_back(prefix + "cost_shares." + share);
  }
  for (const char* key :
       {"chinchilla_tokens", "over_chinchilla", "vs_chinchilla.params", "vs_chinchilla.tokens",
        "vs_chinchilla.cost", "vs_chinchilla.chinchilla_params",
        "vs_chinchilla.chinchilla_pretrain_tokens", "status", "algorithm", "kkt_residual",
        "constraint_violation", "reference_relative_difference"}) {
    columns.push_back(prefix + key);
  }
}

// The cells of one answer, formatted into a buffer on the stack and appended to the row at
// once: one copy an answer instead of one per cell, which was a tenth of a 10^6-point sweep.
// An answer has 33 cells of at most 24 characters and two short texts: under 1 KB.
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

void append_answer(std::string& out, const AnswerSummary& a, bool priced,
                   std::string_view nlopt_algorithm, bool first) {
  if (!first) out += ',';
  AnswerCells cells;
  bool leading = true;  // the first cell has no comma before it
  const auto comma = [&] {
    if (!leading) cells.comma();
    leading = false;
  };
  visit_answer_cells(
      a, priced,
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

std::string_view algorithm_name(SolvePath path, std::string_view nlopt_algorithm) {
  switch (path) {
    case SolvePath::closed_form:
      return "closed form (equal-cost heuristic)";  // as plan.solve.algorithm in `solve`
    case SolvePath::newton:
      return "1-D Newton (Boost.Math)";
    case SolvePath::nlopt:
      return nlopt_algorithm;
  }
  return nlopt_algorithm;
}

std::vector<std::string> summary_columns(ProblemKind kind) {
  std::vector<std::string> columns;
  answer_columns(columns, "");
  if (kind == ProblemKind::equal_cost) {
    answer_columns(columns, "optimum.");
    columns.push_back("heuristic_overpay");
  }
  return columns;
}

void append_summary_cells(std::string& out, const QuestionSummary& s,
                          std::string_view nlopt_algorithm) {
  const bool priced = is_priced(s.kind);  // as visit_summary_cells
  append_answer(out, s.answer, priced, nlopt_algorithm, true);
  if (s.kind == ProblemKind::equal_cost) {
    append_answer(out, s.optimum, priced, nlopt_algorithm, false);
    out += ',';
    append_number(out, s.heuristic_overpay);
  }
}

void append_unsolved_cells(std::string& out, ProblemKind kind, Status status) {
  const std::vector<std::string> columns = summary_columns(kind);
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
