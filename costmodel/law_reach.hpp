#pragma once
// Whether an answer lies inside the range of runs its loss law was fitted on. A law used
// outside that range is an extrapolation, by orders of magnitude for frontier answers
// (Hoffmann's runs stop at 16B parameters and 500B tokens): every answer lists what lies
// outside, so that a user sees it beside the number.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

// One quantity of an answer outside the law's fitted range.
struct Extrapolation {
  // "params" (N, active), "tokens" (pretraining D), "experts" (a joint law's expert count,
  // costmodel/joint_loss_law.hpp) or "total_params" (a mixture of experts' total)
  std::string quantity;
  double value = 0.0;
  std::optional<double> fitted_min;
  std::optional<double> fitted_max;
  // How far outside, as a factor >= 1: value / max above the range, min / value below it.
  double factor() const;
};

// What of (params, tokens), and of law.experts for a joint law, lies outside
// `law.fitted_range`; empty inside it, and empty when the law has no range (law_has_range says
// which).
// `total_params`, where given, is checked against the runs' largest total (a mixture of
// experts: "total_params").
std::vector<Extrapolation> extrapolations(const LossLaw& law, double params, double tokens,
                                          std::optional<double> total_params = std::nullopt);
// The largest factor of extrapolations(law, params, tokens): 1 inside the range, NaN when the
// law has none. One number per answer, for the sweep's columns.
double law_extrapolation(const LossLaw& law, double params, double tokens,
                         std::optional<double> total_params = std::nullopt);
inline bool law_has_range(const LossLaw& law) {
  return law.fitted_range.has_value();
}

// "params 100B, 6.18x above 16.2B": the value, how far outside, and the bound it passes.
std::string extrapolation_text(const Extrapolation& extrapolation);

}  // namespace scaleopt
