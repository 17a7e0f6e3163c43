#pragma once
// The Chinchilla loss law L(N, D) = E + A / N^alpha + B / D^beta (Hoffmann et al. 2022, Eq. 2),
// its published presets and its derivatives in log space, which is where every problem
// optimises (docs/model.md, How the optimiser solves them).

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scaleopt {

// How uncertain a law's coefficients are, e.g. from a bootstrap of the fit (scaleopt fit
// --bootstrap). Order everywhere: E, A, B, alpha, beta.
struct LawUncertainty {
  std::array<double, 5> standard_errors{};
  // Covariance of the coefficients; absent when only standard errors are known.
  std::optional<std::array<std::array<double, 5>, 5>> covariance;
};

// The decay constants of repeated data fitted by Muennighoff et al. 2023 ("Scaling
// Data-Constrained Language Models", NeurIPS 2023; the datablations code's "Parametric Fit"):
// R_D*, the repetitions of a token at which its value has decayed by 1 - 1/e, and R_N*, the same
// for parameters beyond what the unique data can feed (costmodel/data_repetition.hpp).
inline constexpr double kMuennighoffRepeatDecayTokens = 15.387756;
inline constexpr double kMuennighoffRepeatDecayParams = 5.309743;

// The model sizes and token counts of the runs a law was fitted on: outside them the law is
// extrapolated, and every answer says so (costmodel/law_reach.hpp). A bound is absent when
// the source does not state it.
struct FittedRange {
  std::optional<double> min_params;
  std::optional<double> max_params;
  std::optional<double> min_tokens;
  std::optional<double> max_tokens;
  std::string source;  // where the range is stated
  // For a joint dense/MoE law (costmodel/joint_loss_law.hpp): the experts of its runs, as the
  // paper counts them (1 = dense).
  std::optional<double> min_experts;
  std::optional<double> max_experts;
  // The largest total parameter count of the runs (a mixture of experts' total exceeds its
  // active count), checked against an answer's total.
  std::optional<double> max_total_params;
};

struct JointLossLaw;  // costmodel/joint_loss_law.hpp

struct LossLaw {
  std::string name = "custom";
  double E = 0.0;                             // irreducible loss (nats per token)
  double A = 0.0;                             // parameter-term coefficient
  double B = 0.0;                             // data-term coefficient
  double alpha = 0.0;                         // parameter exponent
  double beta = 0.0;                          // data exponent
  std::string source;                         // where the coefficients come from
  std::optional<LawUncertainty> uncertainty;  // absent for the published presets
  // R_D* and R_N*: how repeated tokens and excess parameters decay, used only when the unique
  // tokens are limited (costmodel/data_repetition.hpp); the paper's values unless given.
  double repeat_decay_tokens = kMuennighoffRepeatDecayTokens;
  double repeat_decay_params = kMuennighoffRepeatDecayParams;
  // The runs' range, for the presets; absent for a law given by its coefficients or a file
  // (then no answer can say whether it extrapolates, and the answer says that instead).
  std::optional<FittedRange> fitted_range;
  // A joint dense/MoE law evaluated at a fixed number of experts (law_at_experts in
  // costmodel/joint_loss_law.hpp): that law, and the experts (the paper's E) it is evaluated
  // at. Both absent for a law of N and D alone.
  std::shared_ptr<const JointLossLaw> joint;
  std::optional<double> experts;

  // Throws InputError naming the first coefficient that is not finite and positive
  // ("law.alpha must be finite and positive, got -0.3"). `prefix` names the place the
  // law came from, e.g. "law" or "--alpha".
  void validate(std::string_view prefix = "law") const;

  double loss(double params, double tokens) const;
  // The reducible parts A / N^alpha and B / D^beta, useful on their own: in log space
  // dL/dlnN = -alpha * params_term and dL/dlnD = -beta * data_term.
  double params_term(double params) const;
  double data_term(double tokens) const;
};

// The coefficient names in the order LawUncertainty uses.
inline constexpr std::array<const char*, 5> kLawCoefficientNames = {"E", "A", "B", "alpha", "beta"};

// hoffmann2022, sardana2024, epoch2024, hoffmann2022-a3, muennighoff2023 with their sources
// (docs/model.md, Loss law).
std::vector<LossLaw> loss_law_presets();

// The preset called `name`; throws InputError listing the known names otherwise. A joint
// dense/MoE preset (costmodel/joint_loss_law.hpp: ludziejewski2025) comes evaluated dense.
LossLaw loss_law_preset(std::string_view name);

// The uncertainty published with a preset's coefficients, or nullopt. epoch2024: the standard
// errors of Besiroglu et al. 2024 ("Chinchilla Scaling: A replication attempt",
// arXiv:2404.10102; from their bootstrap): E 0.03, A 124.58, B 1293.23, alpha 0.02, beta 0.02.
// No covariance is published, so draws from it are independent (docs/sensitivity.md says what
// that implies). The Hoffmann and Sardana presets publish none.
std::optional<LawUncertainty> published_uncertainty(std::string_view preset);

// Loss term of the law at ln N, ln D, with gradient with respect to (ln N, ln D).
struct LossInLogSpace {
  double loss;
  double d_log_params;
  double d_log_tokens;
};
LossInLogSpace loss_in_log_space(const LossLaw& law, double log_params, double log_tokens);

// The objective and constraint forms the problems share, at x = (ln N, ln D), filling the
// gradient with respect to x when it is not empty:
//  - the loss itself;
//  - the loss gap (L - target) / (target - E): the relative error of the reducible loss, of
//    order one for every target, so that one constraint tolerance suits all of them.
double loss_with_gradient(const LossLaw& law, std::span<const double> x,
                          std::span<double> gradient);
double loss_gap_with_gradient(const LossLaw& law, double target_loss, std::span<const double> x,
                              std::span<double> gradient);

}  // namespace scaleopt
