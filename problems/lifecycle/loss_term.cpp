#include "scaleopt/problems/lifecycle/loss_term.hpp"

#include <cmath>

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
  Value value;
  for (const auto& transform : transforms_) transform->apply(layout, x, data, value.report);
  const double params_term = law_.A * std::exp(-law_.alpha * x[n]);
  const double data_term = law_.B * std::exp(-law_.beta * data.log_tokens);
  value.loss = law_.E + params_term + data_term;
  // dL/d ln D_eff = -beta B / D_eff^beta, carried to x through D_eff's gradient.
  const double d_data = -law_.beta * data_term;
  for (std::size_t i = 0; i < layout.dimension(); ++i) {
    if (data.gradient[i] != 0.0) value.gradient[i] = d_data * data.gradient[i];
  }
  value.gradient[n] += -law_.alpha * params_term;
  return value;
}

}  // namespace scaleopt
