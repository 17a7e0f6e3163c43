#include "scaleopt/problems/fit/training_run.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

void validate_runs(std::span<const TrainingRun> runs) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::pair<const char*, double> fields[] = {
        {"params", runs[i].params}, {"tokens", runs[i].tokens}, {"loss", runs[i].loss}};
    for (const auto& [field, value] : fields) {
      if (!std::isfinite(value) || value <= 0.0) {
        std::ostringstream message;
        message << "run " << i << ": " << field << " must be finite and positive, got " << value;
        throw InputError(message.str());
      }
    }
    if (!std::isfinite(runs[i].experts) || runs[i].experts < 1.0) {
      std::ostringstream message;
      message << "run " << i << ": experts must be at least 1 (1 = dense), got " << runs[i].experts;
      throw InputError(message.str());
    }
  }
}

FittedRange fitted_range_of(std::span<const TrainingRun> runs, bool with_experts) {
  FittedRange range;
  range.min_params = range.max_params = runs.front().params;
  range.min_tokens = range.max_tokens = runs.front().tokens;
  for (const TrainingRun& run : runs) {
    range.min_params = std::min(*range.min_params, run.params);
    range.max_params = std::max(*range.max_params, run.params);
    range.min_tokens = std::min(*range.min_tokens, run.tokens);
    range.max_tokens = std::max(*range.max_tokens, run.tokens);
    if (with_experts) {
      range.min_experts = std::min(range.min_experts.value_or(run.experts), run.experts);
      range.max_experts = std::max(range.max_experts.value_or(run.experts), run.experts);
    }
  }
  range.source = "the " + std::to_string(runs.size()) + " runs of this fit";
  return range;
}

}  // namespace scaleopt
