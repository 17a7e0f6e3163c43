#include "scaleopt/costmodel/joint_loss_law.hpp"

#include <cmath>
#include <memory>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

[[noreturn]] void bad_coefficient(std::string_view prefix, std::string_view field,
                                  std::string_view expectation, double value) {
  std::ostringstream message;
  message << prefix << (prefix.empty() ? "" : ".") << field << " must be " << expectation
          << ", got " << value;
  throw InputError(message.str());
}

// Ludziejewski et al. 2025, Appendix E (Experiments Listing): active parameters (embeddings
// included, App. A.1) 79M to 2.7B, total parameters up to 5.0B, 500M to 80B training tokens,
// 1 to 32 experts.
FittedRange ludziejewski_runs() {
  FittedRange range{79e6,
                    2.7e9,
                    500e6,
                    80e9,
                    "Ludziejewski et al. 2025, App. E: 79M to 2.7B active (up to 5.0B total) "
                    "parameters, 500M to 80B tokens, 1 to 32 experts",
                    1.0,
                    32.0,
                    5.0e9};
  return range;
}

}  // namespace

void JointLossLaw::validate(std::string_view prefix) const {
  const std::pair<const char*, double> positive[] = {{"E", E},
                                                     {"a", a},
                                                     {"b", b},
                                                     {"joint.experts_start", experts_start},
                                                     {"joint.experts_max", experts_max}};
  for (const auto& [field, value] : positive) {
    if (!std::isfinite(value) || value <= 0.0)
      bad_coefficient(prefix, field, "finite and positive", value);
  }
  const std::pair<const char*, double> finite[] = {{"alpha", alpha}, {"beta", beta},
                                                   {"delta", delta}, {"gamma", gamma},
                                                   {"omega", omega}, {"zeta", zeta}};
  for (const auto& [field, value] : finite) {
    if (!std::isfinite(value)) bad_coefficient(prefix, field, "finite", value);
  }
  // Eq. 4 needs 1/E_start - 1/E_max > 0: otherwise E^ of a dense model is not E_start.
  if (!(experts_start < experts_max)) {
    bad_coefficient(prefix, "joint.experts_start", "below joint.experts_max", experts_start);
  }
}

double JointLossLaw::transformed_experts(double experts) const {
  const double offset = 1.0 / (1.0 / experts_start - 1.0 / experts_max);
  return 1.0 / (1.0 / (experts - 1.0 + offset) + 1.0 / experts_max);
}

double JointLossLaw::loss(double active_params, double tokens, double experts) const {
  const double log_hat = std::log(transformed_experts(experts));
  return a * std::exp(delta * log_hat) * std::pow(active_params, alpha + gamma * log_hat) +
         b * std::exp(omega * log_hat) * std::pow(tokens, beta + zeta * log_hat) + E;
}

double JointLossLaw::transformed_experts_log_slope(double experts) const {
  const double offset = 1.0 / (1.0 / experts_start - 1.0 / experts_max);
  const double shifted = experts - 1.0 + offset;
  return experts * transformed_experts(experts) / (shifted * shifted);
}

JointLossInLogSpace joint_loss_in_log_space(const JointLossLaw& law, double log_params,
                                            double log_tokens, double log_experts) {
  const double experts = std::exp(log_experts);
  const double h = std::log(law.transformed_experts(experts));
  const double params_exponent = law.alpha + law.gamma * h;
  const double tokens_exponent = law.beta + law.zeta * h;
  const double p = law.a * std::exp(law.delta * h + params_exponent * log_params);
  const double q = law.b * std::exp(law.omega * h + tokens_exponent * log_tokens);
  const double d_h =
      (law.delta + law.gamma * log_params) * p + (law.omega + law.zeta * log_tokens) * q;
  return {p + q + law.E, params_exponent * p, tokens_exponent * q,
          d_h * law.transformed_experts_log_slope(experts)};
}

std::array<double, 9> JointLossLaw::coefficients() const {
  return {E, a, b, alpha, beta, delta, gamma, omega, zeta};
}

std::vector<JointLossLaw> joint_loss_law_presets() {
  // Table 3 ("Fitted coefficients of our joined formula") of Ludziejewski et al. 2025, App. B,
  // as printed, signs included: alpha -0.1889, delta -0.2285, gamma 0.0098, beta -0.1775,
  // omega 0.5529, zeta -0.0259. (Copies elsewhere drop the minus signs or swap those of delta
  // and omega; Table 4's reduction to E = 1 and Table 1's optima check these: tests/.)
  JointLossLaw law;
  law.name = "ludziejewski2025";
  law.E = 1.3637;
  law.a = 35.91;
  law.b = 35.98;
  law.alpha = -0.1889;
  law.beta = -0.1775;
  law.delta = -0.2285;
  law.gamma = 0.0098;
  law.omega = 0.5529;
  law.zeta = -0.0259;
  law.experts_start = 2.0732;
  law.experts_max = 290.4521;
  law.source =
      "Ludziejewski et al. 2025, 'Joint MoE Scaling Laws: Mixture of Experts Can Be Memory "
      "Efficient' (ICML), App. B, Table 3 (FineWeb-Edu, GPT-2 tokenizer; Switch top-1 experts)";
  law.fitted_range = ludziejewski_runs();
  return {law};
}

std::optional<JointLossLaw> find_joint_loss_law_preset(std::string_view name) {
  for (JointLossLaw& law : joint_loss_law_presets()) {
    if (law.name == name) return law;
  }
  return std::nullopt;
}

void set_coefficients_at_experts(LossLaw& law, const JointLossLaw& joint, double experts,
                                 std::string_view key) {
  if (!std::isfinite(experts) || experts < 1.0) {
    std::ostringstream message;
    message << key << " must be at least 1 (1 = dense), got " << experts;
    throw InputError(message.str());
  }
  const double log_hat = std::log(joint.transformed_experts(experts));
  law.E = joint.E;
  law.A = joint.a * std::exp(joint.delta * log_hat);
  law.B = joint.b * std::exp(joint.omega * log_hat);
  law.alpha = -(joint.alpha + joint.gamma * log_hat);
  law.beta = -(joint.beta + joint.zeta * log_hat);
  if (!(law.alpha > 0.0) || !(law.beta > 0.0)) {
    std::ostringstream message;
    message << key << " = " << experts << ": the joint law's exponents there are " << -law.alpha
            << " (params) and " << -law.beta
            << " (tokens); both must be negative (loss falling with N and D)";
    throw InputError(message.str());
  }
  law.experts = experts;
}

LossLaw law_at_experts(const JointLossLaw& joint, double experts, std::string_view key) {
  LossLaw law;
  law.name = joint.name;
  set_coefficients_at_experts(law, joint, experts, key);
  const double hat = joint.transformed_experts(experts);
  std::ostringstream source;
  source << joint.source << ", at " << experts << " expert" << (experts == 1.0 ? "" : "s")
         << " (transformed " << hat << ")";
  law.source = source.str();
  law.fitted_range = joint.fitted_range;
  law.joint = std::make_shared<const JointLossLaw>(joint);
  return law;
}

void reevaluate_at_experts(LossLaw& law, const JointLossLaw& joint, double experts,
                           std::string_view key) {
  LossLaw reduced = law_at_experts(joint, experts, key);
  reduced.repeat_decay_tokens = law.repeat_decay_tokens;
  reduced.repeat_decay_params = law.repeat_decay_params;
  law = std::move(reduced);
}

}  // namespace scaleopt
