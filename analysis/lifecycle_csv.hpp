#pragma once
// A lifecycle answer as CSV cells (sweeps, Monte Carlo samples): the columns are the JSON keys of
// `scaleopt solve` flattened with dots ("cost.total.usd", "vs_chinchilla.params"; equal-cost adds
// "optimum.*" and "heuristic_overpay"), without the text that is the same on every row (problem,
// unit, law, rule, scenario, assumptions) and without `message`. Numbers are printed with the
// shortest text that reads back as the same double (std::to_chars), so files written by
// different shards or threads agree byte for byte; a number that does not exist (an infeasible
// plan, a FLOPs problem's dollars) is an empty cell.

#include <cmath>
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

// The name of the algorithm that found an answer, as the "algorithm" column prints it.
std::string_view algorithm_name(SolvePath path, std::string_view nlopt_algorithm);

// The cells of one answer in the order of summary_columns: `number(double)` for each numeric
// cell (NaN where the number does not exist), `status(Status)` and `algorithm(SolvePath)` for
// the two text cells. The CSV writes them as text; the Python module into arrays, so both see
// the same columns in the same order.
template <class Number, class StatusCell, class AlgorithmCell>
void visit_answer_cells(const AnswerSummary& a, bool priced, Number&& number, StatusCell&& status,
                        AlgorithmCell&& algorithm) {
  for (double v :
       {a.params, a.active_params, a.pretrain_tokens, a.rl_tokens, a.inference_tokens, a.loss}) {
    number(v);
  }
  const PhaseCost total = a.cost.total();
  const bool known = a.status != Status::infeasible && std::isfinite(a.loss);
  for (const PhaseCost* phase : {&a.cost.pretrain, &a.cost.rl, &a.cost.inference, &total}) {
    number(known ? phase->flops : NAN);
    number(known ? phase->gpu_hours : NAN);
    number(known && priced ? phase->usd : NAN);
  }
  for (double v :
       {a.shares.pretrain, a.shares.rl, a.shares.inference, a.chinchilla_tokens, a.over_chinchilla,
        a.vs_params, a.vs_tokens, a.vs_cost, a.chinchilla_params, a.chinchilla_pretrain_tokens}) {
    number(v);
  }
  status(a.status);
  algorithm(a.path);
  for (double v : {a.kkt_residual, a.constraint_violation, a.reference_relative_difference}) {
    number(v);
  }
}

// The cells of summary_columns(summary.kind), as visit_answer_cells (equal-cost: the heuristic,
// then the optimum, then heuristic_overpay).
template <class Number, class StatusCell, class AlgorithmCell>
void visit_summary_cells(const QuestionSummary& s, Number&& number, StatusCell&& status,
                         AlgorithmCell&& algorithm) {
  const bool priced = is_priced(s.kind);
  visit_answer_cells(s.answer, priced, number, status, algorithm);
  if (s.kind == ProblemKind::equal_cost) {
    visit_answer_cells(s.optimum, priced, number, status, algorithm);
    number(s.heuristic_overpay);
  }
}

// Shortest round-trip text of `value`; nothing for NaN or an infinity.
void append_number(std::string& out, double value);

// The decimal digits of `value`.
void append_integer(std::string& out, std::size_t value);

// A CSV cell: quoted when it holds a comma, a quote or a line break.
void append_text_cell(std::string& out, std::string_view text);

}  // namespace scaleopt
