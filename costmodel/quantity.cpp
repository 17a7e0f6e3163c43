#include "scaleopt/costmodel/quantity.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {
namespace {

// kSecondsPerHour and kSecondsPerDay are compute_cost.hpp's (one definition: a second copy
// here was ambiguous in a unity batch that includes both).
constexpr double kSecondsPerMinute = 60.0;
constexpr double kSecondsPerYear = 365.25 * kSecondsPerDay;  // Julian year
constexpr double kSecondsPerMonth = kSecondsPerYear / 12.0;

struct Suffix {
  std::string_view text;
  double factor;
};

// Decimal multipliers for counts. "B" is billion, the convention of model cards ("70B").
constexpr std::array<Suffix, 8> kCountMultipliers{{{"", 1.0},
                                                   {"K", 1e3},
                                                   {"k", 1e3},
                                                   {"M", 1e6},
                                                   {"B", 1e9},
                                                   {"G", 1e9},
                                                   {"T", 1e12},
                                                   {"P", 1e15}}};

// Binary multipliers for counts, distinct from the decimal ones: "8Ki" is 8192 tokens, "1Mi"
// 1,048,576 (a 2^20-token context), while "8K" is 8000.
constexpr std::array<Suffix, 4> kBinaryCountMultipliers{
    {{"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0}}};

constexpr std::array<Suffix, 14> kByteSuffixes{{{"", 1.0},
                                                {"B", 1.0},
                                                {"KB", 1e3},
                                                {"kB", 1e3},
                                                {"MB", 1e6},
                                                {"GB", 1e9},
                                                {"TB", 1e12},
                                                {"PB", 1e15},
                                                {"KiB", 1024.0},
                                                {"MiB", 1048576.0},
                                                {"GiB", 1073741824.0},
                                                {"TiB", 1099511627776.0},
                                                {"K", 1e3},
                                                {"M", 1e6}}};

constexpr std::array<Suffix, 17> kDurations{{{"ms", 1e-3},
                                             {"s", 1.0},
                                             {"sec", 1.0},
                                             {"m", kSecondsPerMinute},
                                             {"min", kSecondsPerMinute},
                                             {"h", kSecondsPerHour},
                                             {"hr", kSecondsPerHour},
                                             {"hour", kSecondsPerHour},
                                             {"d", kSecondsPerDay},
                                             {"day", kSecondsPerDay},
                                             {"w", 7 * kSecondsPerDay},
                                             {"wk", 7 * kSecondsPerDay},
                                             {"mo", kSecondsPerMonth},
                                             {"month", kSecondsPerMonth},
                                             {"y", kSecondsPerYear},
                                             {"yr", kSecondsPerYear},
                                             {"year", kSecondsPerYear}}};

// Power: "W" is required after a multiplier ("700W", "0.7kW", "100MW"), so that "100M" is not
// read as 100 MW or 100 million watts by mistake; a plain number is watts.
constexpr std::array<Suffix, 7> kPowerSuffixes{
    {{"", 1.0}, {"W", 1.0}, {"kW", 1e3}, {"KW", 1e3}, {"MW", 1e6}, {"GW", 1e9}, {"TW", 1e12}}};

template <std::size_t Size>
std::optional<double> lookup(const std::array<Suffix, Size>& table, std::string_view text) {
  for (const Suffix& s : table) {
    if (s.text == text) return s.factor;
  }
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "/s", "/h", "/day", ...: the factor that turns "per that unit" into "per second".
std::optional<double> per_time_factor(std::string_view denominator) {
  auto seconds = lookup(kDurations, denominator);
  if (!seconds) return std::nullopt;
  return 1.0 / *seconds;
}

// The suffix after the number, in the unit's base, or nullopt when it is not understood.
std::optional<double> suffix_factor(std::string_view suffix, Unit unit) {
  switch (unit) {
    case Unit::number:
      if (suffix.empty()) return 1.0;
      if (suffix == "%") return 0.01;
      return std::nullopt;
    case Unit::count:
      if (auto binary = lookup(kBinaryCountMultipliers, suffix)) return binary;
      return lookup(kCountMultipliers, suffix);
    case Unit::usd:
      return lookup(kCountMultipliers, suffix);
    case Unit::bytes:
      return lookup(kByteSuffixes, suffix);
    case Unit::bytes_per_second: {
      auto slash = suffix.rfind('/');
      if (slash == std::string_view::npos) return std::nullopt;
      auto bytes = lookup(kByteSuffixes, suffix.substr(0, slash));
      auto per = per_time_factor(suffix.substr(slash + 1));
      if (!bytes || !per) return std::nullopt;
      return *bytes * *per;
    }
    case Unit::flop_per_second: {
      for (std::string_view tail : {"FLOP/s", "FLOPS", "flop/s", "/s", ""}) {
        if (suffix.size() >= tail.size() && suffix.substr(suffix.size() - tail.size()) == tail) {
          std::string_view head = suffix.substr(0, suffix.size() - tail.size());
          if (head == "E") return 1e18;
          if (auto m = lookup(kCountMultipliers, head); m && head != "B") return m;
        }
      }
      return std::nullopt;
    }
    case Unit::usd_per_hour:
    case Unit::per_second: {
      auto slash = suffix.rfind('/');
      std::string_view head = slash == std::string_view::npos ? suffix : suffix.substr(0, slash);
      auto multiplier = lookup(kCountMultipliers, head);
      if (!multiplier) return std::nullopt;
      if (slash == std::string_view::npos) return multiplier;  // already per hour / per second
      std::string_view denominator = suffix.substr(slash + 1);
      if (denominator.starts_with("GPU-") || denominator.starts_with("chip-")) {
        denominator.remove_prefix(denominator.find('-') + 1);
      }
      auto per_second = per_time_factor(denominator);
      if (!per_second) return std::nullopt;
      return unit == Unit::per_second ? *multiplier * *per_second
                                      : *multiplier * *per_second * kSecondsPerHour;
    }
    case Unit::seconds:
      if (suffix.empty()) return 1.0;
      return lookup(kDurations, suffix);
    case Unit::watts:
      return lookup(kPowerSuffixes, suffix);
  }
  return std::nullopt;
}

bool allows_dollar(Unit unit) {
  return unit == Unit::usd || unit == Unit::usd_per_hour;
}

[[noreturn]] void reject(std::string_view text, Unit unit, std::string_view why = {}) {
  std::string message = "cannot read " + quoted_input(text);
  if (!why.empty()) message += " (" + std::string(why) + ")";
  message += ": expected " + std::string(unit_expectation(unit));
  throw InputError(message);
}

}  // namespace

std::string_view unit_expectation(Unit unit) {
  switch (unit) {
    case Unit::number:
      return "a plain number, a fraction or a percentage, e.g. 0.4, 1/3 or 40%";
    case Unit::count:
      return "a number with an optional multiplier K, M, B (or G), T, P (decimal) or Ki, Mi, Gi, "
             "Ti (binary), e.g. 70B, 2T, 1.5e12, 8Ki";
    case Unit::bytes:
      return "a size in bytes with an optional KB, MB, GB, TB (or KiB, MiB, GiB, TiB), e.g. 1.7KB";
    case Unit::bytes_per_second:
      return "a bandwidth such as 3.35TB/s or 900GB/s";
    case Unit::flop_per_second:
      return "a FLOP rate such as 989T, 989TFLOP/s or 9.89e14";
    case Unit::usd:
      return "an amount in dollars such as $100M, 2.5e6 or $1.5B";
    case Unit::usd_per_hour:
      return "a price per hour such as $2/h, $1.40/hour or $48/d";
    case Unit::per_second:
      return "a rate such as 50M/s, 3B/h or 4T/d";
    case Unit::seconds:
      return "a duration such as 30s, 5m (minutes), 12h, 60d, 2w, 2mo or 1y";
    case Unit::watts:
      return "a power such as 700W, 0.7kW, 100MW or 1GW (a plain number is watts)";
  }
  return "a number";
}

double parse_quantity(std::string_view text, Unit unit) {
  std::string_view rest = trim(text);
  if (rest.empty()) reject(text, unit, "empty");
  if (rest.front() == '$') {
    if (!allows_dollar(unit)) reject(text, unit, "'$' is for prices");
    rest.remove_prefix(1);
  }
  if (!rest.empty() && rest.front() == '+') rest.remove_prefix(1);
  double value = 0.0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (ec == std::errc::result_out_of_range) reject(text, unit, "out of range");
  if (ec != std::errc()) reject(text, unit);
  if (!std::isfinite(value)) reject(text, unit, "not a finite number");
  std::string_view suffix = trim(rest.substr(static_cast<std::size_t>(end - rest.data())));
  if (unit == Unit::number && suffix.size() > 1 && suffix.front() == '/') {  // a fraction: 1/3
    double denominator = 0.0;
    const std::string_view digits = suffix.substr(1);
    auto [tail, error] = std::from_chars(digits.data(), digits.data() + digits.size(), denominator);
    if (error != std::errc() || tail != digits.data() + digits.size() ||
        !(denominator > 0.0 && std::isfinite(denominator))) {
      reject(text, unit, "a fraction needs a positive denominator");
    }
    const double result = value / denominator;
    if (!std::isfinite(result)) reject(text, unit, "out of range");
    return result;
  }
  auto factor = suffix_factor(suffix, unit);
  if (!factor) reject(text, unit, "unknown suffix " + quoted_input(suffix));
  const double result = value * *factor;
  if (!std::isfinite(result)) reject(text, unit, "out of range");
  return result;
}

std::string format_scientific(double value, int significant) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  if (value == 0.0) return "0";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", significant - 1, value);
  std::string s(buffer);
  const auto e = s.find('e');
  std::string mantissa = s.substr(0, e);
  // Trailing zeros carry no information here: 1.50e-7 -> 1.5e-7, 1.00e24 -> 1e24.
  if (mantissa.find('.') != std::string::npos) {
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  int exponent = std::stoi(s.substr(e + 1));
  if (exponent >= -3 && exponent < 4) {  // 0.0042, 12.3, 1234: no exponent needed
    std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
    return buffer;
  }
  return mantissa + "e" + std::to_string(exponent);
}

namespace {

// value scaled to the largest multiplier not above it, e.g. 2.42e10 -> "24.2" + "B". FLOP
// rates say "G" for 1e9 ("24.2GFLOP/s"): the parser refuses "B" there, as bytes are meant.
std::string with_multiplier(double value, int significant, std::string_view prefix,
                            const char* billion = "B") {
  struct Step {
    double factor;
    const char* name;
  };
  const std::array<Step, 5> steps{
      {{1e15, "P"}, {1e12, "T"}, {1e9, billion}, {1e6, "M"}, {1e3, "K"}}};
  const double magnitude = std::fabs(value);
  char buffer[64];
  if (magnitude >= 1e18) return std::string(prefix) + format_scientific(value, significant);
  for (const Step& step : steps) {
    if (magnitude >= step.factor) {
      std::snprintf(buffer, sizeof buffer, "%.*g", significant, value / step.factor);
      // %.*g may round 999.6 up to "1e+03"; fall back to the exponent form then.
      if (std::string(buffer).find('e') != std::string::npos) break;
      return std::string(prefix) + buffer + step.name;
    }
  }
  if (magnitude >= 1e-3 || value == 0.0) {
    std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
    if (std::string(buffer).find('e') == std::string::npos) return std::string(prefix) + buffer;
  }
  return std::string(prefix) + format_scientific(value, significant);
}

// The value in the largest of `steps` (decimal multipliers, largest first) not above it, or
// with `base` alone below them all: 1.7KB, 3.35TB; 700W, 100MW.
struct UnitStep {
  double factor;
  const char* name;
};
template <std::size_t Size>
std::string with_unit_steps(double value, int significant, const std::array<UnitStep, Size>& steps,
                            const char* base) {
  char buffer[64];
  for (const UnitStep& step : steps) {
    if (std::fabs(value) >= step.factor) {
      std::snprintf(buffer, sizeof buffer, "%.*g%s", significant, value / step.factor, step.name);
      return buffer;
    }
  }
  std::snprintf(buffer, sizeof buffer, "%.*g%s", significant, value, base);
  return buffer;
}

std::string with_byte_unit(double value, int significant) {
  constexpr std::array<UnitStep, 5> steps{
      {{1e15, "PB"}, {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"}}};
  return with_unit_steps(value, significant, steps, "B");
}

std::string with_duration_unit(double seconds, int significant) {
  struct Step {
    double seconds;
    const char* name;
  };
  // Largest unit in which the value is at least 1 (2 for months, so 45 days stays in days).
  constexpr std::array<Step, 5> steps{{{kSecondsPerYear, "y"},
                                       {2 * kSecondsPerMonth, "mo"},
                                       {kSecondsPerDay, "d"},
                                       {kSecondsPerHour, "h"},
                                       {kSecondsPerMinute, "m"}}};
  char buffer[64];
  for (const Step& step : steps) {
    if (std::fabs(seconds) >= step.seconds) {
      const double scale = std::string_view(step.name) == "mo" ? kSecondsPerMonth : step.seconds;
      std::snprintf(buffer, sizeof buffer, "%.*g%s", significant, seconds / scale, step.name);
      return buffer;
    }
  }
  std::snprintf(buffer, sizeof buffer, "%.*gs", significant, seconds);
  return buffer;
}

// 700W, 1.2kW, 100MW: the largest multiplier not above the value.
std::string with_power_unit(double watts, int significant) {
  constexpr std::array<UnitStep, 4> steps{{{1e12, "TW"}, {1e9, "GW"}, {1e6, "MW"}, {1e3, "kW"}}};
  return with_unit_steps(watts, significant, steps, "W");
}

}  // namespace

std::string format_quantity(double value, Unit unit, int significant) {
  if (!std::isfinite(value)) return format_scientific(value, significant);
  switch (unit) {
    case Unit::number: {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
      return buffer;
    }
    case Unit::count:
      return with_multiplier(value, significant, "");
    case Unit::bytes:
      return with_byte_unit(value, significant);
    case Unit::bytes_per_second:
      return with_byte_unit(value, significant) + "/s";
    case Unit::flop_per_second:
      return with_multiplier(value, significant, "", "G") + "FLOP/s";
    case Unit::usd:
      return with_multiplier(value, significant, "$");
    case Unit::usd_per_hour:
      return with_multiplier(value, significant, "$") + "/h";
    case Unit::per_second:
      return with_multiplier(value, significant, "") + "/s";
    case Unit::seconds:
      return with_duration_unit(value, significant);
    case Unit::watts:
      return with_power_unit(value, significant);
  }
  return format_scientific(value, significant);
}

}  // namespace scaleopt

namespace scaleopt {

std::string format_exact_count(double value) {
  if (!std::isfinite(value)) return format_scientific(value, 17);
  // The shortest digits of value / factor that read back exactly, for every suffix whose
  // factor is not above the value; the shortest text wins (decimal first on ties).
  // Digits without an exponent (a suffix says the magnitude), the fewest that read back.
  auto exact = [&](double factor, std::string_view suffix) -> std::string {
    char buffer[64];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(buffer, sizeof buffer, "%.*g", digits, value / factor);
      const std::string text = std::string(buffer) + std::string(suffix);
      if (text.find('e') != std::string::npos) continue;
      try {
        if (parse_quantity(text, Unit::count) == value) return text;
      } catch (const InputError&) {
        return {};
      }
    }
    return {};
  };
  std::string best = exact(1.0, "");
  for (int digits = 1; best.empty() && digits <= 17; ++digits) {  // only an exponent will do
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (parse_quantity(buffer, Unit::count) == value || digits == 17) best = buffer;
  }
  auto consider = [&](double factor, std::string_view suffix) {
    if (std::fabs(value) < factor) return;
    const std::string text = exact(factor, suffix);
    if (!text.empty() && (best.empty() || text.size() < best.size())) best = text;
  };
  for (const Suffix& s : kCountMultipliers) {
    if (!s.text.empty() && s.text != "k" && s.text != "G") consider(s.factor, s.text);
  }
  for (const Suffix& s : kBinaryCountMultipliers) consider(s.factor, s.text);
  return best;
}

}  // namespace scaleopt
