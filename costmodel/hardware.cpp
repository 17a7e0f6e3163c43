#include "scaleopt/costmodel/hardware.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {

double chip_hour_price(const std::optional<double>& given, const Hardware& chip,
                       std::string_view prefix) {
  if (given) return *given;
  if (chip.usd_per_hour) return *chip.usd_per_hour;
  throw field_error(qualified_field(prefix, "usd_per_chip_hour"),
                    "required: " + chip.id + " has no price in the catalog");
}
namespace {

const std::optional<double>& rate_of(const Hardware& chip, Precision precision) {
  switch (precision) {
    case Precision::fp8:
      return chip.fp8_flop_per_second;
    case Precision::int8:
      return chip.int8_op_per_second;
    case Precision::bf16:
      break;
  }
  return chip.bf16_flop_per_second;
}

}  // namespace

bool Hardware::supports(Precision precision) const {
  return rate_of(*this, precision).has_value();
}

double Hardware::peak_flop_per_second(Precision precision) const {
  const auto& rate = rate_of(*this, precision);
  if (rate) return *rate;
  std::string formats;
  for (Precision p : {Precision::bf16, Precision::fp8, Precision::int8}) {
    if (supports(p)) formats += (formats.empty() ? "" : ", ") + std::string(to_string(p));
  }
  throw InputError(id + " has no " + std::string(to_string(precision)) + " figure (it has " +
                   formats + ")");
}

void Hardware::validate(std::string_view prefix) const {
  if (!bf16_flop_per_second && !fp8_flop_per_second && !int8_op_per_second) {
    throw field_error(qualified_field(prefix, "bf16"),
                      "a chip needs at least one peak rate (bf16, fp8 or int8)");
  }
  if (bf16_flop_per_second) require_positive(prefix, "bf16", *bf16_flop_per_second);
  if (fp8_flop_per_second) require_positive(prefix, "fp8", *fp8_flop_per_second);
  if (int8_op_per_second) require_positive(prefix, "int8", *int8_op_per_second);
  require_positive(prefix, "hbm_bandwidth", hbm_bytes_per_second);
  require_positive(prefix, "hbm", hbm_bytes);
  if (usd_per_hour) require_positive(prefix, "usd_per_hour", *usd_per_hour);
  if (!(node_chips >= 1.0 && std::isfinite(node_chips))) {
    throw field_error(qualified_field(prefix, "node_chips"),
                      "must be >= 1, got " + std::to_string(node_chips));
  }
  if (source.empty()) throw field_error(qualified_field(prefix, "source"), "must not be empty");
  if (tdp_watts) require_positive(prefix, "tdp", *tdp_watts);
}

double Hardware::power_watts(std::string_view prefix) const {
  if (tdp_watts) return *tdp_watts;
  throw field_error(
      qualified_field(prefix, "tdp"),
      "the power of " + id + " is unknown (" +
          (power_unknown.empty() ? std::string("no published figure") : power_unknown) +
          "): give its TDP in watts in [hardware." + input_excerpt(id) + "] as tdp");
}

const Hardware& find_hardware(const std::vector<Hardware>& chips, std::string_view id) {
  std::string known;
  for (const Hardware& chip : chips) {
    if (chip.id == id) return chip;
    known += (known.empty() ? "" : ", ") + chip.id;
  }
  throw InputError("unknown hardware " + quoted_input(id) + ": expected one of " + known +
                   " (see 'scaleopt hardware'), or define it in a [hardware." + input_excerpt(id) +
                   "] table");
}

}  // namespace scaleopt
