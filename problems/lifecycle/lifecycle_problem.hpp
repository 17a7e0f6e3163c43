#pragma once
// The one problem every lifecycle question is solved as (in the manner of Ceres, which builds a
// Problem from residual blocks): the decision variables (problems/lifecycle/decision.hpp), a
// loss term with its effective-data transforms (problems/lifecycle/loss_term.hpp), the cost
// terms of a model's life (problems/lifetime/lifetime_cost_model.hpp: pretraining, RL,
// inference) and constraint terms, each with a value and a gradient in x:
//
//   at a target loss:  minimise ln cost(x)  s.t.  (L(x) - target) / (target - E) = 0
//   within a budget:   minimise L(x)        s.t.  ln cost(x) - ln budget <= 0
//
// The questions of problems/question/ say which terms they use. A new variable is an entry of
// the layout and of the terms that depend on it; a new constraint is a new ConstraintTerm.

#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/problems/lifecycle/decision.hpp"
#include "scaleopt/problems/lifecycle/expert_choice.hpp"
#include "scaleopt/problems/lifecycle/loss_term.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

// The terms a lifecycle question is built from.
struct LifecycleTerms {
  DecisionLayout layout;   // N, D, and D_RL and E when they are chosen
  LossTerm loss;           // the law with its effective-data transforms
  LifetimeCostModel cost;  // its rl_tokens are the fixed ones; 0 when D_RL is a variable
  CostUnit unit = CostUnit::usd;
  double min_params = 1.0;  // the smallest N considered (max-quality's problem.min_params)
  // With E chosen (problems/lifecycle/experts_solve.hpp): its bounds and how it sets N_total.
  std::optional<ExpertChoice> experts;

  // The cost in `unit` at x with its gradient: pretraining, RL on the fixed tokens and
  // inference (LifetimeCostModel::total), plus RL on the chosen tokens when D_RL is a variable;
  // with E chosen, priced at N_total = N m(E) (LifetimeCostModel::total_at).
  struct CostValue {
    double value = 0.0;
    DecisionGradient gradient{};
  };
  CostValue cost_at(std::span<const double> x) const;
  LossTerm::Value loss_at(std::span<const double> x) const { return loss.at(layout, x); }
};

// The terms of a question: `cost`'s RL tokens are zeroed when `loss` has an RL gain (D_RL is
// then a variable). Throws InputError for a law or cost model that is not valid.
LifecycleTerms lifecycle_terms(LossTerm loss, LifetimeCostModel cost, CostUnit unit,
                               double min_params = 1.0);

// The plan at `counts` (N, D and, when the layout has it, D_RL: counts, not logarithms): its
// loss with the transforms' report, and its costs with RL on the chosen or the fixed tokens.
// The solve is left for the caller to fill.
LifetimePlan plan_at(const LifecycleTerms& terms, std::span<const double> counts);

// A constraint, dimensionless and of order one near the solution: = 0 or <= 0.
class ConstraintTerm {
 public:
  enum class Sense { equal, at_most };
  virtual ~ConstraintTerm() = default;
  virtual Sense sense() const = 0;
  // The key it is known by in an answer ("target_loss", "budget").
  virtual std::string_view name() const = 0;
  virtual double value(const LifecycleTerms& terms, std::span<const double> x,
                       std::span<double> gradient) const = 0;
};

// (L(x) - target) / (target - E) = 0: the relative error of the reducible loss, so that one
// constraint tolerance suits every target.
class TargetLossConstraint final : public ConstraintTerm {
 public:
  explicit TargetLossConstraint(double target_loss) : target_loss_(target_loss) {}
  Sense sense() const override { return Sense::equal; }
  std::string_view name() const override { return "target_loss"; }
  double value(const LifecycleTerms& terms, std::span<const double> x,
               std::span<double> gradient) const override;
  double target_loss() const { return target_loss_; }

 private:
  double target_loss_;
};

// ln cost(x) - ln budget <= 0, the budget in the terms' unit.
class BudgetConstraint final : public ConstraintTerm {
 public:
  explicit BudgetConstraint(double budget) : budget_(budget), log_budget_(std::log(budget)) {}
  Sense sense() const override { return Sense::at_most; }
  std::string_view name() const override { return "budget"; }
  double value(const LifecycleTerms& terms, std::span<const double> x,
               std::span<double> gradient) const override;
  double budget() const { return budget_; }

 private:
  double budget_;
  double log_budget_;
};

// ln D - ln D_max <= 0: a hard cap on the pretraining tokens (problem.max_pretrain_tokens). Its
// multiplier mu is d(objective*) / d ln D_max with the sign reversed: what the objective gains
// when the cap grows by a factor e; mu / D_max per token (times the cost where the objective is
// ln cost).
class MaxPretrainTokensConstraint final : public ConstraintTerm {
 public:
  explicit MaxPretrainTokensConstraint(double max_pretrain_tokens)
      : max_pretrain_tokens_(max_pretrain_tokens), log_max_(std::log(max_pretrain_tokens)) {}
  Sense sense() const override { return Sense::at_most; }
  std::string_view name() const override { return "max_pretrain_tokens"; }
  double value(const LifecycleTerms& terms, std::span<const double> x,
               std::span<double> gradient) const override;
  double max_pretrain_tokens() const { return max_pretrain_tokens_; }

 private:
  double max_pretrain_tokens_;
  double log_max_;
};

// ln(6 N D) - ln C_max <= 0: a cap on the pretraining FLOPs. It is a pretraining budget (the
// dollars or chip-hours of best-at-pretraining-budget at the training setup's FLOP rate, named
// "pretraining_budget") or what the training chips compute by training.deadline ("deadline").
// Its multiplier mu is d(objective*) / d ln C_max with the sign reversed: what the objective
// gains when the cap, and so the budget or the schedule, grows by a factor e.
class PretrainingComputeConstraint final : public ConstraintTerm {
 public:
  // `description` says what sets the cap, for messages ("training.deadline = 90d on 16,384
  // chips").
  PretrainingComputeConstraint(double max_flops, std::string_view name, std::string description)
      : max_flops_(max_flops),
        log_max_(std::log(max_flops)),
        name_(name),
        description_(std::move(description)) {}
  Sense sense() const override { return Sense::at_most; }
  std::string_view name() const override { return name_; }
  double value(const LifecycleTerms& terms, std::span<const double> x,
               std::span<double> gradient) const override;
  double max_flops() const { return max_flops_; }
  const std::string& description() const { return description_; }

 private:
  double max_flops_;
  double log_max_;
  std::string_view name_;
  std::string description_;
};

enum class LifecycleObjective {
  cost,  // ln cost in the terms' unit
  loss,  // the loss itself
};

// What a question asks of the terms: an objective and its constraints. The first constraint
// is the question's own (the target loss of a cost objective, the budget of a loss
// objective): the start of the search comes from it.
struct LifecycleQuestion {
  LifecycleObjective objective = LifecycleObjective::cost;
  std::vector<std::shared_ptr<const ConstraintTerm>> constraints;

  // The cheapest plan at `target_loss`, the best loss within `budget`.
  static LifecycleQuestion at_target_loss(double target_loss);
  static LifecycleQuestion within_budget(double budget);
  // The lowest loss whose pretraining fits `max_flops` (a pretraining budget as FLOPs).
  static LifecycleQuestion within_pretraining_compute(double max_flops, std::string description);
  // The question's own constraint, as its type, or null.
  const TargetLossConstraint* target() const;
  const BudgetConstraint* budget() const;
  // The cap on pretraining tokens among the constraints, or null.
  const MaxPretrainTokensConstraint* token_cap() const;
  // The question's own pretraining budget (within_pretraining_compute), or null.
  const PretrainingComputeConstraint* pretraining_budget() const;
  // The tightest cap on the pretraining FLOPs among the constraints (the pretraining budget or
  // the deadline's), or null.
  const PretrainingComputeConstraint* tightest_compute_cap() const;
  // The position among the inequalities (the order of SolveResult::inequality_multipliers) of
  // the constraint called `name`, or -1.
  int inequality_index(std::string_view name) const;
  // Adds the cap D <= max_pretrain_tokens.
  LifecycleQuestion& with_token_cap(double max_pretrain_tokens);
  // Adds the cap 6 N D <= max_flops, called "deadline".
  LifecycleQuestion& with_deadline(double max_flops, std::string description);
};

class LifecycleProblem final : public Problem {
 public:
  LifecycleProblem(LifecycleTerms terms, LifecycleQuestion question);
  std::size_t dimension() const override { return terms_.layout.dimension(); }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  // At a target loss: the Chinchilla point of the target; within a budget: half of it (a
  // quarter with RL chosen) on pretraining at 20 tokens per parameter, a rule of thumb
  // independent of the references the answer is checked against. With RL chosen, the ratio
  // best at that N (problems/rl_returns/rl_returns_plan.hpp).
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t equality_count() const override { return equalities_.size(); }
  double equality(std::size_t i, std::span<const double> x,
                  std::span<double> gradient) const override;
  std::size_t inequality_count() const override { return inequalities_.size(); }
  double inequality(std::size_t j, std::span<const double> x,
                    std::span<double> gradient) const override;

  const LifecycleTerms& terms() const { return terms_; }
  const LifecycleQuestion& question() const { return question_; }

 private:
  LifecycleTerms terms_;
  LifecycleQuestion question_;
  std::vector<const ConstraintTerm*> equalities_, inequalities_;
  // With E chosen and the replica's totals bounded: the servability constraint, the last
  // inequality (after the question's, whose indices it leaves as they are).
  std::shared_ptr<const ConstraintTerm> servable_total_;
};

}  // namespace scaleopt
