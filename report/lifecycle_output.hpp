#pragma once
// How a lifecycle solution is shown: one screen that tells the story (demand, tokens,
// over-Chinchilla factor, costs by phase, the heuristic beside its optimum), or JSON.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/report/json_fwd.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

// Keys (each answer): problem, params, active_params, pretrain_tokens, rl_tokens,
// inference_tokens, loss, cost {pretrain, rl, inference, total: {flops, gpu_hours, usd}},
// cost_shares, chinchilla_tokens, over_chinchilla, vs_chinchilla {params, tokens, cost},
// status, message, kkt_residual, constraint_violation, reference_relative_difference; for
// equal-cost `optimum` holds the same keys for the true optimum and `heuristic_overpay` the
// heuristic's excess cost. Also unit, law, rule, scenario, assumptions.
// With [rl.returns] each answer also has rl_returns {gain, compute_ratio}. When the scenario
// names an architecture and prices inference (by the roofline, or by fixed MFUs with
// inference.hardware named): decode_mfu_implied, the decode efficiency the roofline gives at the
// plan's N (problems/serving/implied_mfu.hpp); and `warnings` when there are any: the
// scenario's (keys its problem ignores), then a typed decode MFU more than 2x from the implied
// one either way (DecodeConsistency's warnings, then its notes).
Json solution_json(const Scenario& scenario, const LossLaw& law, const QuestionSolution& solution);

// The roofline's decode efficiency at the plan's N, and what a typed decode MFU more than 2x
// from it raises: a warning when it is above (faster than the chips can decode), a note when
// below (an assumption of the scenario, as the talk's third of the training MFU; the text says
// what each number assumes).
struct DecodeConsistency {
  std::optional<double> decode_mfu_implied;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};
DecodeConsistency decode_consistency(const Scenario& scenario, const QuestionSolution& solution);

std::string solution_text(const Scenario& scenario, const LossLaw& law,
                          const QuestionSolution& solution);

// The table solution_text shows: the question as its title, a column per plan (the
// heuristic and its optimum, or the optimum), a row per quantity.
Table solution_table(const Scenario& scenario, const QuestionSolution& solution);

// The plan (the optimum) beside the Chinchilla-style model of equal quality: parameters,
// pretraining tokens, tokens per parameter, loss and lifetime cost by phase, formatted as in
// solution_table. Without a Chinchilla-style model (the rule cannot reach the loss), one column.
Table chinchilla_table(const Scenario& scenario, const QuestionSolution& solution);

// Why a plan has no Chinchilla-style comparison (the rule's model of the same loss cannot be
// served, say), one note each, for the table's "n/a (note below)".
std::vector<std::string> chinchilla_notes(const QuestionSolution& solution);

// The lines solution_text shows under the table (wrapped at 100 columns): why a comparison is
// n/a, the heuristic's overpay and the optimum's
// cost shares (equal-cost), the law and the Chinchilla rule, the solver's verdict.
std::vector<std::string> solution_notes(const Scenario& scenario, const LossLaw& law,
                                        const QuestionSolution& solution);

}  // namespace scaleopt::report
