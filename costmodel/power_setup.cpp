#include "scaleopt/costmodel/power_setup.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

constexpr double kKilowattHoursPerMegawattHour = 1e3;

std::string got_value(double value) {
  std::ostringstream text;
  text << ", got " << value;
  return text.str();
}

}  // namespace

void PowerSetup::validate(std::string_view prefix) const {
  if (!(std::isfinite(node_overhead) && node_overhead >= 0.0)) {
    throw field_error(
        qualified_field(prefix, "node_overhead"),
        "must be finite and >= 0 (a fraction of the chips' TDP)" + got_value(node_overhead));
  }
  if (!(std::isfinite(pue) && pue >= 1.0)) {
    throw field_error(qualified_field(prefix, "pue"),
                      "must be finite and >= 1 (facility power over IT power)" + got_value(pue));
  }
  if (usd_per_kwh && !(std::isfinite(*usd_per_kwh) && *usd_per_kwh >= 0.0)) {
    throw field_error(qualified_field(prefix, "usd_per_kwh"),
                      "must be finite and >= 0" + got_value(*usd_per_kwh));
  }
  if (max_mw) require_positive(prefix, "max_mw", *max_mw);
}

double facility_watts_per_chip(const Hardware& chip, const PowerSetup& power) {
  return chip.power_watts("hardware." + chip.id) * (1.0 + power.node_overhead) * power.pue;
}

double facility_megawatts(const Hardware& chip, const PowerSetup& power, double chips) {
  return chips * facility_watts_per_chip(chip, power) / kWattsPerMegawatt;
}

double energy_megawatt_hours(const Hardware& chip, const PowerSetup& power, double chips,
                             double seconds) {
  return facility_megawatts(chip, power, chips) * seconds / kSecondsPerHour;
}

double energy_cost_usd(double megawatt_hours, const std::optional<double>& usd_per_kwh) {
  return megawatt_hours * kKilowattHoursPerMegawattHour * usd_per_kwh.value_or(0.0);
}

double max_chips_within(const Hardware& chip, const PowerSetup& power, double max_mw) {
  return max_mw * kWattsPerMegawatt / facility_watts_per_chip(chip, power);
}

}  // namespace scaleopt
