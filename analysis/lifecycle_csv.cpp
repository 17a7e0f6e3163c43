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
  void comma_number(double value) {
    data_[size_++] = ',';
    number(value);
  }
  void comma_text(std::string_view text) {
    data_[size_++] = ',';
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
  cells.number(a.params);
  for (double v : {a.active_params, a.pretrain_tokens, a.rl_tokens, a.inference_tokens, a.loss}) {
    cells.comma_number(v);
  }
  const PhaseCost total = a.cost.total();
  for (const PhaseCost* phase : {&a.cost.pretrain, &a.cost.rl, &a.cost.inference, &total}) {
    const bool known = a.status != Status::infeasible && std::isfinite(a.loss);
    cells.comma_number(known ? phase->flops : NAN);
    cells.comma_number(known ? phase->gpu_hours : NAN);
    cells.comma_number(known && priced ? phase->usd : NAN);
  }
  for (double v :
       {a.shares.pretrain, a.shares.rl, a.shares.inference, a.chinchilla_tokens, a.over_chinchilla,
        a.vs_params, a.vs_tokens, a.vs_cost, a.chinchilla_params, a.chinchilla_pretrain_tokens}) {
    cells.comma_number(v);
  }
  cells.comma_text(to_string(a.status));
  cells.comma_text(algorithm_name(a.path, nlopt_algorithm));
  for (double v : {a.kkt_residual, a.constraint_violation, a.reference_relative_difference}) {
    cells.comma_number(v);
  }
  cells.append_to(out);
}

}  // namespace

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
  const bool priced = is_priced(s.kind);
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
