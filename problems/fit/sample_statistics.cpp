#include "scaleopt/problems/fit/sample_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace scaleopt {

double covariance(std::span<const double> x, std::span<const double> y) {
  const std::size_t n = x.size();
  if (n < 2) return 0.0;
  const double mean_x = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  const double mean_y = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += (x[i] - mean_x) * (y[i] - mean_y);
  return sum / static_cast<double>(n - 1);
}

double standard_deviation(std::span<const double> values) {
  return std::sqrt(covariance(values, values));
}

double quantile(std::span<const double> values, double q) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return quantile_of_sorted(sorted, q);
}

double quantile_of_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return std::nan("");
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

double quantile_in_place(std::span<double> values, double q) {
  if (values.empty()) return std::nan("");
  const double position = q * static_cast<double>(values.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const auto nth = values.begin() + static_cast<std::ptrdiff_t>(lower);
  std::nth_element(values.begin(), nth, values.end());
  const double low = *nth;
  // The next order statistic is the smallest of those after the nth.
  const double high = lower + 1 < values.size() ? *std::min_element(nth + 1, values.end()) : low;
  return low + (position - static_cast<double>(lower)) * (high - low);
}

}  // namespace scaleopt
