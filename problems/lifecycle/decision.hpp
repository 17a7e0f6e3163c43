#pragma once
// The decision a lifecycle question optimises: which quantities are variables, and where each
// sits in the solver's vector x. Every variable is the logarithm of a positive count, since
// they span 1e8..1e15 and NLopt misbehaves on badly scaled variables (docs/model.md, How the
// optimiser solves them). N and D are always variables; the others appear when a question
// chooses them (the RL tokens with [rl.returns], the sparsity with a joint dense/MoE law).
//
// A term of the problem (problems/lifecycle/lifecycle_problem.hpp) reads the variables it
// depends on through the layout and writes its gradient in the same places, so that a new
// variable is a new entry here and in the terms that depend on it, not a new problem class.

#include <array>
#include <cstddef>

namespace scaleopt {

enum class DecisionVariable : unsigned char {
  params,           // ln N: active parameters
  pretrain_tokens,  // ln D: pretraining tokens
  rl_tokens,        // ln D_RL: RL rollout tokens (chosen with [rl.returns])
  // ln m = ln(N_total / N_active), which sets the joint law's experts E = 1 + (m - 1) / f
  // (problems/lifecycle/expert_choice.hpp): in ln m the weights the replica must hold,
  // ln N + ln m, are linear, so that their bound is a linear constraint SLSQP never steps across.
  expansion,
};
inline constexpr std::size_t kDecisionVariableCount = 4;
// The largest dimension of x: every variable present.
inline constexpr std::size_t kMaxDecisionDimension = kDecisionVariableCount;

class DecisionLayout {
 public:
  // N and D only.
  DecisionLayout() = default;
  // N, D and the variables asked for, in DecisionVariable order.
  static DecisionLayout with(bool rl_tokens, bool experts = false) {
    DecisionLayout layout;
    if (rl_tokens) layout.add(DecisionVariable::rl_tokens);
    if (experts) layout.add(DecisionVariable::expansion);
    return layout;
  }

  std::size_t dimension() const { return dimension_; }
  bool has(DecisionVariable v) const { return index_[static_cast<std::size_t>(v)] >= 0; }
  // The index of a variable that is present.
  std::size_t at(DecisionVariable v) const {
    return static_cast<std::size_t>(index_[static_cast<std::size_t>(v)]);
  }
  friend bool operator==(const DecisionLayout&, const DecisionLayout&) = default;

 private:
  void add(DecisionVariable v) {
    index_[static_cast<std::size_t>(v)] = static_cast<int>(dimension_++);
  }
  std::array<int, kDecisionVariableCount> index_{0, 1, -1, -1};
  std::size_t dimension_ = 2;
};

// A gradient with respect to x, of the largest dimension (entries beyond the layout's stay 0).
using DecisionGradient = std::array<double, kMaxDecisionDimension>;

}  // namespace scaleopt
