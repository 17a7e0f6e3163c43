#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/solver/minimize.hpp"

namespace scaleopt {

LifetimePlan plan_at(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                     double params, double pretrain_tokens) {
  LifetimePlan plan;
  plan.params = params;
  plan.pretrain_tokens = pretrain_tokens;
  plan.rl_tokens = model.rl_tokens;
  plan.loss = law.loss(params, pretrain_tokens);
  plan.cost = model.cost(params, pretrain_tokens);
  plan.unit = unit;
  return plan;
}

SolveResult minimize_with_restart(const Problem& problem, const LifetimePlan& reference,
                                  const SolverOptions& options) {
  SolveResult first = minimize(problem, options);
  if (first.converged() || !reference.solve.converged() || reference.solve.x.empty()) return first;
  SolveResult again = minimize(StartedAt(problem, reference.solve.x), options);
  if (!again.converged()) return first;
  again.message = "restarted from the 1-D reduction's point: " + again.message;
  return again;
}

}  // namespace scaleopt
