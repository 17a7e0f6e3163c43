#pragma once
// Reading numeric flags through the one quantity parser, with the flag named in every error.

#include <cstdint>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt::cli {

// `text` parsed as `unit`; InputError "--params: cannot read '70X' ..." otherwise.
double parse_flag(std::string_view flag, const std::string& text, Unit unit);

// Same, and the value must be > 0 ("--compute: must be positive, got -1").
double parse_positive_flag(std::string_view flag, const std::string& text, Unit unit);

// "1K..1M" as {1e3, 1e6}, or one value "8K" as {8e3, 8e3}; both ends parsed as `unit`,
// positive, and the first not above the second.
struct FlagRange {
  double first = 0.0;
  double last = 0.0;
};
FlagRange parse_range_flag(std::string_view flag, const std::string& text, Unit unit);
// A 64-bit seed, digits only (CLI11 would wrap "-1" around to 2^64 - 1); InputError naming
// `flag` otherwise.
std::uint64_t parse_seed_flag(std::string_view flag, const std::string& text);

// A thread count >= 0 (0: one per hardware thread); InputError naming `flag` otherwise.
unsigned parse_threads_flag(std::string_view flag, int threads);

// CLI11 type names shown in --help for each unit (COUNT, BYTES, USD/H, ...).
std::string type_name(Unit unit);

}  // namespace scaleopt::cli
