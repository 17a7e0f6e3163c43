#pragma once
// The best model a lifetime budget buys (max-quality):
//
//   minimise  L(N, D)  subject to  cost(N, D) <= budget   (dollars, accelerator-hours, FLOPs)
//
// with the inference demand and the RL tokens served from the same budget. Solved by NLopt
// SLSQP over (ln N, ln D) and cross-checked by the 1-D reduction: at the optimum the budget
// binds, so D(N) = (budget - rl(N) - inference(N)) / (pretraining cost per N*D * N), and the
// optimum is the root of dL/d ln N along it (TOMS 748).

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

struct QualityAtBudgetOptions {
  // Smallest model considered (parameters). Serving the demand with a smaller model is not an
  // option the laws support: Chinchilla's smallest runs have ~4.4e7 parameters.
  double min_params = 1e7;
  void validate() const;
};

// minimise L(e^x0, e^x1) s.t. ln cost - ln budget <= 0.
class QualityAtBudgetProblem final : public Problem {
 public:
  QualityAtBudgetProblem(LossLaw law, LifetimeCostModel model, CostUnit unit, double budget,
                         double min_params);
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t inequality_count() const override { return 1; }
  double inequality(std::size_t j, std::span<const double> x,
                    std::span<double> gradient) const override;

 private:
  LossLaw law_;
  LifetimeCostModel model_;
  CostUnit unit_;
  double log_budget_;
  double log_min_params_;
};

// NLopt, cross-checked by the 1-D reduction. Status infeasible (with the cost of serving the
// demand at the smallest size) when the budget cannot even pay for inference and RL.
LifetimePlan max_quality_at_budget(const LossLaw& law, const LifetimeCostModel& model,
                                   CostUnit unit, double budget,
                                   const QualityAtBudgetOptions& quality_options = {},
                                   const SolverOptions& options = {});

// The pretraining tokens a lifetime budget leaves at N once RL and inference are paid:
// D(N) = (budget - rl(N) - inference(N)) / (cost of one N*D of pretraining * N). NaN when the
// budget does not cover them (the iso-cost line of `budget` in the (N, D) plane).
double tokens_within_budget(const LifetimeCostModel& model, CostUnit unit, double budget,
                            double params);

// The 1-D reduction alone.
LifetimePlan max_quality_at_budget_reduced(const LossLaw& law, const LifetimeCostModel& model,
                                           CostUnit unit, double budget,
                                           const QualityAtBudgetOptions& quality_options = {});

}  // namespace scaleopt
