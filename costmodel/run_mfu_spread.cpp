#include "scaleopt/costmodel/run_mfu_spread.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

void check(std::span<const double> mfus) {
  if (mfus.size() < 2) throw InputError("an MFU spread needs at least two runs");
  for (double mfu : mfus) {
    if (!(std::isfinite(mfu) && mfu > 0.0)) {
      throw InputError("an implied MFU must be finite and positive, got " + std::to_string(mfu));
    }
  }
}

}  // namespace

MfuSpread mfu_spread(std::span<const double> mfus) {
  check(mfus);
  const double n = static_cast<double>(mfus.size());
  double sum_ln = 0.0;
  for (double mfu : mfus) sum_ln += std::log(mfu);
  const double mean_ln = sum_ln / n;
  double sum_sq = 0.0;
  for (double mfu : mfus) sum_sq += (std::log(mfu) - mean_ln) * (std::log(mfu) - mean_ln);
  MfuSpread spread;
  spread.geometric_mean = std::exp(mean_ln);
  spread.log_sd = std::sqrt(sum_sq / (n - 1.0));
  spread.lowest = *std::min_element(mfus.begin(), mfus.end());
  spread.highest = *std::max_element(mfus.begin(), mfus.end());
  return spread;
}

std::vector<double> leave_one_out_mfus(std::span<const double> mfus) {
  check(mfus);
  double sum_ln = 0.0;
  for (double mfu : mfus) sum_ln += std::log(mfu);
  const double others = static_cast<double>(mfus.size() - 1);
  std::vector<double> result;
  result.reserve(mfus.size());
  for (double mfu : mfus) result.push_back(std::exp((sum_ln - std::log(mfu)) / others));
  return result;
}

}  // namespace scaleopt
