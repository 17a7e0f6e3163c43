#pragma once
// The loss term of a lifecycle problem: the law L(N, D) = E + A / N^alpha + B / D_eff^beta,
// where D_eff is the pretraining data the law sees once a chain of effective-data transforms
// has been applied to D. Each transform is a term of its own with a value and a gradient in
// the decision variables (problems/lifecycle/decision.hpp):
//
//  - repeated data (docs/model.md, "Repeated data"): with U_D unique tokens, D_eff = D' and
//    N_eff = N' of costmodel/data_repetition.hpp, so the chain carries ln N_eff as well;
//    first in the chain, since it acts on the tokens themselves;
//  - the RL gain (docs/model.md, "RL returns"): D_eff = g(r) D with r = C_RL / C_pretrain
//    = k D_RL / (6 D), so ln D_eff gains ln g, which depends on ln D and ln D_RL.
//
// The law then sees L = E + A / N_eff^alpha + B / D_eff^beta.
//
// The term computes in log space, as every problem optimises: with no transform it is
// loss_in_log_space of costmodel/loss_law.hpp, bit for bit.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/costmodel/rl_returns.hpp"
#include "scaleopt/problems/lifecycle/decision.hpp"

namespace scaleopt {

// ln D_eff and ln N_eff with their gradients with respect to x, as the transforms build them
// up (from ln D and ln N).
struct EffectiveData {
  double log_tokens = 0.0;
  DecisionGradient gradient{};
  double log_params = 0.0;
  DecisionGradient params_gradient{};
};

// What the transforms say of a point besides D_eff (reported with a plan).
struct TransformReport {
  double rl_gain = 1.0;           // g(r)
  double rl_compute_ratio = 0.0;  // r = C_RL / C_pretrain in FLOPs
  double repeated_tokens = 0.0;   // D' with repeated data (0 without)
  double repeated_params = 0.0;   // N' with repeated data (0 without)
};

// One link of the chain: changes ln D_eff and its gradient at x.
class EffectiveDataTransform {
 public:
  virtual ~EffectiveDataTransform() = default;
  virtual void apply(const DecisionLayout& layout, std::span<const double> x, EffectiveData& data,
                     TransformReport& report) const = 0;
};

// The RL gain on pretraining data: needs a layout with D_RL (a variable, or a plan's fixed
// tokens laid out as one).
class RlGainTransform final : public EffectiveDataTransform {
 public:
  RlGainTransform(RlReturns returns, double rl_flops_per_param_token, double min_rl_tokens)
      : returns_(returns),
        rl_flops_per_param_token_(rl_flops_per_param_token),
        min_rl_tokens_(min_rl_tokens) {}

  void apply(const DecisionLayout& layout, std::span<const double> x, EffectiveData& data,
             TransformReport& report) const override;

  const RlReturns& returns() const { return returns_; }
  // k: RL FLOPs per parameter per rollout token (2 + 6 trained fraction + 2 extra passes).
  double rl_flops_per_param_token() const { return rl_flops_per_param_token_; }
  // The rollout tokens' lower bound (>= 1): the variable's bound, and the tokens of a plan
  // that has none chosen.
  double min_rl_tokens() const { return min_rl_tokens_; }
  // ln r = ln(k / 6) + ln D_RL - ln D.
  double log_ratio(double log_tokens, double log_rl_tokens) const;

 private:
  RlReturns returns_;
  double rl_flops_per_param_token_;
  double min_rl_tokens_;
};

// Repeated data: U_D unique tokens, the decay constants of the law (R_D*, R_N*) and its
// frontier D_to_N. Acts on the chain's ln D_eff and ln N_eff as they reach it (ln D and ln N
// when first).
class RepetitionTransform final : public EffectiveDataTransform {
 public:
  // Throws InputError naming `field` for unique tokens that are not a count in [1, 1e30].
  RepetitionTransform(const LossLaw& law, double unique_tokens,
                      std::string_view field = "data.unique_tokens");

  void apply(const DecisionLayout& layout, std::span<const double> x, EffectiveData& data,
             TransformReport& report) const override;

  double unique_tokens() const { return unique_tokens_; }
  // Where the unique tokens were given ("data.unique_tokens", "--unique-tokens"), for messages.
  const std::string& field() const { return field_; }

 private:
  LossLaw law_;
  double unique_tokens_;
  std::string field_;
  double log_unique_tokens_;
};

class LossTerm {
 public:
  LossTerm() = default;
  explicit LossTerm(LossLaw law) : law_(std::move(law)) {}

  // Appends a transform to the chain (applied in the order added).
  LossTerm& then(std::shared_ptr<const EffectiveDataTransform> transform) {
    transforms_.push_back(std::move(transform));
    return *this;
  }

  const LossLaw& law() const { return law_; }
  // A joint dense/MoE law (costmodel/joint_loss_law.hpp) whose experts the problem chooses: at()
  // evaluates it, not law(), when the layout has the expansion m, at E = 1 + (m - 1) / f with
  // f = `expert_share` (problems/lifecycle/expert_choice.hpp). law() stays the reduction at
  // some fixed expert count (its E, the irreducible loss, is the joint law's c).
  LossTerm& choosing_experts(std::shared_ptr<const JointLossLaw> joint, double expert_share) {
    joint_ = std::move(joint);
    expert_share_ = expert_share;
    return *this;
  }
  const JointLossLaw* joint() const { return joint_.get(); }
  const std::shared_ptr<const JointLossLaw>& shared_joint() const { return joint_; }
  // The same chain of transforms on another law, the experts no longer chosen (the question at
  // a fixed E).
  LossTerm with_law(LossLaw law) const {
    LossTerm term = *this;
    term.law_ = std::move(law);
    term.joint_.reset();
    return term;
  }
  bool has_transforms() const { return !transforms_.empty(); }
  std::size_t transform_count() const { return transforms_.size(); }
  // The RL gain of the chain, or null.
  const RlGainTransform* rl_gain() const;
  // Repeated data in the chain, or null.
  const RepetitionTransform* repetition() const;

  struct Value {
    double loss = 0.0;
    DecisionGradient gradient{};  // d L / d x
    TransformReport report;
  };
  // L at x (laid out by `layout`) with its gradient.
  Value at(const DecisionLayout& layout, std::span<const double> x) const;

 private:
  LossLaw law_;
  std::vector<std::shared_ptr<const EffectiveDataTransform>> transforms_;
  std::shared_ptr<const JointLossLaw> joint_;
  double expert_share_ = 0.0;
};

}  // namespace scaleopt
