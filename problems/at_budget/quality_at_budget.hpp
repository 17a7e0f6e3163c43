#pragma once
// The best model a lifetime budget buys (max-quality):
//
//   minimise  L(N, D)  subject to  cost(N, D) <= budget   (dollars, accelerator-hours, FLOPs)
//
// with the inference demand and the RL tokens served from the same budget. NLopt solves it as
// the lifecycle problem (problems/lifecycle/lifecycle_problem.hpp); here is the independent
// method it is checked against, the 1-D reduction: at the optimum the budget binds, so
// D(N) = (budget - rl(N) - inference(N)) / (pretraining cost per N*D * N), and the optimum is
// the root of dL/d ln N along it (TOMS 748).

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

struct QualityAtBudgetOptions {
  // Smallest model considered (parameters). Serving the demand with a smaller model is not an
  // option the laws support: Chinchilla's smallest runs have ~4.4e7 parameters.
  double min_params = 1e7;
  void validate() const;
};

// The pretraining tokens a lifetime budget leaves at N once RL and inference are paid:
// D(N) = (budget - rl(N) - inference(N)) / (cost of one N*D of pretraining * N). NaN when the
// budget does not cover them (the iso-cost line of `budget` in the (N, D) plane).
double tokens_within_budget(const LifetimeCostModel& model, CostUnit unit, double budget,
                            double params);

// The 1-D reduction alone. Status infeasible (with the cost of serving the demand at the
// smallest size) when the budget cannot even pay for inference and RL.
LifetimePlan max_quality_at_budget_reduced(const LossLaw& law, const LifetimeCostModel& model,
                                           CostUnit unit, double budget,
                                           const QualityAtBudgetOptions& quality_options = {});

}  // namespace scaleopt
