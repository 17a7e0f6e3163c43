#include "scaleopt/solver/limits.hpp"

#include <unistd.h>

#include <array>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

constexpr std::array kCountLimits{
    kThreadsLimit, kStartsLimit,    kFallbackStartsLimit, kEvaluationsLimit, kBootstrapLimit,
    kSamplesLimit, kInstancesLimit, kFailuresKeptLimit,   kCurvePointsLimit, kMarksLimit};

// A count as given: its digits while it is a whole number a double holds exactly, else
// "1e+30", "4.5".
std::string given_text(double count) {
  if (count == std::floor(count) && std::fabs(count) < 9007199254740992.0) {  // 2^53
    return std::to_string(static_cast<long long>(count));
  }
  std::ostringstream text;
  text << count;
  return text.str();
}

}  // namespace

std::string count_problem(double count, std::uint64_t lowest, std::uint64_t highest,
                          std::string_view shown) {
  const std::string range = "from " + count_text(lowest) + " to " + count_text(highest);
  if (count != std::floor(count)) {  // NaN too
    return "must be a whole number (" + range + "), got " + std::string(shown);
  }
  if (count < static_cast<double>(lowest))
    return "must be " + range + ", got " + std::string(shown);
  if (count > static_cast<double>(highest)) {
    return "at most " + count_text(highest) + " (the limit), got " + std::string(shown);
  }
  return {};
}

void CountLimit::check(double count) const {
  if (std::string problem = count_problem(count, lowest, highest, given_text(count));
      !problem.empty()) {
    throw field_error(std::string(parameter), problem);
  }
}

std::span<const CountLimit> count_limits() {
  return kCountLimits;
}

const CountLimit* find_count_limit(std::string_view parameter) {
  for (const CountLimit& limit : kCountLimits) {
    if (limit.parameter == parameter) return &limit;
  }
  return nullptr;
}

std::uint64_t in_memory_limit_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  // Where the system cannot say, a machine of 16 GiB.
  if (pages <= 0 || page_bytes <= 0) return std::uint64_t{8} << 30;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_bytes) / 2;
}

std::string count_text(std::uint64_t count) {
  if (count >= 1'000'000) {
    int exponent = 0;
    std::uint64_t rest = count;
    while (rest % 10 == 0) {
      rest /= 10;
      ++exponent;
    }
    if (rest == 1) return "1e" + std::to_string(exponent);
  }
  return std::to_string(count);
}

}  // namespace scaleopt
