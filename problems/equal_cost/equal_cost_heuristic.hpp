#pragma once
// The equal-cost heuristic (Pope on Dwarkesh, 2026; docs/model.md, The equal-cost heuristic): when
// one cost falls as another rises, their sum is near its minimum where they are equal. So, for a
// model of N parameters serving a known demand, spend on pretraining and RL what inference costs:
// shares of the lifetime budget (default one third each) fix D_pretrain and D_RL.
//
// Its true optimum is the cheapest plan that reaches the heuristic's loss under the same law,
// with the same RL tokens (the law has no RL term, so RL is held fixed, not traded): the
// inference-aware optimum of lifetime_at_loss.hpp. The two side by side show the cost shares
// at the optimum and how much the heuristic overpays.

#include <optional>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

struct CostShares {
  double pretrain = 1.0 / 3.0;
  double rl = 1.0 / 3.0;
  double inference = 1.0 / 3.0;
  // Each in [0, 1], inference > 0, and the sum 1 to 1e-9; InputError naming the share otherwise.
  void validate() const;
};

struct EqualCostPlan {
  LifetimePlan plan;  // N given; D_pretrain from the shares; status converged (closed form)
  double rl_tokens = 0.0;
};

// The heuristic's token budgets alone (no strings: sweeps and Monte Carlo call it per point).
struct EqualCostTokens {
  double pretrain_tokens = 0.0;
  double rl_tokens = 0.0;
  // The tokens the pretraining share buys: above pretrain_tokens when a cap on the tokens
  // holds D below them (the pretraining share then spends less than it was given).
  double share_pretrain_tokens = 0.0;
  bool capped() const { return share_pretrain_tokens > pretrain_tokens; }
};

// `model`'s RL token count is ignored: the heuristic sets it. Throws InputError when the model
// has no inference demand (the heuristic anchors every budget on it) or no RL price while the
// RL share is positive. With `max_pretrain_tokens` (problem.max_pretrain_tokens) D is at most
// the cap: a plan that will not use more tokens spends only what they cost on pretraining, and
// the RL and inference budgets, anchored on the inference cost, stay as they are.
EqualCostTokens equal_cost_tokens(double params, const LifetimeCostModel& model,
                                  const CostShares& shares, CostUnit unit,
                                  std::optional<double> max_pretrain_tokens = std::nullopt);
EqualCostPlan equal_cost_plan(const LossLaw& law, double params, const LifetimeCostModel& model,
                              const CostShares& shares, CostUnit unit);

// The phase shares of a plan's total cost in `unit` (pretrain, rl, inference).
CostShares cost_shares(const LifetimeCost& cost, CostUnit unit);

}  // namespace scaleopt
