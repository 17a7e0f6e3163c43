#pragma once
// The lifecycle problem with the experts chosen (problems/lifecycle/expert_choice.hpp): its
// terms, its servability constraint, the same question at a fixed E, and the solve held to the
// independent reference over E.

#include <span>
#include <string_view>

#include "scaleopt/problems/lifecycle/expert_choice.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// The terms of a question that chooses the experts: `loss` with its joint law
// (LossTerm::choosing_experts), the cost able to price N_total apart
// (LifetimeCostModel::prices_total). Throws InputError when the law is not joint, the data are
// repeated (data.unique_tokens: the repetition law's constants are fitted at one E), or the
// serving cost cannot price the total apart.
LifecycleTerms lifecycle_terms_choosing_experts(LossTerm loss, LifetimeCostModel cost,
                                                CostUnit unit, ExpertChoice experts,
                                                double min_params = 1.0);

// ln N_active + ln m(E) - ln N_total,max <= 0: the weights of the total fit the replica (and
// meet a latency target's memory side). Added by LifecycleProblem when the bound is finite.
class ServableTotalConstraint final : public ConstraintTerm {
 public:
  Sense sense() const override { return Sense::at_most; }
  std::string_view name() const override { return "max_total_params"; }
  double value(const LifecycleTerms& terms, std::span<const double> x,
               std::span<double> gradient) const override;
};

// The cost model of a fixed E: its size costs priced at N_total = N_active m(E), N bounded by
// the totals the replica holds. What a question with a fixed sparsity solves.
LifetimeCostModel cost_model_at_experts(const LifetimeCostModel& model, double expansion);

// The terms of the same question with E fixed: the law reduced there (law_at_experts), the
// cost at its expansion; the layout without E.
LifecycleTerms terms_at_experts(const LifecycleTerms& terms, double experts);

// The reference: the question at fixed E, answered by its own independent reduction
// (lifecycle_reference), minimised over ln E by a grid of 9 points and Brent's method between
// the best one's neighbours. Its x is (ln N, ln D[, ln D_RL], ln m); its E is located to ~1e-6
// relative, where a smooth minimum's objective is within ~1e-11 of its least. Status infeasible
// when no E admits a plan, not_converged when the reduction answers at none.
LifetimePlan experts_reference(const LifecycleTerms& terms, const LifecycleQuestion& question);

// The question solved by NLopt (with its KKT check) and held to experts_reference: the two
// objectives must agree to options.reference_tolerance (relative in cost, absolute in loss),
// else the answer is not_converged.
LifetimePlan solve_choosing_experts(const LifecycleTerms& terms, const LifecycleQuestion& question,
                                    const SolverOptions& options);

}  // namespace scaleopt
