#pragma once
// The cheapest lifetime plan that reaches a target loss (Sardana et al. 2024, Eq. 3):
//
//   minimise  cost(N, D) = pretrain(N, D) + rl(N) + inference(N)   (FLOPs, hours or dollars)
//   subject to L(N, D) = target.
//
// No closed form exists once inference is paid for. Two independent solvers:
//  - NLopt SLSQP over (ln N, ln D) with analytic gradients (the general method);
//  - the 1-D reduction: the constraint gives D(N) = (B / (target - E - A N^-alpha))^(1/beta),
//    and the optimum is the root of d ln cost / d ln N, found by TOMS 748 (Boost.Math).
// With no inference and no RL both return the Chinchilla frontier point for the target.

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// minimise ln cost(e^x0, e^x1) s.t. (L - target) / (target - E) = 0.
class LifetimeAtLossProblem final : public Problem {
 public:
  LifetimeAtLossProblem(LossLaw law, double target_loss, LifetimeCostModel model, CostUnit unit);
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  std::vector<double> start() const override;  // the Chinchilla point for the target
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t equality_count() const override { return 1; }
  double equality(std::size_t i, std::span<const double> x,
                  std::span<double> gradient) const override;

 private:
  LossLaw law_;
  double target_loss_;
  LifetimeCostModel model_;
  CostUnit unit_;
};

// NLopt, cross-checked against the 1-D reduction (reference_relative_difference).
// Status infeasible when target <= E (or beyond 1e30 parameters or tokens).
LifetimePlan min_lifetime_cost_at_loss(const LossLaw& law, double target_loss,
                                       const LifetimeCostModel& model, CostUnit unit,
                                       const SolverOptions& options = {});

// The 1-D reduction alone (TOMS 748 on d ln cost / d ln N): the fast path.
LifetimePlan min_lifetime_cost_at_loss_reduced(const LossLaw& law, double target_loss,
                                               const LifetimeCostModel& model, CostUnit unit);

// The pretraining tokens that reach `target_loss` with N parameters: the constraint solved for
// D. NaN when N is too small to reach the target at any D.
double tokens_for_loss(const LossLaw& law, double target_loss, double params);

}  // namespace scaleopt
