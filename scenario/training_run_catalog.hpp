#pragma once
// The catalog of published pretraining runs (costmodel/data/training_runs.toml, embedded in
// the binary), for `scaleopt training-runs` and the tests that hold the default MFU to it.

#include <vector>

#include "scaleopt/costmodel/published_run.hpp"

namespace scaleopt {

// The built-in runs in the file's order, each checked against the hardware catalog (its chip
// exists and has its precision) and the model presets; throws only if that text is broken.
std::vector<PublishedRun> builtin_training_runs();

}  // namespace scaleopt
