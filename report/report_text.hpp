#pragma once
// Small pieces of text several of report/'s answers print: one definition each, private to the
// library (not installed; cmake/install.cmake).

#include <filesystem>
#include <optional>
#include <string>

#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

// A number without a unit, to `significant` digits.
inline std::string plain(double value, int significant = 6) {
  return format_quantity(value, Unit::number, significant);
}

// A fraction (0.123) as a percentage ("12.3%") to `significant` digits.
inline std::string percent(double fraction, int significant = 3) {
  return format_quantity(100.0 * fraction, Unit::number, significant) + "%";
}

// The scenario's file name without its folder, as figures and the report name it.
inline std::string file_name(const Scenario& scenario) {
  return std::filesystem::path(scenario.file).filename().string();
}

// A chip's hourly price: the one the scenario gives, else the catalog's, marked as assumed.
inline std::string price_text(const std::optional<double>& given, const Hardware& chip) {
  const double price = given ? *given : chip.usd_per_hour.value_or(0.0);
  return format_quantity(price, Unit::usd_per_hour) + (given ? "" : " (assumed)");
}

}  // namespace scaleopt::report
