#include "scaleopt/problems/lifecycle/loss_term.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/costmodel/data_repetition.hpp"

namespace scaleopt {

double RlGainTransform::log_ratio(double log_tokens, double log_rl_tokens) const {
  return std::log(rl_flops_per_param_token_ / 6.0) + log_rl_tokens - log_tokens;
}

void RlGainTransform::apply(const DecisionLayout& layout, std::span<const double> x,
                            EffectiveData& data, TransformReport& report) const {
  const std::size_t rl = layout.at(DecisionVariable::rl_tokens);
  const double log_ratio_value = log_ratio(x[layout.at(DecisionVariable::pretrain_tokens)], x[rl]);
  const RlGain g = rl_gain(returns_, log_ratio_value);
  // ln D_eff = ln D + ln g(r); d ln g / d ln D = -e and d ln g / d ln D_RL = e.
  data.log_tokens += std::log(g.gain);
  data.gradient[layout.at(DecisionVariable::pretrain_tokens)] -= g.elasticity;
  data.gradient[rl] += g.elasticity;
  report.rl_gain = g.gain;
  report.rl_compute_ratio = std::exp(log_ratio_value);
}

RepetitionTransform::RepetitionTransform(const LossLaw& law, double unique_tokens,
                                         std::string_view field)
    : law_(law), unique_tokens_(unique_tokens), field_(field) {
  validate_unique_tokens(unique_tokens, field);
  log_unique_tokens_ = std::log(unique_tokens);
}

void RepetitionTransform::apply(const DecisionLayout& layout, std::span<const double>,
                                EffectiveData& data, TransformReport& report) const {
  const std::size_t dims = layout.dimension();
  // U = min(U_D, D): its gradient is D's below the stock, none above. At D = U_D the smooth
  // branch (U = U_D) is taken: both sides give the same D' and elasticity there.
  const bool all_unique = data.log_tokens < log_unique_tokens_;
  const double log_unique = all_unique ? data.log_tokens : log_unique_tokens_;
  const DecisionGradient unique_gradient = all_unique ? data.gradient : DecisionGradient{};

  const RepeatedCount tokens =
      repeated_count(data.log_tokens, log_unique, law_.repeat_decay_tokens);
  // U_N = min(N, D_to_N(U)): with N at or below the frontier, N' = N.
  const double log_frontier = log_frontier_params(law_, log_unique);
  const double frontier_slope = law_.beta / law_.alpha;  // d ln D_to_N / d ln U
  if (data.log_params > log_frontier) {
    const RepeatedCount params =
        repeated_count(data.log_params, log_frontier, law_.repeat_decay_params);
    for (std::size_t i = 0; i < dims; ++i) {
      data.params_gradient[i] = params.d_log_count * data.params_gradient[i] +
                                params.d_log_unique * frontier_slope * unique_gradient[i];
    }
    data.log_params = params.log_effective;
  }
  for (std::size_t i = 0; i < dims; ++i) {
    data.gradient[i] =
        tokens.d_log_count * data.gradient[i] + tokens.d_log_unique * unique_gradient[i];
  }
  data.log_tokens = tokens.log_effective;
  report.repeated_tokens = std::exp(data.log_tokens);
  report.repeated_params = std::exp(data.log_params);
}

const RepetitionTransform* LossTerm::repetition() const {
  for (const auto& transform : transforms_) {
    if (const auto* r = dynamic_cast<const RepetitionTransform*>(transform.get())) return r;
  }
  return nullptr;
}

const RlGainTransform* LossTerm::rl_gain() const {
  for (const auto& transform : transforms_) {
    if (const auto* gain = dynamic_cast<const RlGainTransform*>(transform.get())) return gain;
  }
  return nullptr;
}

LossTerm::Value LossTerm::at(const DecisionLayout& layout, std::span<const double> x) const {
  const std::size_t n = layout.at(DecisionVariable::params);
  const std::size_t d = layout.at(DecisionVariable::pretrain_tokens);
  EffectiveData data;
  data.log_tokens = x[d];
  data.gradient[d] = 1.0;
  data.log_params = x[n];
  data.params_gradient[n] = 1.0;
  Value value;
  for (const auto& transform : transforms_) transform->apply(layout, x, data, value.report);
  if (layout.has(DecisionVariable::expansion)) {
    // The joint law at (ln N_eff, ln D_eff, ln E), E = 1 + (m - 1) / f: the experts enter the
    // law alone (no transform depends on them).
    const std::size_t e = layout.at(DecisionVariable::expansion);
    const double expansion = std::exp(x[e]);
    const double experts = 1.0 + (expansion - 1.0) / expert_share_;
    const JointLossInLogSpace joint =
        joint_loss_in_log_space(*joint_, data.log_params, data.log_tokens, std::log(experts));
    value.loss = joint.loss;
    for (std::size_t i = 0; i < layout.dimension(); ++i) {
      value.gradient[i] =
          joint.d_log_tokens * data.gradient[i] + joint.d_log_params * data.params_gradient[i];
    }
    // d ln E / d ln m = m / (f E).
    value.gradient[e] += joint.d_log_experts * expansion / (expert_share_ * experts);
    return value;
  }
  const double params_term = law_.A * std::exp(-law_.alpha * data.log_params);
  const double data_term = law_.B * std::exp(-law_.beta * data.log_tokens);
  value.loss = law_.E + params_term + data_term;
  // dL/d ln D_eff = -beta B / D_eff^beta and dL/d ln N_eff = -alpha A / N_eff^alpha, carried
  // to x through their gradients (with no transform: ln N_eff = x[n], bit for bit
  // loss_in_log_space).
  const double d_data = -law_.beta * data_term;
  const double d_params = -law_.alpha * params_term;
  for (std::size_t i = 0; i < layout.dimension(); ++i) {
    if (data.gradient[i] != 0.0) value.gradient[i] = d_data * data.gradient[i];
    if (data.params_gradient[i] != 0.0) value.gradient[i] += d_params * data.params_gradient[i];
  }
  return value;
}

}  // namespace scaleopt
