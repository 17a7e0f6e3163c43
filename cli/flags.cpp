#include "scaleopt/cli/flags.hpp"

#include <charconv>
#include <cmath>
#include <utility>

#include "scaleopt/cli/limits.hpp"
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
  if (range.first >= range.last) {
    // FIRST..FIRST would be one value spread over a range's rows: a typo, never a request.
    throw field_error(std::string(flag), "a range FIRST..LAST needs FIRST below LAST, got '" +
                                             text + "' (give one value without '..')");
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
  if (threads < 0 || static_cast<std::uint64_t>(threads) > kMaxThreads) {
    throw field_error(std::string(flag), "must be from 0 (one per hardware thread) to " +
                                             std::to_string(kMaxThreads) + " (the limit), got " +
                                             std::to_string(threads));
  }
  return static_cast<unsigned>(threads);
}

namespace {

// The count in `text`, or the reason it is not one (the message without the flag's name).
std::uint64_t read_count(const std::string& text, std::uint64_t lowest, std::uint64_t highest,
                         std::string& error) {
  double value = 0.0;
  try {
    value = parse_quantity(text, Unit::count);
  } catch (const InputError& e) {
    error = e.what();
    return 0;
  }
  error = count_problem(value, lowest, highest, "'" + text + "'");
  return error.empty() ? static_cast<std::uint64_t>(value) : 0;
}

}  // namespace

std::uint64_t parse_count_flag(std::string_view flag, const std::string& text, std::uint64_t lowest,
                               std::uint64_t highest) {
  std::string error;
  const std::uint64_t count = read_count(text, lowest, highest, error);
  if (!error.empty()) throw field_error(std::string(flag), error);
  return count;
}

std::string flag_message(std::string message) {
  // The counts that have a flag, by the library's parameter name.
  constexpr std::pair<std::string_view, std::string_view> kFlags[] = {
      {"threads", "--threads"},
      {"starts", "--starts"},
      {"max_evaluations", "--max-evaluations"},
      {"bootstrap", "--bootstrap"},
      {"samples", "--samples"},
      {"instances", "--instances"},
      {"points", "--points"},
      {"marks", "--mark"},
  };
  for (const auto& [parameter, flag] : kFlags) {
    if (message.starts_with(parameter) && message.substr(parameter.size(), 2) == ": ") {
      return std::string(flag) + message.substr(parameter.size());
    }
  }
  return message;
}

CLI::Validator count_check(std::uint64_t lowest, std::uint64_t highest) {
  return CLI::Validator(
      [lowest, highest](std::string& text) {
        std::string error;
        const std::uint64_t count = read_count(text, lowest, highest, error);
        if (error.empty()) text = std::to_string(count);
        return error;
      },
      count_text(lowest) + " to " + count_text(highest));
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
