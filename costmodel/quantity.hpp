#pragma once
// Numbers as users type them ("70B", "1.7KB", "$2/h", "50M/s", "2mo") and as the tool prints
// them back. One parser for every command and every scenario key, so that "2T" means the
// same thing everywhere.
//
// Conventions (documented in docs/cli.md):
//  - multipliers are decimal: K = 1e3, M = 1e6, B (or G) = 1e9, T = 1e12, P = 1e15;
//    the binary ones are distinct: Ki = 1024, Mi = 2^20, Gi, Ti for counts ("8Ki" tokens =
//    8192, "8K" = 8000), KiB/MiB/GiB/TiB for bytes;
//  - a month is 1/12 of a Julian year (30.44 days), a year is 365.25 days;
//  - "m" is minutes in a duration ("5m") and "M" is million in a count ("50M").

#include <string>
#include <string_view>

namespace scaleopt {

enum class Unit {
  number,            // plain value or percentage: 0.4, 40%
  count,             // tokens, parameters, FLOPs, requests: 70B, 2T, 1.5e12
  bytes,             // 1.7KB, 80GB, 1677
  bytes_per_second,  // 3.35TB/s
  flop_per_second,   // 989T, 989TFLOP/s, 1.979e15
  usd,               // $100M, 2.5e6
  usd_per_hour,      // $2/h, $1.40/hour, $48/d (stored per hour)
  per_second,        // 50M/s, 4T/d (stored per second)
  seconds,           // 60d, 2mo, 1y, 5m, 30s (stored in seconds)
  watts,             // 700W, 0.7kW, 100MW, 1GW (stored in watts)
};

// A short description of what a unit accepts, with examples, for error messages and --help.
std::string_view unit_expectation(Unit unit);

// Parses `text` as a quantity of `unit` and returns it in the base unit (count, bytes,
// bytes/s, FLOP/s, USD, USD/hour, 1/s, seconds, watts). Throws InputError quoting the text and
// saying what was expected. Never returns NaN or infinity.
double parse_quantity(std::string_view text, Unit unit);

// 2.42e10: at most `significant` digits, no trailing zeros, exponent without "+" or leading
// zeros; values from 1e-3 to 1e4 print without an exponent (0.0042, 12.3).
std::string format_scientific(double value, int significant = 3);

// 24.2B, 1.69KB, 3.35TB/s, $2/h, $1.23M, 50M/s, 60.9d: the suffix form parse_quantity reads.
std::string format_quantity(double value, Unit unit, int significant = 3);

// The shortest text with a suffix that parse_quantity(text, Unit::count) reads back to exactly
// `value`: 8000 -> "8K", 8192 -> "8Ki", 1048576 -> "1Mi", 1234567 -> "1.234567M". For
// echoing a count the user gave, or a default, so that what is shown is what was used.
std::string format_exact_count(double value);

}  // namespace scaleopt
