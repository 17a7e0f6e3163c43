#include "scaleopt/problems/fit/training_run.hpp"

#include <cmath>
#include <sstream>

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

}  // namespace scaleopt
