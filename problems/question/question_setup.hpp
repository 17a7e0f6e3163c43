#pragma once
// A scenario's lifecycle question made concrete before any solve: the cost model with N and D
// free, the unit, the law and the Chinchilla-style rule of the comparisons, the target (a loss
// or a budget) and, for equal-cost, the heuristic's N. The NLopt path (solve_question), the
// fast path (problems/question/question_fast.hpp) and the sensitivities
// (problems/question/question_elasticity.hpp) all start from it, so they answer the same question.

#include <memory>

#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"
#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

struct QuestionSetup {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  CostUnit unit = CostUnit::usd;  // what is minimised, budgeted or shared
  AllocationRule rule;            // the law, and the rule of the Chinchilla comparison
  // The lifetime cost of (N, D). For equal-cost it carries the heuristic's RL tokens, which its
  // true optimum holds fixed.
  LifetimeCostModel model;
  double target_loss = 0.0;  // min-lifetime-*: the target; equal-cost: the heuristic's loss
  double budget = 0.0;       // max-quality, in `unit`
  double min_params = QualityAtBudgetOptions{}.min_params;  // max-quality
  // equal-cost: the heuristic's N and token budgets (closed form).
  double heuristic_params = 0.0;
  EqualCostTokens heuristic;
  CostShares shares;
  double total_to_active = 1.0;   // the architecture's total / active parameters
  double inference_tokens = 0.0;  // lifetime demand, input + output
  // With [rl.returns]: the law with the RL gain; the RL tokens are then chosen (model.rl_tokens
  // is 0 for the optimum, the heuristic's for equal-cost) and at least rl.rollout_tokens.
  std::optional<RlReturnsLaw> rl_returns;

  const LossLaw& law() const { return rule.law; }
};

// Validates the inputs and builds the setup. Throws InputError naming the key.
QuestionSetup question_setup(const LifetimeInputs& inputs, const LossLaw& law,
                             const ProblemSpec& spec);

// The problem NLopt solves for the setup, over (ln N, ln D), and ln D_RL with [rl.returns]:
// the cheapest plan reaching the target loss (min-lifetime-*, and the true optimum of
// equal-cost) or the lowest loss within the budget (max-quality).
std::unique_ptr<Problem> optimisation_problem(const QuestionSetup& setup);

// The NLopt path: the solve of solve_question(inputs, law, spec, options) on a built setup.
QuestionSolution solve_question(const QuestionSetup& setup, const SolverOptions& options = {});

}  // namespace scaleopt
