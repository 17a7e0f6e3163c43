#pragma once
// A point (N, D) with what it costs in training compute and the loss it reaches, plus how it
// was obtained. The common answer of the compute-optimal questions.

#include <string>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/solver/solve_result.hpp"

namespace scaleopt {

struct Allocation {
  double params = 0.0;         // N
  double tokens = 0.0;         // D (pretraining)
  double compute_flops = 0.0;  // 6 N D
  double loss = 0.0;           // L(N, D) under the law
  SolveResult solve;           // status, message, KKT residual, ...
  // |NLopt - closed form| / closed form on N and D (max of the two); NaN when no closed form
  // applies or the answer is the closed form itself.
  double closed_form_relative_difference = 0.0;

  double tokens_per_param() const { return tokens / params; }
};

// Training FLOPs of a dense transformer: forward 2ND plus backward 4ND (Kaplan et al. 2020;
// docs/model.md, Training compute).
inline double training_flops(double params, double tokens) {
  return 6.0 * params * tokens;
}

// Loss and compute at a given (N, D); always converged.
Allocation evaluate_allocation(const LossLaw& law, double params, double tokens);

}  // namespace scaleopt
