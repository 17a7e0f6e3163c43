#pragma once
// The numbers of a lifecycle answer, flat: no strings and no vectors, so that sweeps and Monte
// Carlo can hold and copy millions of them. The table of answer fields
// (problems/question/answer_fields.hpp) reads them for the JSON of `scaleopt solve`, the CSV of
// sweeps and Python; a number that does not exist (an infeasible plan, a FLOPs problem's
// dollars) is NaN.

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "scaleopt/problems/question/question_solve.hpp"

namespace scaleopt {

struct AnswerSummary {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double params = kNaN;  // total parameters
  double active_params = kNaN;
  double experts = kNaN;  // the experts chosen (the paper's E), NaN when not chosen
  double pretrain_tokens = kNaN;
  double rl_tokens = kNaN;
  double inference_tokens = kNaN;
  double loss = kNaN;
  LifetimeCost cost;  // NaN when infeasible
  CostShares shares{kNaN, kNaN, kNaN};
  double rl_gain = kNaN;           // with [rl.returns]: g(r)
  double rl_compute_ratio = kNaN;  // with [rl.returns]: r = C_RL / C_pretrain
  // With limited data (DataLimitAnswer of problems/question/question_solve.hpp).
  double unique_tokens = kNaN;
  double epochs = kNaN;
  double effective_tokens = kNaN;
  double data_limit_loss = kNaN;
  double data_limit_cost = kNaN;
  double max_pretrain_tokens_value = kNaN;
  double chinchilla_tokens = kNaN;
  double over_chinchilla = kNaN;
  // The pretraining run (TrainingRunAnswer of problems/question/question_solve.hpp).
  double training_chips = kNaN;
  double training_days = kNaN;
  double deadline_value_per_day = kNaN;
  double pretraining_budget_value = kNaN;
  // Power and energy (PowerAnswer of problems/question/question_solve.hpp).
  double training_power_mw = kNaN;
  double serving_power_mw = kNaN;
  double energy_mwh = kNaN;
  double energy_usd = kNaN;
  double power_max_chips = kNaN;
  // The serving fleet (FleetPlan of problems/serving/fleet_plan.hpp): NaN without one.
  double replica_chips = kNaN;
  bool replica_chosen = false;
  double serving_batch = kNaN;
  BatchBound serving_bound = BatchBound::given;
  bool demand_bound = false;  // one replica is more than the peak needs (its batch the demand's)
  double replicas = kNaN;
  double whole_replicas = kNaN;
  double utilisation = kNaN;
  double idle_chip_hours = kNaN;
  double whole_replicas_usd = kNaN;
  // The largest factor by which N or D lies outside the law's fitted range (1 inside it; NaN
  // for a law without a range): costmodel/law_reach.hpp.
  double law_extrapolation = kNaN;
  // vs the equal-quality Chinchilla-style model (keys of "vs_chinchilla").
  double vs_params = kNaN;
  double vs_tokens = kNaN;
  double vs_cost = kNaN;
  double chinchilla_params = kNaN;
  double chinchilla_pretrain_tokens = kNaN;
  Status status = Status::not_converged;
  SolvePath path = SolvePath::nlopt;
  double kkt_residual = kNaN;
  double constraint_violation = kNaN;
  double reference_relative_difference = kNaN;  // NLopt vs the 1-D reduction (NLopt path only)
};

struct QuestionSummary {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  CostUnit unit = CostUnit::usd;
  bool rl_returns = false;    // the RL tokens chosen ([rl.returns]): the answers have its fields
  bool data_limit = false;    // limited data: the answers have its fields
  bool training_cap = false;  // the pretraining FLOPs capped: the answers have its fields
  AnswerSummary answer;       // equal-cost: the heuristic
  bool has_optimum = false;
  AnswerSummary optimum;  // equal-cost: the true optimum at the heuristic's loss
  double heuristic_overpay = AnswerSummary::kNaN;
  // converged only when every plan is (as QuestionSolution::status).
  Status status() const;
};

// Copies a fleet's figures into the summary (nothing without one).
void set_fleet_figures(AnswerSummary& summary, const std::optional<FleetPlan>& fleet);

// The numbers of one full answer found on `path`.
AnswerSummary summary_of(const QuestionAnswer& answer, SolvePath path);

// The name of the algorithm that found an answer, as the CSV's "algorithm" column prints it.
std::string_view algorithm_name(SolvePath path, std::string_view nlopt_algorithm);

// The numbers of a full solution (the NLopt path).
QuestionSummary summarize(const QuestionSolution& solution);

// Why an answer the solver verified is still no answer to the question, or nullopt:
//  - a figure overflowed to inf or nan (status invalid_input): an input lies beyond what double
//    precision can cost, such as an MFU of 1e-300;
//  - N or D sits at 1e30 or at 1, the bounds of the search (status infeasible): the optimum
//    lies at or beyond them, out of the range the model covers, as with a target that needs
//    more than 1e30 parameters or tokens, or a law whose exponent is so small that the
//    smallest model is "best". Bounds a user sets (problem.min_params) are no such defect.
// `which` names the plan in the message ("the heuristic's", "the optimum's", or "the plan's").
struct AnswerDefect {
  Status status = Status::invalid_input;
  std::string message;
};
std::optional<AnswerDefect> answer_defect(const AnswerSummary& answer, bool priced,
                                          std::string_view which);

// Applies answer_defect to every converged plan: its status and message become the defect's
// (and a summary's numbers NaN, so that none is printed), so that sweeps, Monte Carlo and
// `solve` never count such a plan as converged. solve_question and solve_question_fast call
// these.
void settle_answers(QuestionSolution& solution);
void settle_answers(QuestionSummary& summary);

// Dollars are NaN for a FLOPs problem (no prices), as in `solve --json`.
bool is_priced(ProblemKind kind);

}  // namespace scaleopt
