#pragma once
// A scenario's lifecycle question made concrete before any solve: the cost model with N and D
// free, the unit, the loss term (the law and its effective-data transforms), the rule of the
// Chinchilla-style comparisons, the target (a loss or a budget) and, for equal-cost, the
// heuristic's N. The NLopt path (solve_question), the fast path
// (problems/question/question_fast.hpp) and the sensitivities
// (problems/question/question_elasticity.hpp) all start from it, so they answer the same question.

#include <memory>
#include <string>

#include "scaleopt/problems/lifecycle/expert_choice.hpp"
#include "scaleopt/problems/lifecycle/fast_path.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/problems/lifecycle/loss_term.hpp"
#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/problems/question/site_power.hpp"
#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

struct QuestionSetup {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  CostUnit unit = CostUnit::usd;  // what is minimised, budgeted or shared
  AllocationRule rule;            // the law, and the rule of the Chinchilla comparison
  // The law with its effective-data transforms: with [rl.returns] the RL gain, the RL tokens
  // then chosen (model.rl_tokens is 0 for the optimum, the heuristic's for equal-cost) and at
  // least rl.rollout_tokens.
  LossTerm loss;
  // The lifetime cost of (N, D). For equal-cost it carries the heuristic's RL tokens, which its
  // true optimum holds fixed (without [rl.returns]).
  LifetimeCostModel model;
  double target_loss = 0.0;  // min-lifetime-*: the target; equal-cost: the heuristic's loss
  double budget = 0.0;       // max-quality, in `unit`
  double min_params = QualityAtBudgetOptions{}.min_params;  // max-quality
  // equal-cost: the heuristic's N and token budgets (closed form).
  double heuristic_params = 0.0;
  EqualCostTokens heuristic;
  CostShares shares;
  double total_to_active = 1.0;  // the architecture's total / active parameters
  // The experts chosen (ProblemSpec::choose_experts with a joint law): their bounds and the
  // share f of the active parameters one routed FFN holds (problems/lifecycle/expert_choice.hpp),
  // with where f comes from. Absent: the law's experts are fixed, total_to_active holds.
  std::optional<ExpertChoice> experts;
  std::string expert_share_source;
  double inference_tokens = 0.0;  // lifetime demand, input + output
  double output_tokens = 0.0;     // of which decoded
  // problem.max_pretrain_tokens: a cap on D, a constraint of every plan the setup solves.
  std::optional<double> max_pretrain_tokens;
  // best-at-pretraining-budget: the budget as pretraining FLOPs at the training setup's rate,
  // and the conversion in words ("$30M at $2/h on h100-sxm ...").
  double pretraining_budget_flops = 0.0;
  std::string pretraining_budget_description;
  // The pretraining cluster: model FLOP/s per chip (peak * MFU * goodput), chips per node, the
  // chips given or their cap (training.chips, training.max_chips) and the deadline.
  double training_flop_per_second_per_chip = 0.0;
  double training_node_chips = 8.0;
  std::optional<double> training_chips;  // given, or the cap
  bool training_chips_capped = false;    // training_chips is a cap (max_chips or the site's)
  // What caps the chips when capped, in words: "training.max_chips", or "power.max_mw = 100MW
  // (...)" when the site admits fewer chips than training.max_chips (or none is given).
  std::string training_chips_cap;
  // The power side: facility power per chip, the serving duration, energy's price, the
  // training chips power.max_mw admits.
  SitePower power;
  std::optional<double> deadline_seconds;
  // The cap the deadline puts on 6 N D: the chips times the deadline at their rate; absent
  // when no deadline is given or the chips are free (chip-hours then do not depend on the
  // schedule: the answer reports the chips the deadline needs instead).
  std::optional<double> deadline_max_flops;
  std::string deadline_description;

  const LossLaw& law() const { return rule.law; }
  // Whether the pretraining FLOPs are capped: a pretraining budget, or a deadline on chips
  // given or capped.
  bool caps_training() const {
    return kind == ProblemKind::best_at_pretraining_budget || deadline_max_flops.has_value();
  }
  // Which accelerator answers the setup's question (problems/lifecycle/fast_path.hpp).
  FastPathChoice fast_path() const {
    // The experts chosen: solve_question_fast's search over E (experts_newton.hpp) answers
    // sweeps and Monte Carlo where the costs are linear in N; `solve` is NLopt's.
    if (experts) return {Accelerator::none, "the experts are chosen"};
    return fast_path_for(loss, model, unit, max_pretrain_tokens.has_value(), caps_training());
  }
  // Whether the RL tokens are a decision variable ([rl.returns]).
  bool chooses_rl_tokens() const { return loss.rl_gain() != nullptr; }
  // Whether the data is limited: a finite data.unique_tokens or a cap on the tokens.
  bool limits_data() const { return loss.repetition() != nullptr || max_pretrain_tokens; }
  // The same setup with unlimited fresh data: no repetition in the loss, no cap.
  QuestionSetup unlimited() const;
  // The terms and the question of the optimum (equal-cost: the cheapest plan at the
  // heuristic's loss).
  LifecycleTerms terms() const;
  LifecycleQuestion question() const;
};

// Validates the inputs and builds the setup. Throws InputError naming the key.
QuestionSetup question_setup(const LifetimeInputs& inputs, const LossLaw& law,
                             const ProblemSpec& spec);

// The problem NLopt solves for the setup: the lifecycle problem of its terms and question.
std::unique_ptr<Problem> optimisation_problem(const QuestionSetup& setup);

// The equal-cost heuristic's plan (closed form): N given, the tokens from the shares, and with
// [rl.returns] the gain of its RL tokens (at least one).
LifetimePlan heuristic_plan(const QuestionSetup& setup);
// Why the heuristic's D is below what its pretraining share buys (problem.max_pretrain_tokens,
// named with both counts); empty when the cap does not hold it.
std::string heuristic_cap_note(const QuestionSetup& setup);

// The parts of a plan's answer every path fills alike: the plan, active and total parameters,
// RL and inference tokens, the RL gain and what limited data did.
QuestionAnswer answer_sizes(const LifetimePlan& plan, const QuestionSetup& setup);

// The law an answer is read against: a joint law at the answer's chosen experts, else `law`
// (what its extrapolations and the Chinchilla comparison use).
LossLaw law_of_answer(const LossLaw& law, const QuestionAnswer& answer);

// The serving fleet of a plan of `active_params` (QuestionAnswer::fleet): nullopt for a FLOPs
// question, a cost with no fleet (fixed MFUs, no demand) or a plan it cannot serve.
std::optional<FleetPlan> fleet_at(const QuestionSetup& setup, double active_params);
// The same at `total_params` apart (the experts chosen).
std::optional<FleetPlan> fleet_at(const QuestionSetup& setup, double active_params,
                                  double total_params);

// The chips and wall time of a pretraining run of `pretrain_flops` on the setup's cluster.
TrainingRunAnswer training_run_at(double pretrain_flops, const QuestionSetup& setup);
// The plan's pretraining run: its chips and wall time, and what the deadline and the
// pretraining budget are worth (their multipliers).
TrainingRunAnswer training_run_of(const LifetimePlan& plan, const QuestionSetup& setup);

// The answer of a plan under the setup: answer_sizes, the shares, the Chinchilla comparison at
// the plan's RL tokens.
QuestionAnswer answer_for(const LifetimePlan& plan, const QuestionSetup& setup);

// The NLopt path: the solve of solve_question(inputs, law, spec, options) on a built setup.
QuestionSolution solve_question(const QuestionSetup& setup, const SolverOptions& options = {});

}  // namespace scaleopt
