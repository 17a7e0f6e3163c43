#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {
namespace {

AnswerSummary summary_of(const QuestionAnswer& a, SolvePath path) {
  AnswerSummary s;
  const LifetimePlan& plan = a.plan;
  s.status = plan.solve.status;
  s.path = path;
  s.rl_tokens = a.rl_tokens;
  s.inference_tokens = a.inference_tokens;
  if (s.status == Status::infeasible) return s;
  s.params = a.total_params;
  s.active_params = a.active_params;
  s.pretrain_tokens = plan.pretrain_tokens;
  s.loss = plan.loss;
  s.cost = plan.cost;
  s.shares = a.shares;
  s.chinchilla_tokens = a.chinchilla_tokens;
  s.over_chinchilla = a.over_chinchilla;
  const ChinchillaComparison& c = a.vs_chinchilla;
  if (c.chinchilla.solve.status != Status::infeasible) {
    s.vs_params = c.params_ratio;
    s.vs_tokens = c.tokens_ratio;
    s.vs_cost = c.cost_ratio;
    s.chinchilla_params = c.chinchilla.params;
    s.chinchilla_pretrain_tokens = c.chinchilla.pretrain_tokens;
  }
  s.kkt_residual = plan.solve.kkt_residual;
  s.constraint_violation = plan.solve.constraint_violation;
  s.reference_relative_difference = plan.reference_relative_difference;
  return s;
}

}  // namespace

bool is_priced(ProblemKind kind) {
  return kind != ProblemKind::min_lifetime_flops;
}

Status QuestionSummary::status() const {
  if (answer.status != Status::converged) return answer.status;
  if (has_optimum && optimum.status != Status::converged) return optimum.status;
  return Status::converged;
}

QuestionSummary summarize(const QuestionSolution& solution) {
  QuestionSummary summary;
  summary.kind = solution.kind;
  summary.unit = solution.unit;
  const bool heuristic = solution.kind == ProblemKind::equal_cost;
  summary.answer =
      summary_of(solution.answer, heuristic ? SolvePath::closed_form : SolvePath::nlopt);
  if (solution.optimum) {
    summary.has_optimum = true;
    summary.optimum = summary_of(*solution.optimum, SolvePath::nlopt);
    if (summary.optimum.status == Status::converged) {
      summary.heuristic_overpay = solution.heuristic_overpay;
    }
  }
  return summary;
}

}  // namespace scaleopt
