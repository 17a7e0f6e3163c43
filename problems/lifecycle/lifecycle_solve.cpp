#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/compute_cap/compute_capped_reduction.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/data_limit/data_limit_reduction.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"

namespace scaleopt {
namespace {

LifetimePlan no_reference(CostUnit unit, std::string message) {
  LifetimePlan plan;
  plan.unit = unit;
  plan.solve.status = Status::not_converged;
  plan.solve.message = std::move(message);
  return plan;
}

// A plan that does not exist: RL on none of the chosen tokens, no gain.
LifetimePlan infeasible_plan(const LifecycleTerms& terms, LifetimePlan plan) {
  plan.rl_tokens = terms.cost.rl_tokens;
  if (terms.loss.rl_gain()) plan.rl_returns = RlReturnsAnswer{};
  return plan;
}

// Whether the reference of step 2 is the 1-D reduction of the plain law within a budget, which
// decides infeasibility too.
bool budget_reduction(const LifecycleTerms& terms, const LifecycleQuestion& question) {
  return question.budget() && !terms.loss.has_transforms() && !question.token_cap();
}

// The lowest loss any plan within the search's bounds reaches: the loss at the largest N and D
// (and D_RL) allowed, since it falls with each. With repeated data it is the floor of
// costmodel/data_repetition.hpp (R = 1e30 / U saturates every exponential).
double lowest_reachable_loss(const LifecycleTerms& terms, const LifecycleQuestion& question) {
  DecisionGradient x{};
  x[terms.layout.at(DecisionVariable::params)] =
      std::min(kLogUpperBound, std::log(terms.cost.max_params));
  double log_tokens = kLogUpperBound;
  if (const MaxPretrainTokensConstraint* cap = question.token_cap()) {
    log_tokens = std::min(log_tokens, std::log(cap->max_pretrain_tokens()));
  }
  x[terms.layout.at(DecisionVariable::pretrain_tokens)] = log_tokens;
  if (terms.layout.has(DecisionVariable::rl_tokens)) {
    x[terms.layout.at(DecisionVariable::rl_tokens)] = kLogUpperBound;
  }
  return terms.loss_at(std::span<const double>(x.data(), terms.layout.dimension())).loss;
}

// A target at or below the floor that a finite stock of unique tokens or a cap on the tokens
// sets: the message names the floor and what sets it.
std::optional<std::string> below_data_floor(const LifecycleTerms& terms,
                                            const LifecycleQuestion& question, double target) {
  const RepetitionTransform* repetition = terms.loss.repetition();
  const MaxPretrainTokensConstraint* cap = question.token_cap();
  if (!repetition && !cap) return std::nullopt;
  const double floor = lowest_reachable_loss(terms, question);
  if (target > floor) return std::nullopt;
  std::ostringstream message;
  message.precision(10);
  message << "target loss " << target << " is at or below the lowest loss " << floor
          << " reachable with ";
  if (repetition) {
    const double decay = terms.loss.law().repeat_decay_tokens;
    message << repetition->field() << " = "
            << format_quantity(repetition->unique_tokens(), Unit::count)
            << " (repeated, they are worth at most U_D (1 + R_D*) = "
            << format_quantity(repetition->unique_tokens() * (1.0 + decay), Unit::count)
            << " fresh tokens, R_D* = " << decay << ")";
    if (cap) message << " and ";
  }
  if (cap) {
    message << "problem.max_pretrain_tokens = "
            << format_quantity(cap->max_pretrain_tokens(), Unit::count);
  }
  message << ": ask for a higher loss or more data";
  return message.str();
}

// Step 1: the plan with status infeasible and the reason, or nullopt.
std::optional<LifetimePlan> infeasibility(const LifecycleTerms& terms,
                                          const LifecycleQuestion& question) {
  const LossLaw& law = terms.loss.law();
  LifetimePlan plan;
  plan.unit = terms.unit;
  // A pretraining budget buys some plan whenever it buys one token of a one-parameter model:
  // the search's bounds and the reference say when it does not.
  if (question.pretraining_budget()) return std::nullopt;
  if (const TargetLossConstraint* target = question.target()) {
    // The transforms change D, not what N alone must reach: the targets without them.
    if (infeasible_at_loss(law, target->target_loss(), terms.cost, plan)) {
      return infeasible_plan(terms, plan);
    }
    if (const auto floor = below_data_floor(terms, question, target->target_loss())) {
      plan.solve.status = Status::infeasible;
      plan.solve.message = *floor;
      return infeasible_plan(terms, plan);
    }
    // No plan within the cap on the pretraining FLOPs reaches a target at or below the loss of
    // the cap's Chinchilla point (the floor of the plain law; transforms only raise it).
    if (const PretrainingComputeConstraint* cap = question.tightest_compute_cap()) {
      const double floor = lowest_loss_at_compute(law, cap->max_flops());
      if (target->target_loss() <= floor) {
        std::ostringstream message;
        message.precision(10);
        message << "target loss " << target->target_loss() << " is at or below the lowest loss "
                << floor << " reachable within " << cap->description() << " ("
                << format_scientific(cap->max_flops(), 4)
                << " pretraining FLOPs): ask for a higher loss, more chips or more time";
        plan.solve.status = Status::infeasible;
        plan.solve.message = message.str();
        plan.loss = law.E;
        return infeasible_plan(terms, plan);
      }
    }
    return std::nullopt;
  }
  // Within a budget the reduction decides (it states the cost of serving the demand with the
  // smallest model considered), on the costs without the chosen RL tokens.
  const LifetimePlan reduced = max_quality_at_budget_reduced(
      law, terms.cost, terms.unit, question.budget()->budget(), {terms.min_params});
  if (reduced.solve.status == Status::infeasible) return infeasible_plan(terms, reduced);
  return std::nullopt;
}

double ratio_gap(double value, double reference) {
  return std::fabs(value / reference - 1.0);
}

}  // namespace

namespace {

// The reference of a question with its pretraining FLOPs capped (problems/compute_cap/): the
// plain law, and a token cap only beside a pretraining budget.
LifetimePlan compute_capped_reference(const LifecycleTerms& terms,
                                      const LifecycleQuestion& question,
                                      const PretrainingComputeConstraint& cap) {
  const MaxPretrainTokensConstraint* tokens = question.token_cap();
  if (terms.loss.has_transforms() || (tokens && !question.pretraining_budget())) {
    return no_reference(terms.unit,
                        "no independent reduction for a capped pretraining compute with "
                        "these terms (repeated data, RL chosen, or a token cap beside a "
                        "deadline)");
  }
  const LossLaw& law = terms.loss.law();
  if (question.pretraining_budget()) {
    return loss_at_compute_cap_reduced(
        law, terms.cost, terms.unit, cap.max_flops(),
        tokens ? std::optional<double>(tokens->max_pretrain_tokens()) : std::nullopt,
        terms.min_params);
  }
  if (const TargetLossConstraint* target = question.target()) {
    return cost_at_loss_compute_capped_reduced(law, target->target_loss(), terms.cost, terms.unit,
                                               cap.max_flops());
  }
  return loss_within_budget_compute_capped_reduced(
      law, terms.cost, terms.unit, question.budget()->budget(), cap.max_flops(), terms.min_params);
}

}  // namespace

LifetimePlan lifecycle_reference(const LifecycleTerms& terms, const LifecycleQuestion& question) {
  const TargetLossConstraint* target = question.target();
  const BudgetConstraint* budget = question.budget();
  if (const PretrainingComputeConstraint* cap = question.tightest_compute_cap()) {
    return compute_capped_reference(terms, question, *cap);
  }
  // Repeated data or a cap on the tokens (without RL chosen): the reduction of
  // problems/data_limit/.
  const MaxPretrainTokensConstraint* cap = question.token_cap();
  if (terms.loss.repetition() || cap) {
    const std::size_t own = cap ? 2 : 1;
    if (question.constraints.size() != own || terms.loss.rl_gain() ||
        terms.loss.transform_count() != (terms.loss.repetition() ? 1u : 0u)) {
      return no_reference(terms.unit,
                          "no independent reduction with RL tokens chosen and "
                          "limited data");
    }
    const double max_tokens = cap ? cap->max_pretrain_tokens() : 1e30;
    const std::optional<LifetimePlan> plan =
        target ? min_cost_at_loss_repeated_reduced(terms, target->target_loss(), max_tokens)
               : max_quality_repeated_reduced(terms, budget->budget(), max_tokens);
    if (plan) return *plan;
    return no_reference(terms.unit, "the data-limit reduction found no bracket");
  }
  // The reductions know the question's own constraint and the RL gain, nothing more.
  const std::size_t known_transforms = terms.loss.rl_gain() ? 1 : 0;
  if (question.constraints.size() != 1 || terms.loss.transform_count() != known_transforms) {
    return no_reference(terms.unit, "no independent reduction for these terms");
  }
  if (terms.loss.rl_gain()) {
    const std::optional<LifetimePlan> plan =
        target ? min_cost_at_loss_with_rl_reduced(terms, target->target_loss())
               : max_quality_with_rl_reduced(terms, budget->budget());
    if (plan) return *plan;
    return no_reference(terms.unit,
                        "the RL reduction needs costs linear in N and r* above its bound");
  }
  return target ? min_lifetime_cost_at_loss_reduced(terms.loss.law(), target->target_loss(),
                                                    terms.cost, terms.unit)
                : max_quality_at_budget_reduced(terms.loss.law(), terms.cost, terms.unit,
                                                budget->budget(), {terms.min_params});
}

LifetimePlan plan_at_solution(const LifecycleTerms& terms, SolveResult solve) {
  std::vector<double> counts(solve.x.size());
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = std::exp(solve.x[i]);
  LifetimePlan plan = plan_at(terms, counts);
  plan.solve = std::move(solve);
  return plan;
}

void mark_disagreement(LifetimePlan& plan, const std::string& reference_algorithm,
                       double difference, const std::string& compared, double tolerance) {
  plan.solve.status = Status::not_converged;
  std::ostringstream message;
  message.precision(3);
  message << "NLopt and the independent reference (" << reference_algorithm
          << ") disagree: relative difference " << difference << " in " << compared
          << ", above the reference tolerance " << tolerance << "; NLopt: " << plan.solve.message;
  plan.solve.message = message.str();
}

LifetimePlan solve_lifecycle(const LifecycleTerms& terms, const LifecycleQuestion& question,
                             const SolverOptions& options) {
  // The experts chosen: held to the reference over E (problems/lifecycle/experts_solve.hpp).
  if (terms.layout.has(DecisionVariable::expansion)) {
    return solve_choosing_experts(terms, question, options);
  }
  LifetimePlan reference;
  if (budget_reduction(terms, question)) {
    reference = lifecycle_reference(terms, question);
    if (reference.solve.status == Status::infeasible) return infeasible_plan(terms, reference);
  } else {
    if (std::optional<LifetimePlan> infeasible = infeasibility(terms, question)) {
      return *infeasible;
    }
    reference = lifecycle_reference(terms, question);
    // The compute-capped reductions decide feasibility too (problems/compute_cap/).
    if (question.tightest_compute_cap() && reference.solve.status == Status::infeasible) {
      return infeasible_plan(terms, reference);
    }
  }
  const LifecycleProblem problem(terms, question);
  LifetimePlan plan = plan_at_solution(terms, minimize_with_restart(problem, reference, options));
  if (!reference.solve.converged()) {
    plan.reference_message = "no independent reference: " + reference.solve.message;
  } else {
    const double references[] = {reference.params, reference.pretrain_tokens, reference.rl_tokens};
    const double values[] = {plan.params, plan.pretrain_tokens, plan.rl_tokens};
    double difference = 0.0;
    for (std::size_t i = 0; i < terms.layout.dimension(); ++i) {
      difference = std::max(difference, ratio_gap(values[i], references[i]));
    }
    plan.reference_relative_difference = difference;
    // Two methods that disagree: one of them is wrong, and neither is an answer. Not at the
    // artificial bounds of N and D (1 and 1e30), where the plan is no answer anyway
    // (problems/question/question_summary.hpp) and D is pinned while N is known to rounding.
    if (plan.solve.converged() && !(difference <= options.reference_tolerance) &&
        !at_search_bound(plan.solve.x[0]) && !at_search_bound(plan.solve.x[1])) {
      mark_disagreement(plan, reference.solve.algorithm, difference, "N, D or D_RL",
                        options.reference_tolerance);
    }
  }
  return plan;
}

LifetimePlan min_lifetime_cost_at_loss(const LossLaw& law, double target_loss,
                                       const LifetimeCostModel& model, CostUnit unit,
                                       const SolverOptions& options) {
  return solve_lifecycle(lifecycle_terms(LossTerm(law), model, unit),
                         LifecycleQuestion::at_target_loss(target_loss), options);
}

LifetimePlan max_quality_at_budget(const LossLaw& law, const LifetimeCostModel& model,
                                   CostUnit unit, double budget, double min_params,
                                   const SolverOptions& options) {
  return solve_lifecycle(lifecycle_terms(LossTerm(law), model, unit, min_params),
                         LifecycleQuestion::within_budget(budget), options);
}

}  // namespace scaleopt
