#pragma once
// The experts as a decision variable of the lifecycle problem (docs/model.md, "Experts chosen"):
// with a joint dense/MoE law (costmodel/joint_loss_law.hpp) a question chooses E, the paper's
// count of top-1 experts each as large as the dense FFN, with N_active, D (and D_RL). The law
// sees E; the cost sees the total parameters it implies,
//
//   N_total = N_active m(E),   m(E) = 1 - f + f E,
//
// with f the share of N_active that is the one routed FFN a token uses (the rest, attention,
// embeddings and shared experts, is not multiplied). Pretraining and every FLOP follow
// N_active; serving and rollouts priced by the roofline read N_total's weights
// (LifetimeCostModel::total_at), and the replica must hold them: a constraint
// ln N_active + ln m <= ln N_total,max beside the bounds m(min_experts) <= m <= m(max_experts).
// The variable is ln m (problems/lifecycle/decision.hpp), E follows from it.
//
// The independent reference is the problem at a fixed E, which every existing reduction
// answers, minimised over E (experts_reference in problems/lifecycle/experts_solve.hpp).

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

// The largest E of the runs Ludziejewski et al. 2025 fitted their law on (App. E): the upper
// bound a question uses when neither problem.max_experts nor the law's range gives one.
inline constexpr double kDefaultMaxExperts = 32.0;

struct ExpertChoice {
  double min_experts = 1.0;                 // problem.min_experts (1: dense)
  double max_experts = kDefaultMaxExperts;  // problem.max_experts
  // f: the share of N_active in the routed FFN of a top-1 layer, in (0, 1).
  double expert_share = 2.0 / 3.0;

  // m(E) = N_total / N_active.
  double expansion(double experts) const { return 1.0 - expert_share + expert_share * experts; }
  // E at an expansion m: 1 + (m - 1) / f.
  double experts_at(double expansion) const { return 1.0 + (expansion - 1.0) / expert_share; }
  // d ln E / d ln m = m / (f E).
  double log_experts_slope(double expansion) const {
    return expansion / (expert_share * experts_at(expansion));
  }
  // Throws InputError naming `prefix`.min_experts / max_experts / expert_share when the bounds
  // are not 1 <= min <= max <= 1e6 or the share is not in (0, 1).
  void validate(std::string_view prefix = "problem") const;
};

// problem.max_experts when not given: the largest E of the law's runs (its fitted range), else
// kDefaultMaxExperts; at least `min_experts`.
inline double default_max_experts(const LossLaw& law, double min_experts) {
  const std::optional<FittedRange>& range = law.fitted_range;
  const double largest = range && range->max_experts ? *range->max_experts : kDefaultMaxExperts;
  return std::max(min_experts, largest);
}

// Where a search over E starts: the middle of its bounds in ln E.
inline double start_experts(const ExpertChoice& experts) {
  return std::sqrt(experts.min_experts * experts.max_experts);
}

// f of an architecture, and where it comes from in words (an assumption every answer lists):
//  - a mixture of experts with a shape: (m0 - 1) / (E0 - 1), m0 its total / active parameters,
//    E0 = routed / per-token experts (the E law.experts defaults to), so that m(E0) = m0;
//  - a dense shape: its FFN parameters (gated, three matrices a layer) over its parameters;
//  - otherwise, or where those fall outside (0, 1): 2/3, the FFN's share of a standard
//    transformer block (4 d^2 attention, 8 d^2 FFN at a hidden size of 4 d), embeddings aside.
struct ExpertShare {
  double share = 2.0 / 3.0;
  std::string source;
};
ExpertShare expert_share_of(const Architecture& architecture);

}  // namespace scaleopt
