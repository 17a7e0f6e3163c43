#include "scaleopt/problems/question/question_summary.hpp"

#include <cmath>
#include <sstream>

namespace scaleopt {

void set_fleet_figures(AnswerSummary& s, const std::optional<FleetPlan>& fleet) {
  if (!fleet || fleet->plan.status != Status::converged) return;
  s.replica_chips = fleet->replica_chips;
  s.replica_chosen = fleet->replica_chosen;
  s.serving_batch = fleet->batch;
  s.serving_bound = fleet->plan.bound;
  s.demand_bound = fleet->demand_bound;
  s.replicas = fleet->replicas;
  s.whole_replicas = fleet->whole_replicas;
  s.utilisation = fleet->utilisation;
  s.idle_chip_hours = fleet->idle_chip_hours;
  s.whole_replicas_usd = fleet->whole_replicas_usd;
}

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
  if (a.experts) s.experts = *a.experts;
  s.pretrain_tokens = plan.pretrain_tokens;
  s.loss = plan.loss;
  s.cost = plan.cost;
  s.shares = a.shares;
  if (a.rl_returns) {
    s.rl_gain = a.rl_returns->gain;
    s.rl_compute_ratio = a.rl_returns->compute_ratio;
  }
  if (a.data_limit) {
    s.unique_tokens = a.data_limit->unique_tokens;
    s.epochs = a.data_limit->epochs;
    s.effective_tokens = a.data_limit->effective_tokens;
    s.data_limit_loss = a.data_limit->loss;
    s.data_limit_cost = a.data_limit->cost;
    s.max_pretrain_tokens_value = a.data_limit->token_value;
  }
  s.training_chips = a.training.chips;
  s.training_days = a.training.days;
  s.deadline_value_per_day = a.training.deadline_value_per_day;
  s.pretraining_budget_value = a.training.budget_value;
  s.training_power_mw = a.power.training_mw;
  s.serving_power_mw = a.power.serving_mw;
  s.energy_mwh = a.power.energy_mwh;
  s.energy_usd = a.power.energy_usd;
  s.power_max_chips = a.power.max_chips;
  s.law_extrapolation = a.law_extrapolation;
  set_fleet_figures(s, a.fleet);
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

namespace {

// At or above this N or D a plan sits on the bound of the search (1e30, kLogUpperBound: exp of
// it rounds to within an ulp or two of 1e30).
constexpr double kAtUpperBound = 1e30 * (1.0 - 1e-9);
// At or below this N or D a plan sits on the lower bound of the search (1, kLogLowerBound).
constexpr double kAtLowerBound = 1.0 + 1e-9;

AnswerSummary cleared(const AnswerSummary& a, Status status) {
  AnswerSummary s;
  s.status = status;
  s.path = a.path;
  s.rl_tokens = a.rl_tokens;
  s.inference_tokens = a.inference_tokens;
  return s;
}

std::string which_text(std::string_view which) {
  return which.empty() ? "the plan's" : std::string(which);
}

}  // namespace

std::optional<AnswerDefect> answer_defect(const AnswerSummary& a, bool priced,
                                          std::string_view which) {
  if (a.status != Status::converged) return std::nullopt;
  const std::pair<const char*, double> figures[] = {
      {"parameters", a.params},
      {"active parameters", a.active_params},
      {"pretraining tokens", a.pretrain_tokens},
      {"RL tokens", a.rl_tokens},
      {"inference tokens", a.inference_tokens},
      {"loss", a.loss},
      {"pretraining FLOPs", a.cost.pretrain.flops},
      {"RL FLOPs", a.cost.rl.flops},
      {"inference FLOPs", a.cost.inference.flops},
      {"pretraining GPU-hours", a.cost.pretrain.gpu_hours},
      {"RL GPU-hours", a.cost.rl.gpu_hours},
      {"inference GPU-hours", a.cost.inference.gpu_hours},
      {"pretraining cost", priced ? a.cost.pretrain.usd : 0.0},
      {"RL cost", priced ? a.cost.rl.usd : 0.0},
      {"inference cost", priced ? a.cost.inference.usd : 0.0},
      {"total cost", priced ? a.cost.total().usd : a.cost.total().flops},
      {"pretraining share", a.shares.pretrain},
      {"RL share", a.shares.rl},
      {"inference share", a.shares.inference},
      {"Chinchilla tokens", a.chinchilla_tokens},
      {"tokens over Chinchilla", a.over_chinchilla},
      // NaN when no equal-quality Chinchilla-style model exists, but never infinite.
      {"parameters vs Chinchilla", std::isnan(a.vs_params) ? 0.0 : a.vs_params},
      {"tokens vs Chinchilla", std::isnan(a.vs_tokens) ? 0.0 : a.vs_tokens},
      {"cost vs Chinchilla", std::isnan(a.vs_cost) ? 0.0 : a.vs_cost},
  };
  for (const auto& [name, value] : figures) {
    if (!std::isfinite(value)) {
      std::ostringstream message;
      message << which_text(which) << " " << name << " came out as " << value
              << ": an input lies beyond what double precision can cost";
      return AnswerDefect{Status::invalid_input, message.str()};
    }
  }
  if (a.active_params >= kAtUpperBound || a.pretrain_tokens >= kAtUpperBound) {
    std::ostringstream message;
    message << which_text(which) << " "
            << (a.active_params >= kAtUpperBound ? "parameters" : "pretraining tokens")
            << " reach 1e30, the most the model considers: the answer lies at or beyond that "
               "bound, out of its range";
    return AnswerDefect{Status::infeasible, message.str()};
  }
  // One parameter or one token is the other end of the search, which no user set (the bounds
  // users set, such as problem.min_params, are at least 1e7 or so): a plan pinned there is no
  // minimum of the question but the edge of the range the laws are evaluated on.
  if (a.active_params <= kAtLowerBound || a.pretrain_tokens <= kAtLowerBound) {
    std::ostringstream message;
    message << which_text(which) << " "
            << (a.active_params <= kAtLowerBound ? "parameters fall" : "pretraining tokens fall")
            << " to 1, the least the model considers: the search found no optimum inside its "
               "range (check the law's exponents and the costs)";
    return AnswerDefect{Status::infeasible, message.str()};
  }
  return std::nullopt;
}

void settle_answers(QuestionSolution& solution) {
  const bool priced = is_priced(solution.kind);
  const bool heuristic = solution.kind == ProblemKind::equal_cost;
  auto settle = [&](QuestionAnswer& answer, std::string_view which) {
    if (const auto defect = answer_defect(summary_of(answer, SolvePath::nlopt), priced, which)) {
      answer.plan.solve.status = defect->status;
      answer.plan.solve.message = defect->message;
    }
  };
  settle(solution.answer, heuristic ? "the heuristic's" : "the plan's");
  if (solution.optimum) settle(*solution.optimum, "the optimum's");
  if (solution.dense) settle(*solution.dense, "the dense model's");
  if (solution.status() != Status::converged) {
    solution.heuristic_overpay = std::numeric_limits<double>::quiet_NaN();
  }
}

void settle_answers(QuestionSummary& summary) {
  const bool priced = is_priced(summary.kind);
  for (AnswerSummary* answer : {&summary.answer, &summary.optimum}) {
    if (answer == &summary.optimum && !summary.has_optimum) continue;
    if (const auto defect = answer_defect(*answer, priced, "")) {
      *answer = cleared(*answer, defect->status);
    }
  }
  if (summary.status() != Status::converged) summary.heuristic_overpay = AnswerSummary::kNaN;
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
  summary.rl_returns = solution.answer.rl_returns.has_value();
  summary.data_limit = solution.answer.data_limit.has_value();
  summary.training_cap = solution.answer.training.capped;
  summary.answer = summary_of(solution.answer, solution.answer.path);
  if (solution.optimum) {
    summary.has_optimum = true;
    summary.optimum = summary_of(*solution.optimum, solution.optimum->path);
    if (summary.optimum.status == Status::converged) {
      summary.heuristic_overpay = solution.heuristic_overpay;
    }
  }
  return summary;
}

}  // namespace scaleopt
