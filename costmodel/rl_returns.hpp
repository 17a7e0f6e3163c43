#pragma once
// Returns to RL compute as a compute-equivalent gain on pretraining data (docs/model.md, "RL
// returns"): RL at a compute ratio r = C_RL / C_pretrain is worth as much as multiplying the
// pretraining tokens by
//
//   g(r) = 1 + (G - 1) / (1 + (r_half / r)^h)
//
// The saturating shape in RL compute is ScaleRL's (Khatri et al. 2025, arXiv:2510.13786, Eq. 1:
// gain over the base model, sigmoidal in RL compute, half of it at C_mid); measuring a
// post-training enhancement as the extra pretraining compute that matches it is Davidson et al.
// (2023, arXiv:2312.07413). g(0) = 1 (no RL, no gain) and g -> G as r grows.

#include <string_view>

namespace scaleopt {

struct RlReturns {
  double max_gain = 20.0;     // G >= 1: the gain RL saturates at (1: RL buys nothing)
  double half_ratio = 0.005;  // r_half > 0: the RL / pretraining FLOPs ratio at half the gain
  double steepness = 1.0;     // h > 0: how sharply the gain turns on around r_half

  // Throws InputError naming the first bad field under `prefix` ("rl.returns.max_gain").
  void validate(std::string_view prefix) const;
};

// g and its elasticity d ln g / d ln r at ln r, computed in log space so that ratios far below
// or above r_half neither overflow nor lose the gain's first digits.
struct RlGain {
  double gain;                      // g(r)
  double elasticity;                // d ln g / d ln r
  double d_elasticity_d_log_ratio;  // its derivative (for second-order checks and the polish)
};
RlGain rl_gain(const RlReturns& returns, double log_ratio);

}  // namespace scaleopt
