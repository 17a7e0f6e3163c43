#pragma once
// The joint loss law of dense and mixture-of-experts models (Ludziejewski et al. 2025, "Joint
// MoE Scaling Laws: Mixture of Experts Can Be Memory Efficient", ICML 2025, arXiv:2502.05172,
// Eq. 6):
//
//   L(N_act, D, E^) = a E^^delta N_act^(alpha + gamma ln E^) + b E^^omega D^(beta + zeta ln E^) + c
//
// with E^ the transformed expert count of their Eq. 4 (after Clark et al. 2022):
//
//   1 / E^ = 1 / (E - 1 + (1/E_start - 1/E_max)^-1) + 1 / E_max,
//
// E the experts of a top-1 (Switch) layer, each as large as the dense FFN (E = 1: dense, where
// E^ = E_start). The exponents keep the paper's signs: alpha and beta are negative (Table 3).
//
// At a fixed E the law is a Chinchilla law in (N_act, D), exactly: law_at_experts below, which
// is how every question with a fixed architecture uses it (docs/model.md, Joint law).

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

// The coefficient names in the order JointLossLaw::coefficients() gives them, as a law file's
// [law.joint] table and `fit --experts-col` name them (the irreducible loss is law.E).
inline constexpr std::array<const char*, 9> kJointCoefficientNames = {
    "E", "a", "b", "alpha", "beta", "delta", "gamma", "omega", "zeta"};

struct JointLossLaw {
  std::string name = "custom-joint";
  double E = 0.0;      // irreducible loss c (nats per token); the key law.E, as for every law
  double a = 0.0;      // parameter-term coefficient
  double b = 0.0;      // data-term coefficient
  double alpha = 0.0;  // parameter exponent at E^ = 1 (negative)
  double beta = 0.0;   // data exponent at E^ = 1 (negative)
  double delta = 0.0;  // power of E^ in the parameter term's coefficient
  double gamma = 0.0;  // change of the parameter exponent per unit of ln E^
  double omega = 0.0;  // power of E^ in the data term's coefficient
  double zeta = 0.0;   // change of the data exponent per unit of ln E^
  // The saturation of Eq. 4: E^ starts at experts_start for a dense model and approaches
  // experts_max as E grows.
  double experts_start = 0.0;
  double experts_max = 0.0;
  std::string source;
  // Standard errors in kJointCoefficientNames' order, e.g. from `fit --experts-col
  // --bootstrap`; absent for the preset (the paper publishes none).
  std::optional<std::array<double, 9>> standard_errors;
  // The runs' range, experts included (min_experts, max_experts).
  std::optional<FittedRange> fitted_range;

  // Throws InputError naming the first bad coefficient: E, a, b, experts_start and experts_max
  // finite and positive, experts_start < experts_max, the others finite. `prefix` names the
  // place ("law").
  void validate(std::string_view prefix = "law") const;

  // E^ of `experts` (Eq. 4); `experts` >= 1.
  double transformed_experts(double experts) const;
  // L(N_act, D, E^(experts)).
  double loss(double active_params, double tokens, double experts) const;
  // d ln E^ / d ln E: E E^ / (E - 1 + E_o)^2, with E_o = (1/E_start - 1/E_max)^-1 (Eq. 4).
  double transformed_experts_log_slope(double experts) const;
  // The coefficients in kJointCoefficientNames' order.
  std::array<double, 9> coefficients() const;
};

// The numbers of a [law.joint] table (the irreducible loss is [law] E): each name, its scenario
// key and its field, for the law file's reader and the key registry alike.
struct JointLawField {
  const char* name;  // "zeta"
  const char* key;   // "law.joint.zeta"
  double JointLossLaw::*member;
};
inline constexpr JointLawField kJointLawFields[] = {
    {"a", "law.joint.a", &JointLossLaw::a},
    {"b", "law.joint.b", &JointLossLaw::b},
    {"alpha", "law.joint.alpha", &JointLossLaw::alpha},
    {"beta", "law.joint.beta", &JointLossLaw::beta},
    {"delta", "law.joint.delta", &JointLossLaw::delta},
    {"gamma", "law.joint.gamma", &JointLossLaw::gamma},
    {"omega", "law.joint.omega", &JointLossLaw::omega},
    {"zeta", "law.joint.zeta", &JointLossLaw::zeta},
    {"experts_start", "law.joint.experts_start", &JointLossLaw::experts_start},
    {"experts_max", "law.joint.experts_max", &JointLossLaw::experts_max}};

// The joint law at (ln N_act, ln D, ln E) with its gradient, for a problem that chooses the
// experts with N and D. With h = ln E^, P = a e^(delta h) N^(alpha + gamma h) and
// Q = b e^(omega h) D^(beta + zeta h):
//   dL/d ln N = (alpha + gamma h) P,   dL/d ln D = (beta + zeta h) Q,
//   dL/d ln E = [(delta + gamma ln N) P + (omega + zeta ln D) Q] d h / d ln E.
// At a fixed E, the value and the first two partials are those of law_at_experts(E)'s
// loss_in_log_space.
struct JointLossInLogSpace {
  double loss;
  double d_log_params;
  double d_log_tokens;
  double d_log_experts;
};
JointLossInLogSpace joint_loss_in_log_space(const JointLossLaw& law, double log_params,
                                            double log_tokens, double log_experts);

// ludziejewski2025, with its source (docs/model.md, Joint law).
std::vector<JointLossLaw> joint_loss_law_presets();
// The joint preset called `name`, or nullopt.
std::optional<JointLossLaw> find_joint_loss_law_preset(std::string_view name);

// The joint law at a fixed number of experts, as the Chinchilla law it is there (exact):
//   E' = c, A' = a E^^delta, alpha' = -(alpha + gamma ln E^), B' = b E^^omega,
//   beta' = -(beta + zeta ln E^)
// (Chinchilla's exponents are positive: A' / N^alpha'). The result keeps `experts`, the joint
// law and its fitted range (law_reach then checks the experts too). Throws InputError when
// `experts` < 1 or not finite, or when the reduced exponents are not positive (a law whose
// loss would grow with N or D there), naming `key`.
LossLaw law_at_experts(const JointLossLaw& joint, double experts,
                       std::string_view key = "law.experts");

// The five coefficients and the experts of law_at_experts(joint, experts, key) written into
// `law`, its name, source, range and joint law kept (a search over E that reduces the law at
// each step reports none of them). Throws as law_at_experts.
void set_coefficients_at_experts(LossLaw& law, const JointLossLaw& joint, double experts,
                                 std::string_view key = "law.experts");

// `law` (a scenario's law) replaced by law_at_experts(joint, experts, key), keeping what the
// reduction does not set: the repeated-data constants R_D* and R_N*. The scenario's loader uses
// it at the architecture's experts, a sensitivity step or Monte Carlo draw after changing one of
// the joint law's numbers.
void reevaluate_at_experts(LossLaw& law, const JointLossLaw& joint, double experts,
                           std::string_view key = "law.experts");

}  // namespace scaleopt
