#pragma once
// One training run as a scaling-law fit sees it: model size, tokens seen and final loss.

#include <span>

namespace scaleopt {

struct TrainingRun {
  double params = 0.0;  // N, parameters
  double tokens = 0.0;  // D, training tokens
  double loss = 0.0;    // final loss, nats per token
};

// Throws InputError naming the first run (0-based index) whose N, D or loss is not finite
// and positive ("run 3: loss must be finite and positive, got -1").
void validate_runs(std::span<const TrainingRun> runs);

}  // namespace scaleopt
