#include "scaleopt/cli/flags.hpp"

#include <charconv>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt::cli {

double parse_flag(std::string_view flag, const std::string& text, Unit unit) {
  try {
    return parse_quantity(text, unit);
  } catch (const InputError& e) {
    throw field_error(std::string(flag), e.what());
  }
}

double parse_positive_flag(std::string_view flag, const std::string& text, Unit unit) {
  const double value = parse_flag(flag, text, unit);
  if (value <= 0.0) {
    throw field_error(std::string(flag), "must be positive, got '" + text + "'");
  }
  return value;
}

FlagRange parse_range_flag(std::string_view flag, const std::string& text, Unit unit) {
  const auto dots = text.find("..");
  if (dots == std::string::npos) {
    const double value = parse_positive_flag(flag, text, unit);
    return {value, value};
  }
  const FlagRange range{parse_positive_flag(flag, text.substr(0, dots), unit),
                        parse_positive_flag(flag, text.substr(dots + 2), unit)};
  if (range.first > range.last) {
    throw field_error(std::string(flag), "the range must ascend (FIRST..LAST), got '" + text + "'");
  }
  return range;
}

std::uint64_t parse_seed_flag(std::string_view flag, const std::string& text) {
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    throw field_error(std::string(flag),
                      "expected an integer from 0 to 2^64 - 1, got '" + text + "'");
  }
  return seed;
}

unsigned parse_threads_flag(std::string_view flag, int threads) {
  if (threads < 0) {
    throw field_error(std::string(flag),
                      "must be >= 0 (0: one per hardware thread), got " + std::to_string(threads));
  }
  return static_cast<unsigned>(threads);
}

std::string type_name(Unit unit) {
  switch (unit) {
    case Unit::number:
      return "NUMBER";
    case Unit::count:
      return "COUNT";
    case Unit::bytes:
      return "BYTES";
    case Unit::bytes_per_second:
      return "BYTES/S";
    case Unit::flop_per_second:
      return "FLOP/S";
    case Unit::usd:
      return "USD";
    case Unit::usd_per_hour:
      return "USD/H";
    case Unit::per_second:
      return "RATE";
    case Unit::seconds:
      return "DURATION";
  }
  return "VALUE";
}

}  // namespace scaleopt::cli
