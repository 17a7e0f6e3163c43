#pragma once
// A pretraining budget as people state it (dollars, accelerator-hours or FLOPs), converted to
// the other two at a training setup's rate: chip-hours = dollars / price per chip-hour, and
// FLOPs = chip-hours * 3600 * peak * MFU * goodput (TrainingSetup::effective_flop_per_second).

#include <limits>

#include "scaleopt/costmodel/training_setup.hpp"

namespace scaleopt {

struct TrainingBudget {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double usd = kNaN;        // NaN when no price is known (a budget given in hours or FLOPs)
  double gpu_hours = kNaN;  // accelerator-hours (chip-hours for TPUs)
  double flops = kNaN;      // model FLOPs those hours compute
  double usd_per_gpu_hour = kNaN;
  double flop_per_second = kNaN;  // per chip: peak * MFU * goodput
};

// Throws InputError naming the field: the setup's ("training.mfu"), a price that is missing or
// zero ("training.usd_per_chip_hour", with `usd`), or a budget that is not finite and positive
// or converts to more than a double holds (`field`, the flag or key that gave it).
TrainingBudget training_budget_from_usd(double usd, const TrainingSetup& training,
                                        std::string_view field);
// The dollars are filled when the setup has a price (given or the catalog's); NaN otherwise.
TrainingBudget training_budget_from_gpu_hours(double gpu_hours, const TrainingSetup& training,
                                              std::string_view field);
TrainingBudget training_budget_from_flops(double flops, const TrainingSetup& training,
                                          std::string_view field);

}  // namespace scaleopt
