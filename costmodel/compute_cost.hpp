#pragma once
// What a phase of a model's life costs: FLOPs, chip-hours and dollars. Per-token costs are
// ComputeCosts too, scaled by token counts.

namespace scaleopt {

inline constexpr double kSecondsPerHour = 3600.0;
inline constexpr double kSecondsPerDay = 86400.0;

struct ComputeCost {
  double flops = 0.0;       // model FLOPs (what the model computes, not what the chips could)
  double chip_hours = 0.0;  // accelerator-hours paid for ("GPU-hours")
  double usd = 0.0;         // chip_hours times the price per chip-hour

  ComputeCost& operator+=(const ComputeCost& other) {
    flops += other.flops;
    chip_hours += other.chip_hours;
    usd += other.usd;
    return *this;
  }
};

inline ComputeCost operator+(ComputeCost a, const ComputeCost& b) {
  return a += b;
}

inline ComputeCost operator*(const ComputeCost& per_unit, double units) {
  return {per_unit.flops * units, per_unit.chip_hours * units, per_unit.usd * units};
}

// The cost of `flops` run at `utilization` (MFU) of `peak_flop_per_second` per chip, on chips
// rented at `usd_per_chip_hour`: chip-hours = flops / (peak * MFU) / 3600.
inline ComputeCost cost_at_utilization(double flops, double peak_flop_per_second,
                                       double utilization, double usd_per_chip_hour) {
  const double chip_hours = flops / (peak_flop_per_second * utilization) / kSecondsPerHour;
  return {flops, chip_hours, chip_hours * usd_per_chip_hour};
}

}  // namespace scaleopt
