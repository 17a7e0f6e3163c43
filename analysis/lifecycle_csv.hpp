#pragma once
// A lifecycle answer as CSV cells (sweeps, Monte Carlo samples): the columns are the JSON keys of
// `scaleopt solve` flattened with dots ("cost.total.usd", "vs_chinchilla.params"; equal-cost adds
// "optimum.*" and "heuristic_overpay"), without the text that is the same on every row (problem,
// unit, law, rule, scenario, assumptions) and without `message`. Numbers are printed with the
// shortest text that reads back as the same double (std::to_chars), so files written by
// different shards or threads agree byte for byte; a number that does not exist (an infeasible
// plan, a FLOPs problem's dollars) is an empty cell.

#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {

std::vector<std::string> summary_columns(ProblemKind kind);

// Appends the cells of summary_columns(summary.kind), comma-separated, without a leading comma
// or a newline. `nlopt_algorithm` names the NLopt algorithm of answers found on that path.
void append_summary_cells(std::string& out, const QuestionSummary& summary,
                          std::string_view nlopt_algorithm);

// The cells of an answer that could not be computed (inputs breaking a rule): every number
// empty, the status given.
void append_unsolved_cells(std::string& out, ProblemKind kind, Status status);

// Shortest round-trip text of `value`; nothing for NaN or an infinity.
void append_number(std::string& out, double value);

// The decimal digits of `value`.
void append_integer(std::string& out, std::size_t value);

// A CSV cell: quoted when it holds a comma, a quote or a line break.
void append_text_cell(std::string& out, std::string_view text);

}  // namespace scaleopt
