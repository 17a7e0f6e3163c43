#include "scaleopt/cli/flags.hpp"

#include <cctype>
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

namespace {

// The library's parameters that have a flag, by name, replaced where they open the message
// ("out: ...", "vary PATH: ..."). The runs' column names are replaced wherever they stand
// ("same column as params_col"): no scenario key or English word ends in "_col", whereas
// "input_tokens" is also a key of the scenario, listed in messages as such.
struct ParameterFlag {
  std::string_view parameter;
  std::string_view flag;
};
bool named_anywhere(std::string_view parameter) {
  return parameter.ends_with("_col");
}
constexpr ParameterFlag kParameterFlags[] = {
    {"threads", "--threads"},
    {"starts", "--starts"},
    {"max_evaluations", "--max-evaluations"},
    {"bootstrap", "--bootstrap"},
    {"samples", "--samples"},
    {"instances", "--instances"},
    {"points", "--points"},
    {"marks", "--mark"},
    {"vary", "--vary"},
    {"out", "--out"},
    {"shard", "--shard"},
    {"inputs", "--inputs"},
    {"exclude", "--exclude"},
    {"tornado", "--tornado"},
    {"rank_by", "--rank-by"},
    {"x", "--x"},
    {"y", "--y"},
    {"series", "--series"},
    {"script", "--script"},
    {"model", "--model"},
    {"set", "--set"},
    {"law_file", "--law-file"},
    {"params_col", "--params-col"},
    {"tokens_col", "--tokens-col"},
    {"flops_col", "--flops-col"},
    {"loss_col", "--loss-col"},
    {"experts_col", "--experts-col"},
    {"input_tokens", "--input-tokens"},
    {"output_tokens", "--output-tokens"},
};

bool word_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

}  // namespace

std::string flag_message(std::string message) {
  for (const auto& [parameter, flag] : kParameterFlags) {
    const bool opens = message.starts_with(parameter) && message.size() > parameter.size() &&
                       (message[parameter.size()] == ':' || message[parameter.size()] == ' ');
    if (opens) {
      message = std::string(flag) + message.substr(parameter.size());
      break;
    }
  }
  for (const auto& [parameter, flag] : kParameterFlags) {
    if (!named_anywhere(parameter)) continue;
    for (std::size_t at = message.find(parameter); at != std::string::npos;
         at = message.find(parameter, at + 1)) {
      const std::size_t after = at + parameter.size();
      const bool whole = (at == 0 || !word_character(message[at - 1])) &&
                         (after == message.size() || !word_character(message[after]));
      if (whole) message.replace(at, parameter.size(), flag);
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
    case Unit::watts:
      return "WATTS";
  }
  return "VALUE";
}

}  // namespace scaleopt::cli
