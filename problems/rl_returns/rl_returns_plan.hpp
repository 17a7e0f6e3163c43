#pragma once
// RL as a budget the optimiser chooses (docs/model.md, "RL returns"). With a returns model the
// loss is
//
//   L(N, D, D_RL) = E + A / N^alpha + B / (g(r) D)^beta,   r = C_RL / C_pretrain = k D_RL / (6 D)
//
// (the RL gain transform of problems/lifecycle/loss_term.hpp; k the RL FLOPs per parameter per
// rollout token), and the lifecycle problem (problems/lifecycle/lifecycle_problem.hpp) optimises
// (N, D, D_RL) together. Here is the independent reference NLopt is checked against where costs
// are linear in N (FLOPs, fixed MFUs): the cost is then a N D + b N D_RL + c N, and with the
// effective data D_eff = g(r) D it reads a N D_eff m(r) + c N with m(r) = (1 + kappa r) / g(r),
// kappa = 6 b / (k a) (the cost of an RL FLOP relative to a pretraining FLOP). r enters nowhere
// else, so r* minimises m alone (TOMS 748 on d ln m / d ln r), and (N, D_eff) solve the problem
// without RL whose pretraining costs m* times as much: the 1-D reductions of
// problems/at_loss/lifetime_at_loss.hpp and problems/at_budget/quality_at_budget.hpp with
// inference (and budget) divided by m*.

#include <optional>
#include <vector>

#include "scaleopt/costmodel/rl_returns.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

// r* = argmin (1 + kappa r) / g(r) over r >= min_ratio: a scan in ln r for the basin (m need
// not be convex when h > 1), then TOMS 748 on d ln m / d ln r. cost_factor = m(r*).
struct RlRatioOptimum {
  double ratio;
  double cost_factor;
  bool at_lower_bound;
};
RlRatioOptimum optimal_rl_ratio(const RlReturns& returns, double kappa, double min_ratio);

// A start for (ln N, ln D, ln D_RL) from (ln N, ln D_eff): the ratio that is best for kappa at
// this N, with D_eff = g D held, ln D_RL within [ln min_rl_tokens, upper_log_rl_tokens].
std::vector<double> rl_start(const RlGainTransform& gain, const LifetimeCostModel& model,
                             CostUnit unit, double log_params, double log_effective_tokens,
                             double upper_log_rl_tokens);

// The reductions (linear costs only; nullopt otherwise, or when r* sits at its bound, where
// the bound in tokens couples r to D and the reduction no longer separates). `terms` has an RL
// gain in its loss (D_RL a variable).
std::optional<LifetimePlan> min_cost_at_loss_with_rl_reduced(const LifecycleTerms& terms,
                                                             double target_loss);
std::optional<LifetimePlan> max_quality_with_rl_reduced(const LifecycleTerms& terms, double budget);

}  // namespace scaleopt
