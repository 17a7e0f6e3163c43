#include "scaleopt/problems/lifecycle/fast_path.hpp"

namespace scaleopt {

FastPathChoice fast_path_for(const LossTerm& loss, const LifetimeCostModel& cost, CostUnit unit) {
  if (loss.has_transforms()) {
    return {Accelerator::none, "the loss has effective-data transforms (RL tokens chosen)"};
  }
  if (cost.linear(unit)) return {Accelerator::linear_newton, {}};
  if (cost.closed_form()) return {Accelerator::roofline_newton, {}};
  return {Accelerator::none, "a cost of N with no closed form"};
}

}  // namespace scaleopt
