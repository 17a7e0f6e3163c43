#pragma once
// One training run as a scaling-law fit sees it: model size, tokens seen and final loss.

#include <span>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

struct TrainingRun {
  double params = 0.0;  // N, parameters
  double tokens = 0.0;  // D, training tokens
  double loss = 0.0;    // final loss, nats per token
  // Experts of a mixture-of-experts run as the joint law counts them (costmodel/
  // joint_loss_law.hpp; 1 = dense). Only a joint fit (`fit --experts-col`) reads it.
  double experts = 1.0;
};

// Throws InputError naming the first run (0-based index) whose N, D or loss is not finite
// and positive ("run 3: loss must be finite and positive, got -1"), or whose experts are not
// finite and at least 1.
void validate_runs(std::span<const TrainingRun> runs);

// The extremes of `runs` (not empty) as the range of the law fitted to them, their experts too
// when `with_experts` (a joint fit); `source` names "the COUNT runs of this fit".
FittedRange fitted_range_of(std::span<const TrainingRun> runs, bool with_experts);

}  // namespace scaleopt
