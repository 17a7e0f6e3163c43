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

}  // namespace

double Extrapolation::factor() const {
  if (fitted_max && value > *fitted_max) return value / *fitted_max;
  if (fitted_min && value < *fitted_min) return *fitted_min / value;
  return 1.0;
}

std::vector<Extrapolation> extrapolations(const LossLaw& law, double params, double tokens) {
  std::vector<Extrapolation> out;
  if (!law.fitted_range) return out;
  const FittedRange& range = *law.fitted_range;
  check(out, "params", params, range.min_params, range.max_params);
  check(out, "tokens", tokens, range.min_tokens, range.max_tokens);
  // A joint law at a fixed number of experts: that number against the runs' experts.
  if (law.experts) check(out, "experts", *law.experts, range.min_experts, range.max_experts);
  return out;
}

double law_extrapolation(const LossLaw& law, double params, double tokens) {
  if (!law.fitted_range) return std::numeric_limits<double>::quiet_NaN();
  double largest = 1.0;
  for (const Extrapolation& e : extrapolations(law, params, tokens)) {
    largest = std::max(largest, e.factor());
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
