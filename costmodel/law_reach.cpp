#include "scaleopt/costmodel/law_reach.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt {
namespace {

void check(std::vector<Extrapolation>& out, const char* quantity, double value,
           const std::optional<double>& min, const std::optional<double>& max) {
  if ((min && value < *min) || (max && value > *max)) out.push_back({quantity, value, min, max});
}

// How far `value` lies outside [min, max], as a factor >= 1.
double factor_outside(double value, const std::optional<double>& min,
                      const std::optional<double>& max) {
  if (max && value > *max) return value / *max;
  if (min && value < *min) return *min / value;
  return 1.0;
}

}  // namespace

double Extrapolation::factor() const {
  return factor_outside(value, fitted_min, fitted_max);
}

std::vector<Extrapolation> extrapolations(const LossLaw& law, double params, double tokens,
                                          std::optional<double> total_params) {
  std::vector<Extrapolation> out;
  if (!law.fitted_range) return out;
  const FittedRange& range = *law.fitted_range;
  check(out, "params", params, range.min_params, range.max_params);
  check(out, "tokens", tokens, range.min_tokens, range.max_tokens);
  // A joint law at a fixed number of experts: that number against the runs' experts.
  if (law.experts) check(out, "experts", *law.experts, range.min_experts, range.max_experts);
  // A dense answer's total is its N, already checked.
  if (total_params && *total_params != params) {
    check(out, "total_params", *total_params, std::nullopt, range.max_total_params);
  }
  return out;
}

double law_extrapolation(const LossLaw& law, double params, double tokens,
                         std::optional<double> total_params) {
  if (!law.fitted_range) return std::numeric_limits<double>::quiet_NaN();
  // The factors of extrapolations() without building its list: a sweep asks this per point.
  const FittedRange& range = *law.fitted_range;
  double largest = std::max(factor_outside(params, range.min_params, range.max_params),
                            factor_outside(tokens, range.min_tokens, range.max_tokens));
  if (law.experts) {
    largest = std::max(largest, factor_outside(*law.experts, range.min_experts, range.max_experts));
  }
  if (total_params) {
    largest =
        std::max(largest, factor_outside(*total_params, std::nullopt, range.max_total_params));
  }
  return largest;
}

std::string extrapolation_text(const Extrapolation& e) {
  const bool above = e.fitted_max && e.value > *e.fitted_max;
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.3gx", e.factor());
  const double bound = above ? *e.fitted_max : *e.fitted_min;
  return e.quantity + " " + format_quantity(e.value, Unit::count) + ", " + factor +
         (above ? " above " : " below ") + format_quantity(bound, Unit::count);
}

}  // namespace scaleopt
