#include "scaleopt/problems/question/question_setup.hpp"

#include <algorithm>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {
namespace {

CostUnit unit_of(const ProblemSpec& spec) {
  switch (spec.kind) {
    case ProblemKind::min_lifetime_flops:
      return CostUnit::flops;
    case ProblemKind::min_lifetime_cost:
      return CostUnit::usd;
    case ProblemKind::equal_cost:
      return spec.shares_unit;
    case ProblemKind::max_quality:
      return spec.budget_usd ? CostUnit::usd : CostUnit::gpu_hours;
  }
  return CostUnit::usd;
}

QuestionAnswer answer_for(const LifetimePlan& plan, const QuestionSetup& setup) {
  QuestionAnswer answer;
  answer.plan = plan;
  answer.active_params = plan.params;
  answer.total_params = plan.params * setup.total_to_active;
  answer.rl_tokens = setup.model.rl_tokens;
  answer.inference_tokens = setup.inference_tokens;
  if (plan.solve.status == Status::infeasible) return answer;
  answer.shares = cost_shares(plan.cost, plan.unit);
  answer.chinchilla_tokens = optimal_for_params(setup.rule, plan.params).tokens;
  answer.over_chinchilla = plan.pretrain_tokens / answer.chinchilla_tokens;
  answer.vs_chinchilla = compare_with_chinchilla(setup.rule, plan, setup.model);
  return answer;
}

// The answer of a plan whose RL tokens were chosen: costs, shares and the Chinchilla
// comparison at those tokens.
QuestionAnswer answer_for(const RlPlan& plan, const QuestionSetup& setup) {
  QuestionSetup at_tokens = setup;
  at_tokens.model.rl_tokens = plan.rl_tokens;
  QuestionAnswer answer = answer_for(plan.plan, at_tokens);
  answer.rl_returns = RlReturnsAnswer{plan.gain, plan.compute_ratio};
  return answer;
}

}  // namespace

QuestionSetup question_setup(const LifetimeInputs& inputs, const LossLaw& law,
                             const ProblemSpec& spec) {
  spec.validate();
  law.validate("law");
  QuestionSetup setup;
  setup.kind = spec.kind;
  setup.unit = unit_of(spec);
  setup.rule = AllocationRule{law, spec.tokens_per_param};
  const bool priced = spec.kind != ProblemKind::min_lifetime_flops;
  setup.model = lifetime_cost_model(inputs, priced);
  setup.total_to_active = total_to_active_ratio(inputs.architecture);
  setup.inference_tokens = inputs.demand.total_tokens();
  if (inputs.rl.returns) {
    // RL tokens become a decision variable, bounded below by the rollout tokens given.
    setup.rl_returns = RlReturnsLaw{law, *inputs.rl.returns, setup.model.rl_flops_per_param_token,
                                    std::max(1.0, inputs.rl.rollout_tokens)};
    if (spec.kind != ProblemKind::equal_cost) setup.model.rl_tokens = 0.0;
  }

  switch (spec.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
      // The loss of the rule's model of target_params parameters (as optimal_for_params).
      setup.target_loss = spec.target_loss ? *spec.target_loss
                                           : law.loss(*spec.target_params,
                                                      rule_tokens(setup.rule, *spec.target_params));
      break;
    case ProblemKind::max_quality:
      setup.budget =
          spec.budget_usd
              ? *spec.budget_usd
              : spec.budget_gpu_hours.value_or(spec.fleet_chips.value_or(0.0) *
                                               spec.fleet_seconds.value_or(0.0) / kSecondsPerHour);
      setup.min_params = spec.min_params;
      break;
    case ProblemKind::equal_cost: {
      if (!spec.params && !has_architecture(inputs.architecture)) {
        throw InputError("problem.params: required for equal-cost without an architecture");
      }
      setup.heuristic_params = spec.params.value_or(inputs.architecture.active_param_count());
      setup.shares = spec.shares;
      setup.heuristic =
          equal_cost_tokens(setup.heuristic_params, setup.model, spec.shares, setup.unit);
      // The true optimum holds the heuristic's RL tokens (the law has no RL term).
      setup.model.rl_tokens = setup.heuristic.rl_tokens;
      setup.target_loss =
          setup.rl_returns
              ? setup.rl_returns->loss(setup.heuristic_params, setup.heuristic.pretrain_tokens,
                                       std::max(setup.heuristic.rl_tokens, 1.0))
              : law.loss(setup.heuristic_params, setup.heuristic.pretrain_tokens);
      break;
    }
  }
  return setup;
}

std::unique_ptr<Problem> optimisation_problem(const QuestionSetup& setup) {
  if (setup.rl_returns) {
    if (setup.kind == ProblemKind::max_quality) {
      return std::make_unique<RlAtBudgetProblem>(*setup.rl_returns, setup.model, setup.unit,
                                                 setup.budget, setup.min_params);
    }
    return std::make_unique<RlAtLossProblem>(*setup.rl_returns, setup.target_loss, setup.model,
                                             setup.unit);
  }
  if (setup.kind == ProblemKind::max_quality) {
    return std::make_unique<QualityAtBudgetProblem>(setup.law(), setup.model, setup.unit,
                                                    setup.budget, setup.min_params);
  }
  return std::make_unique<LifetimeAtLossProblem>(setup.law(), setup.target_loss, setup.model,
                                                 setup.unit);
}

namespace {

// solve_question with [rl.returns]: (N, D, D_RL) together (problems/rl_returns/).
QuestionSolution solve_with_rl_returns(const QuestionSetup& setup, const SolverOptions& options) {
  QuestionSolution solution;
  solution.kind = setup.kind;
  solution.unit = setup.unit;
  const RlReturnsLaw& law = *setup.rl_returns;
  switch (setup.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
      solution.target_loss = setup.target_loss;
      solution.answer = answer_for(
          min_cost_at_loss_with_rl(law, setup.target_loss, setup.model, setup.unit, options),
          setup);
      break;
    case ProblemKind::max_quality: {
      const RlPlan plan = max_quality_with_rl(law, setup.model, setup.unit, setup.budget,
                                              setup.min_params, options);
      solution.target_loss = plan.plan.loss;
      solution.answer = answer_for(plan, setup);
      break;
    }
    case ProblemKind::equal_cost: {
      // The thirds at the heuristic's N, its loss with the gain its RL tokens buy; then the
      // optimum of (N, D, D_RL) at that loss.
      const RlPlan heuristic =
          rl_plan_at(law, setup.model, setup.unit, setup.heuristic_params,
                     setup.heuristic.pretrain_tokens, std::max(setup.heuristic.rl_tokens, 1.0));
      RlPlan closed_form = heuristic;
      closed_form.plan.solve.status = Status::converged;
      closed_form.plan.solve.algorithm = "closed form (equal-cost heuristic)";
      closed_form.plan.solve.message =
          "closed form: shares of the lifetime cost fix the token budgets";
      closed_form.plan.solve.kkt_residual = 0.0;
      closed_form.plan.solve.constraint_violation = 0.0;
      solution.target_loss = setup.target_loss;
      solution.answer = answer_for(closed_form, setup);
      const RlPlan optimum =
          min_cost_at_loss_with_rl(law, setup.target_loss, setup.model, setup.unit, options);
      solution.optimum = answer_for(optimum, setup);
      if (optimum.plan.solve.converged()) {
        solution.heuristic_overpay = in_unit(setup.unit, closed_form.plan.cost.total()) /
                                         in_unit(setup.unit, optimum.plan.cost.total()) -
                                     1.0;
      }
      break;
    }
  }
  settle_answers(solution);
  return solution;
}

}  // namespace

QuestionSolution solve_question(const QuestionSetup& setup, const SolverOptions& options) {
  if (setup.rl_returns) return solve_with_rl_returns(setup, options);
  QuestionSolution solution;
  solution.kind = setup.kind;
  solution.unit = setup.unit;
  const LossLaw& law = setup.law();
  switch (setup.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost: {
      solution.target_loss = setup.target_loss;
      const LifetimePlan plan =
          min_lifetime_cost_at_loss(law, setup.target_loss, setup.model, setup.unit, options);
      solution.answer = answer_for(plan, setup);
      break;
    }
    case ProblemKind::max_quality: {
      const LifetimePlan plan = max_quality_at_budget(law, setup.model, setup.unit, setup.budget,
                                                      {setup.min_params}, options);
      solution.target_loss = plan.loss;
      solution.answer = answer_for(plan, setup);
      break;
    }
    case ProblemKind::equal_cost: {
      const EqualCostPlan heuristic =
          equal_cost_plan(law, setup.heuristic_params, setup.model, setup.shares, setup.unit);
      solution.target_loss = heuristic.plan.loss;
      solution.answer = answer_for(heuristic.plan, setup);
      const LifetimePlan optimum =
          min_lifetime_cost_at_loss(law, setup.target_loss, setup.model, setup.unit, options);
      solution.optimum = answer_for(optimum, setup);
      if (optimum.solve.converged()) {
        solution.heuristic_overpay = in_unit(setup.unit, heuristic.plan.cost.total()) /
                                         in_unit(setup.unit, optimum.cost.total()) -
                                     1.0;
      }
      break;
    }
  }
  settle_answers(solution);
  return solution;
}

}  // namespace scaleopt
