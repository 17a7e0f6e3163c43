#pragma once
// The hardware catalog as the CLI reads it: the built-in chips (costmodel/data/hardware.toml,
// embedded in the binary) and [hardware.<id>] tables of scenario files, which add chips or
// override fields of catalog ones. One table of fields drives both, and the docs.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/scenario/input_spec.hpp"

namespace scaleopt {

// One key of a chip's table.
struct HardwareField {
  std::string_view key;  // e.g. "bf16"
  KeyKind kind;
  Unit unit;  // numbers only
  Range range;
  std::string_view doc;
  std::optional<double> (*get)(const Hardware&) = nullptr;    // numbers
  void (*set)(Hardware&, double) = nullptr;                   // numbers
  void (*set_text)(Hardware&, const std::string&) = nullptr;  // text
};

std::span<const HardwareField> hardware_fields();
const HardwareField* find_hardware_field(std::string_view key);

// The built-in catalog, parsed from the embedded text (throws only if that text is broken).
std::vector<Hardware> builtin_hardware();

}  // namespace scaleopt
