#pragma once
// RL as a budget the optimiser chooses (docs/model.md, "RL returns"). With a returns model the
// loss is
//
//   L(N, D, D_RL) = E + A / N^alpha + B / (g(r) D)^beta,   r = C_RL / C_pretrain = k D_RL / (6 D)
//
// (g of costmodel/rl_returns.hpp, k the RL FLOPs per parameter per rollout token), and the
// questions optimise (N, D, D_RL) together:
//
//   at a loss:    minimise  cost(N, D, D_RL)  s.t.  L(N, D, D_RL) = target
//   at a budget:  minimise  L(N, D, D_RL)     s.t.  cost(N, D, D_RL) <= budget
//
// solved by NLopt SLSQP over (ln N, ln D, ln D_RL) with analytic gradients, KKT polish and
// check (solver/minimize.hpp). An independent reference where costs are linear in N (FLOPs,
// fixed MFUs): the cost is then a N D + b N D_RL + c N, and with the effective data
// D_eff = g(r) D it reads a N D_eff m(r) + c N with m(r) = (1 + kappa r) / g(r),
// kappa = 6 b / (k a) (the cost of an RL FLOP relative to a pretraining FLOP). r enters nowhere
// else, so r* minimises m alone (TOMS 748 on d ln m / d ln r), and (N, D_eff) solve the problem
// without RL whose pretraining costs m* times as much: the 1-D reductions of
// problems/at_loss/lifetime_at_loss.hpp and problems/at_budget/quality_at_budget.hpp with
// inference (and budget) divided by m*.

#include <optional>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/costmodel/rl_returns.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// The law with the RL gain, and the RL tokens' lower bound.
struct RlReturnsLaw {
  LossLaw law;
  RlReturns returns;
  double rl_flops_per_param_token = 2.0;  // k (2 + 6 trained fraction + 2 extra passes)
  double min_rl_tokens = 1.0;             // the rollout tokens' lower bound (>= 1)

  // ln r = ln(k / 6) + ln D_RL - ln D.
  double log_ratio(double log_tokens, double log_rl_tokens) const;
  double loss(double params, double tokens, double rl_tokens) const;
};

// The loss at x = (ln N, ln D, ln D_RL) with its gradient, the gain and the ratio.
struct RlLoss {
  double loss;
  double d_log_params, d_log_tokens, d_log_rl_tokens;
  double gain;   // g(r)
  double ratio;  // r = C_RL / C_pretrain (FLOPs)
};
RlLoss rl_loss(const RlReturnsLaw& law, double log_params, double log_tokens, double log_rl_tokens);

// A plan with its chosen RL tokens.
struct RlPlan {
  LifetimePlan plan;  // plan.cost includes RL at rl_tokens; plan.loss includes the gain
  double rl_tokens = 0.0;
  double gain = 1.0;
  double compute_ratio = 0.0;
};

// The plan at (N, D, D_RL): loss with the gain, costs with D_RL rollout tokens.
RlPlan rl_plan_at(const RlReturnsLaw& law, const LifetimeCostModel& model, CostUnit unit,
                  double params, double tokens, double rl_tokens);

// minimise ln cost s.t. (L - target) / (target - E) = 0 over (ln N, ln D, ln D_RL).
class RlAtLossProblem final : public Problem {
 public:
  RlAtLossProblem(RlReturnsLaw law, double target_loss, LifetimeCostModel model, CostUnit unit);
  std::size_t dimension() const override { return 3; }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t equality_count() const override { return 1; }
  double equality(std::size_t i, std::span<const double> x,
                  std::span<double> gradient) const override;

 private:
  RlReturnsLaw law_;
  double target_loss_;
  LifetimeCostModel model_;  // rl_tokens = 0: RL is added at the chosen D_RL
  CostUnit unit_;
};

// minimise L s.t. ln cost - ln budget <= 0 over (ln N, ln D, ln D_RL), N >= min_params.
class RlAtBudgetProblem final : public Problem {
 public:
  RlAtBudgetProblem(RlReturnsLaw law, LifetimeCostModel model, CostUnit unit, double budget,
                    double min_params);
  std::size_t dimension() const override { return 3; }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t inequality_count() const override { return 1; }
  double inequality(std::size_t j, std::span<const double> x,
                    std::span<double> gradient) const override;

 private:
  RlReturnsLaw law_;
  LifetimeCostModel model_;
  CostUnit unit_;
  double log_budget_;
  double log_min_params_;
};

// NLopt, cross-checked by the reduction where costs are linear and r* is above its bound
// (reference_relative_difference: the largest relative difference in N, D and D_RL).
RlPlan min_cost_at_loss_with_rl(const RlReturnsLaw& law, double target_loss,
                                const LifetimeCostModel& model, CostUnit unit,
                                const SolverOptions& options = {});
RlPlan max_quality_with_rl(const RlReturnsLaw& law, const LifetimeCostModel& model, CostUnit unit,
                           double budget, double min_params, const SolverOptions& options = {});

// r* = argmin (1 + kappa r) / g(r) over r >= min_ratio: a scan in ln r for the basin (m need
// not be convex when h > 1), then TOMS 748 on d ln m / d ln r. cost_factor = m(r*).
struct RlRatioOptimum {
  double ratio;
  double cost_factor;
  bool at_lower_bound;
};
RlRatioOptimum optimal_rl_ratio(const RlReturns& returns, double kappa, double min_ratio);

// The reductions alone (linear costs only; nullopt otherwise, or when r* sits at its bound,
// where the bound in tokens couples r to D and the reduction no longer separates).
std::optional<RlPlan> min_cost_at_loss_with_rl_reduced(const RlReturnsLaw& law, double target_loss,
                                                       const LifetimeCostModel& model,
                                                       CostUnit unit);
std::optional<RlPlan> max_quality_with_rl_reduced(const RlReturnsLaw& law,
                                                  const LifetimeCostModel& model, CostUnit unit,
                                                  double budget, double min_params);

}  // namespace scaleopt
