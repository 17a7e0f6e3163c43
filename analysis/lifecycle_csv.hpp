#pragma once
// A lifecycle answer as CSV cells (sweeps, Monte Carlo samples): the columns are the fields of
// problems/question/answer_fields.hpp that a CSV holds (every field but the problem kind and the
// message, which are the same on every row or free text), with dots ("cost.total.usd",
// "vs_chinchilla.params"); equal-cost adds "optimum.*" and heuristic_overpay. Numbers are printed
// with the shortest text that reads back as the same double (std::to_chars), so files written by
// different shards or threads agree byte for byte; a number that does not exist (an infeasible
// plan, a FLOPs problem's dollars) is an empty cell.

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/problems/question/answer_fields.hpp"
#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {

std::vector<std::string> summary_columns(const AnswerLayout& layout);
// The kind of each of those columns (number, status or algorithm), for typed readers.
std::vector<AnswerFieldKind> summary_column_kinds(const AnswerLayout& layout);

// Appends the cells of summary_columns(layout), comma-separated, without a leading comma or a
// newline: the layout is the file's (its header's), so every row has its columns.
// `nlopt_algorithm` names the NLopt algorithm of answers found on that path.
void append_summary_cells(std::string& out, const QuestionSummary& summary,
                          const AnswerLayout& layout, std::string_view nlopt_algorithm);

// The cells of an answer that could not be computed (inputs breaking a rule): every number
// empty, the status given.
void append_unsolved_cells(std::string& out, const AnswerLayout& layout, Status status);

// The cells of one answer in the order of summary_columns: `number(double)` for each numeric
// cell (NaN where the number does not exist), `status(Status)` and `algorithm(SolvePath)` for
// the two text cells. The CSV writes them as text; the Python module into arrays, so both see
// the same columns in the same order.
template <class Number, class StatusCell, class AlgorithmCell>
void visit_answer_cells(const AnswerSummary& a, const AnswerLayout& layout, Number&& number,
                        StatusCell&& status, AlgorithmCell&& algorithm) {
  for (const AnswerField* field : csv_fields(layout)) {
    switch (field->kind) {
      case AnswerFieldKind::number:
        number(field->number(a, layout));
        break;
      case AnswerFieldKind::status:
        status(a.status);
        break;
      case AnswerFieldKind::algorithm:
        algorithm(a.path);
        break;
      case AnswerFieldKind::problem:
      case AnswerFieldKind::message:
      case AnswerFieldKind::fleet_text:
        break;
    }
  }
}

// The cells of summary_columns(layout), as visit_answer_cells (equal-cost: the heuristic, then
// the optimum, then the solution's fields).
template <class Number, class StatusCell, class AlgorithmCell>
void visit_summary_cells(const QuestionSummary& s, const AnswerLayout& layout, Number&& number,
                         StatusCell&& status, AlgorithmCell&& algorithm) {
  visit_answer_cells(s.answer, layout, number, status, algorithm);
  if (layout.has_optimum()) {
    visit_answer_cells(s.optimum, layout, number, status, algorithm);
    for (const SolutionField& field : solution_fields()) number(field.number(s));
  }
}

// Shortest round-trip text of `value`; nothing for NaN or an infinity.
void append_number(std::string& out, double value);

// The decimal digits of `value`.
void append_integer(std::string& out, std::size_t value);

// A CSV cell: quoted when it holds a comma, a quote or a line break.
void append_text_cell(std::string& out, std::string_view text);

}  // namespace scaleopt
