#include "scaleopt/problems/lifecycle/fast_path.hpp"

namespace scaleopt {

FastPathChoice fast_path_for(const LossTerm& loss, const LifetimeCostModel& cost, CostUnit unit,
                             bool capped_tokens, bool capped_compute) {
  if (capped_tokens) {
    return {Accelerator::none, "the pretraining tokens are capped (problem.max_pretrain_tokens)"};
  }
  if (capped_compute) {
    return {Accelerator::none,
            "the pretraining FLOPs are capped (a pretraining budget, or training.deadline)"};
  }
  // A unique-token limit breaks the closed forms the accelerators use (the loss's kinks at
  // D = U_D and N = D_to_N(U)): NLopt with its KKT check.
  if (loss.repetition()) {
    return {Accelerator::none, "the loss repeats data (data.unique_tokens is limited)"};
  }
  if (loss.has_transforms()) {
    return {Accelerator::none, "the loss has effective-data transforms (RL tokens chosen)"};
  }
  if (cost.linear(unit)) return {Accelerator::linear_newton, {}};
  if (cost.closed_form()) return {Accelerator::roofline_newton, {}};
  return {Accelerator::none, "a cost of N with no closed form"};
}

}  // namespace scaleopt
