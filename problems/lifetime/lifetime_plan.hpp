#pragma once
// A lifetime plan: the model size, its pretraining tokens, the loss it reaches, what each
// phase costs, and how the plan was found.

#include <limits>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solve_result.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

struct LifetimePlan {
  double params = 0.0;
  double pretrain_tokens = 0.0;
  double loss = 0.0;
  LifetimeCost cost;
  CostUnit unit = CostUnit::flops;  // the unit that was minimised (or budgeted)
  SolveResult solve;
  // |NLopt - 1-D reference| / reference on N and D (max); NaN when not cross-checked.
  double reference_relative_difference = std::numeric_limits<double>::quiet_NaN();
};

// The plan at (N, D): its loss and costs; the solve is left for the caller to fill.
LifetimePlan plan_at(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                     double params, double pretrain_tokens);

// The plan at a solver's (ln N, ln D), with the solve kept and, when `reference` (an
// independent solve of the same problem) converged, the relative difference to it.
LifetimePlan solved_plan(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                         SolveResult solve, const LifetimePlan& reference);

// NLopt on `problem` from its start; when that fails to converge and the independent
// `reference` converged, once more from the reference's point (its message says so). Either
// way the answer passes the solver's own KKT check to be called converged: on a few extreme
// setups (an optimum pinned where the latency target or the HBM bounds N, the cost rising a
// millionfold faster in ln N than in ln D) SLSQP stops short from a start far away.
SolveResult minimize_with_restart(const Problem& problem, const LifetimePlan& reference,
                                  const SolverOptions& options);

}  // namespace scaleopt
