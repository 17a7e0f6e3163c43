#include "scaleopt/costmodel/training_budget.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

void require_finite_positive(double value, std::string_view field, std::string_view what) {
  if (!(value > 0.0 && std::isfinite(value))) {
    std::ostringstream message;
    message << what << ", got " << value;
    throw field_error(std::string(field), message.str());
  }
}

// The setup's rate, and its price when it has one.
TrainingBudget rates(const TrainingSetup& training, bool price_required) {
  training.validate("training");
  TrainingBudget budget;
  budget.flop_per_second = training.effective_flop_per_second();
  if (price_required || training.usd_per_chip_hour || training.chip.usd_per_hour) {
    budget.usd_per_gpu_hour = training.price_per_chip_hour("training");
  }
  if (price_required && !(budget.usd_per_gpu_hour > 0.0)) {
    throw field_error("training.usd_per_chip_hour",
                      "must be positive to convert dollars into chip-hours");
  }
  return budget;
}

TrainingBudget checked(TrainingBudget budget, std::string_view field) {
  if (!std::isfinite(budget.flops) || !std::isfinite(budget.gpu_hours)) {
    throw field_error(std::string(field), "converts to more than a double holds");
  }
  return budget;
}

}  // namespace

TrainingBudget training_budget_from_usd(double usd, const TrainingSetup& training,
                                        std::string_view field) {
  require_finite_positive(usd, field, "must be a positive number of dollars");
  TrainingBudget budget = rates(training, true);
  budget.usd = usd;
  budget.gpu_hours = usd / budget.usd_per_gpu_hour;
  budget.flops = budget.gpu_hours * kSecondsPerHour * budget.flop_per_second;
  return checked(budget, field);
}

TrainingBudget training_budget_from_gpu_hours(double gpu_hours, const TrainingSetup& training,
                                              std::string_view field) {
  require_finite_positive(gpu_hours, field, "must be a positive number of accelerator-hours");
  TrainingBudget budget = rates(training, false);
  budget.gpu_hours = gpu_hours;
  budget.flops = gpu_hours * kSecondsPerHour * budget.flop_per_second;
  budget.usd = gpu_hours * budget.usd_per_gpu_hour;
  return checked(budget, field);
}

TrainingBudget training_budget_from_flops(double flops, const TrainingSetup& training,
                                          std::string_view field) {
  require_finite_positive(flops, field, "must be a positive number of FLOPs");
  TrainingBudget budget = rates(training, false);
  budget.flops = flops;
  budget.gpu_hours = flops / (kSecondsPerHour * budget.flop_per_second);
  budget.usd = budget.gpu_hours * budget.usd_per_gpu_hour;
  return checked(budget, field);
}

}  // namespace scaleopt
