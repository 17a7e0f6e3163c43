#pragma once
// A lifetime plan: the model size, its pretraining and RL tokens, the loss it reaches, what
// each phase costs, and how the plan was found.

#include <limits>
#include <optional>
#include <string>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solve_result.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// What the RL returns model made of a plan's RL tokens (docs/model.md, "RL returns").
struct RlReturnsAnswer {
  double gain = 1.0;           // g(r): the compute-equivalent gain on pretraining data
  double compute_ratio = 0.0;  // r = C_RL / C_pretrain in FLOPs
};

struct LifetimePlan {
  double params = 0.0;
  double pretrain_tokens = 0.0;
  // The RL rollout tokens costed: the setup's, or the chosen ones with [rl.returns] (0 when no
  // plan exists).
  double rl_tokens = 0.0;
  double loss = 0.0;
  // With the experts chosen (problems/lifecycle/experts_solve.hpp): the joint law's E and the
  // total parameters N m(E) it implies; absent otherwise.
  std::optional<double> experts;
  std::optional<double> total_params;
  LifetimeCost cost;
  CostUnit unit = CostUnit::flops;            // the unit that was minimised (or budgeted)
  std::optional<RlReturnsAnswer> rl_returns;  // with [rl.returns] only
  SolveResult solve;
  // |NLopt - 1-D reference| / reference on N and D (max); NaN when not cross-checked, and then
  // `reference_message` says why.
  double reference_relative_difference = std::numeric_limits<double>::quiet_NaN();
  std::string reference_message;
};

// The plan at (N, D) with the model's RL tokens: its loss and costs; the solve is left for the
// caller to fill.
LifetimePlan plan_at(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                     double params, double pretrain_tokens);

// NLopt on `problem` from its start; when that fails to converge, or converges to another
// point than the independent `reference` (beyond options.reference_tolerance), once more from
// the reference's point (its message says so), keeping the better verified answer. Either
// way the answer passes the solver's own KKT check to be called converged: on a few extreme
// setups (an optimum pinned where the latency target or the HBM bounds N, the cost rising a
// millionfold faster in ln N than in ln D) SLSQP stops short from a start far away, and where
// the problem is not convex (RL chosen with a gain steeper than linear at small ratios) it can
// stop at a local optimum.
SolveResult minimize_with_restart(const Problem& problem, const LifetimePlan& reference,
                                  const SolverOptions& options);

}  // namespace scaleopt
