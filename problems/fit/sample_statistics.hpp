#pragma once
// Summaries of a sample (bootstrap replicates): standard deviation, quantiles, covariance.

#include <span>
#include <vector>

namespace scaleopt {

// Sample standard deviation with Bessel's correction (divides by n - 1); 0 for n < 2.
double standard_deviation(std::span<const double> values);

// The q-quantile, q in [0, 1], interpolating linearly between order statistics at
// (n - 1) q: definition 7 of Hyndman & Fan (1996), the default of R and numpy.
double quantile(std::span<const double> values, double q);

// The same from values sorted in increasing order (no copy, no sort).
double quantile_of_sorted(std::span<const double> sorted, double q);

// The same in linear time, reordering `values` (std::nth_element): a few quantiles of a large
// sample (Monte Carlo) without sorting it.
double quantile_in_place(std::span<double> values, double q);

// Sample covariance (divides by n - 1) of columns x and y; 0 for n < 2.
double covariance(std::span<const double> x, std::span<const double> y);

}  // namespace scaleopt
