#pragma once
// What a cluster of accelerators draws from the grid, and what that energy costs: each chip's
// TDP (costmodel/hardware.hpp), the rest of its node (CPUs, NICs, NVSwitches, fans) as a
// fraction of it, and the facility (cooling, power conversion) as a PUE. A site's power limit
// (max_mw) caps how many chips it holds. docs/model.md, Power and energy.

#include <optional>
#include <string_view>

#include "scaleopt/costmodel/hardware.hpp"

namespace scaleopt {

inline constexpr double kWattsPerKilowatt = 1e3;
inline constexpr double kWattsPerMegawatt = 1e6;

struct PowerSetup {
  // The node's power beside its accelerators, as a fraction of their TDP. 0.82 is an
  // assumption derived from NVIDIA's DGX H100: 10.2 kW maximum system power for 8 H100 SXM of
  // 700 W, so the rest of the node may draw (10.2 - 5.6) / 5.6 = 0.82 of the GPUs' power. A
  // maximum, like the TDP: the site must be provisioned for it. The cluster's own switches
  // and storage outside the nodes are not in it.
  double node_overhead = 0.82;
  // Power usage effectiveness: the facility's power over its IT power. 1.10 is an assumption,
  // a modern hyperscale site's (Google's published fleet-wide PUE, about 1.10 since 2021); the
  // Uptime Institute's 2021 survey average for large data centers is 1.57.
  double pue = 1.10;
  // Price of energy per kWh at the meter; absent: no energy cost line. For owned hardware
  // only: a rental price per chip-hour already includes the power.
  std::optional<double> usd_per_kwh;
  // The site's power limit, in MW at the meter (facility power); absent: none. It caps the
  // training chips (max_chips_within).
  std::optional<double> max_mw;
  // Whether the site's limit must also hold the serving fleet (its mean chips over the serving
  // duration): an upper bound on N (problems/question/site_power.hpp, cap_serving_by_site).
  bool site_includes_serving = false;

  // Throws InputError naming the first bad field ("power.pue: must be >= 1 ...").
  void validate(std::string_view prefix) const;
};

// Watts at the meter per chip: TDP * (1 + node_overhead) * pue. Throws InputError naming
// "hardware.<id>.tdp" when the chip's power is unknown.
double facility_watts_per_chip(const Hardware& chip, const PowerSetup& power);
// Megawatts at the meter of `chips` chips.
double facility_megawatts(const Hardware& chip, const PowerSetup& power, double chips);
// Energy at the meter of `chips` chips running for `seconds`, in MWh.
double energy_megawatt_hours(const Hardware& chip, const PowerSetup& power, double chips,
                             double seconds);
// Dollars of `megawatt_hours` at `usd_per_kwh` (power.usd_per_kwh; 0 without a price).
double energy_cost_usd(double megawatt_hours, const std::optional<double>& usd_per_kwh);
// The most chips a site of `max_mw` megawatts powers (not rounded: the caller rounds to whole
// nodes if it must).
double max_chips_within(const Hardware& chip, const PowerSetup& power, double max_mw);

}  // namespace scaleopt
