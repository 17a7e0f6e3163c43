#pragma once
// Reading numeric flags through the one quantity parser, with the flag named in every error.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt::cli {

// Runs `read` and names `flag` in its error ("--hardware: unknown chip ...").
template <class Read>
auto flag_value(std::string_view flag, Read read) {
  try {
    return read();
  } catch (const InputError& e) {
    throw field_error(std::string(flag), e.what());
  }
}

// `text` parsed as `unit`; InputError "--params: cannot read '70X' ..." otherwise.
double parse_flag(std::string_view flag, const std::string& text, Unit unit);

// Same, and the value must be > 0 ("--compute: must be positive, got -1").
double parse_positive_flag(std::string_view flag, const std::string& text, Unit unit);

// "1K..1M" as {1e3, 1e6}, or one value "8K" as {8e3, 8e3}; both ends parsed as `unit`,
// positive, and the first below the second.
struct FlagRange {
  double first = 0.0;
  double last = 0.0;
};
FlagRange parse_range_flag(std::string_view flag, const std::string& text, Unit unit);
// A 64-bit seed, digits only (CLI11 would wrap "-1" around to 2^64 - 1); InputError naming
// `flag` otherwise.
std::uint64_t parse_seed_flag(std::string_view flag, const std::string& text);

// A thread count from 0 (one per hardware thread) to kMaxThreads; InputError naming `flag`
// otherwise.
unsigned parse_threads_flag(std::string_view flag, int threads);

// A whole count from `lowest` to `highest`, typed as any count is ("1000", "1e6", "2M"):
// InputError naming `flag` for a fraction ("4.5"), a value below `lowest` or one above
// `highest` (the limit is in the message).
std::uint64_t parse_count_flag(std::string_view flag, const std::string& text, std::uint64_t lowest,
                               std::uint64_t highest);

// The same check for an integer option bound by CLI11, as a transform because it rewrites
// the text (`->transform(count_check(1, kMaxStarts))`): it reads "1e3" or "2K" too, leaves
// digits for CLI11 to convert, and shows the range in --help.
CLI::Validator count_check(std::uint64_t lowest, std::uint64_t highest);

// A message of the library, which names its own parameters ("starts: at most 100 (the limit),
// got 1000", "vary PATH: ...", "same column as params_col"), with each parameter shown as the
// flag that sets it ("--starts: ...", "--vary PATH: ...", "--params-col"); any other message as
// it is. Python shows the same parameters as its keywords.
std::string flag_message(std::string message);

// CLI11 type names shown in --help for each unit (COUNT, BYTES, USD/H, ...).
std::string type_name(Unit unit);

}  // namespace scaleopt::cli
