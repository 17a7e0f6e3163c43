#pragma once
// The numbers of a lifecycle answer, flat: no strings and no vectors, so that sweeps and Monte
// Carlo can hold and copy millions of them. Fields mirror the JSON keys of `scaleopt solve`
// (report/lifecycle_output.hpp); a number that does not exist (an infeasible plan, a FLOPs
// problem's dollars) is NaN.

#include <limits>

#include "scaleopt/problems/question/question_solve.hpp"

namespace scaleopt {

// How a plan was found.
enum class SolvePath : unsigned char {
  closed_form,  // the equal-cost heuristic
  newton,       // the 1-D reduction by Newton's method (problems/question/question_fast.hpp)
  nlopt,        // NLopt with KKT polish, cross-checked by the 1-D reduction (solve_question)
};

struct AnswerSummary {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double params = kNaN;  // total parameters
  double active_params = kNaN;
  double pretrain_tokens = kNaN;
  double rl_tokens = kNaN;
  double inference_tokens = kNaN;
  double loss = kNaN;
  LifetimeCost cost;  // NaN when infeasible
  CostShares shares{kNaN, kNaN, kNaN};
  double chinchilla_tokens = kNaN;
  double over_chinchilla = kNaN;
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
  AnswerSummary answer;  // equal-cost: the heuristic
  bool has_optimum = false;
  AnswerSummary optimum;  // equal-cost: the true optimum at the heuristic's loss
  double heuristic_overpay = AnswerSummary::kNaN;
  // converged only when every plan is (as QuestionSolution::status).
  Status status() const;
};

// The numbers of a full solution (the NLopt path).
QuestionSummary summarize(const QuestionSolution& solution);

// Dollars are NaN for a FLOPs problem (no prices), as in `solve --json`.
bool is_priced(ProblemKind kind);

}  // namespace scaleopt
