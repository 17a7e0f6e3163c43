#pragma once
// Distributions of uncertain inputs for Monte Carlo (scaleopt uncertainty; docs/sensitivity.md):
//
//   normal     mean, sd (sd >= 0; in the input's unit)
//   lognormal  median (> 0, the input's unit), sigma (>= 0: the standard deviation of ln x)
//   uniform    lo < hi (the input's unit)
//
// and the law's coefficients drawn from their uncertainty ("bootstrap"): multivariate normal
// with the covariance when it is known, independent normals with the standard errors
// otherwise. A draw outside what the input allows (a normal MFU above 1, a negative B) is not
// truncated: the sample is counted invalid, so a distribution that needs truncation shows.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/scenario/sample_generator.hpp"

namespace scaleopt {

enum class DistributionKind { normal, lognormal, uniform };
std::string_view to_string(DistributionKind kind);
// Throws InputError "unknown distribution 'x': expected normal, lognormal or uniform".
DistributionKind parse_distribution_kind(std::string_view text);

struct InputDistribution {
  DistributionKind kind = DistributionKind::normal;
  double first = 0.0;   // mean, median or lo
  double second = 0.0;  // sd, sigma or hi
  // Throws InputError naming `key` and the parameter ("KEY.sigma: must be >= 0, got -1").
  void validate(std::string_view key) const;
  double draw(SampleGenerator& generator) const;
  // The parameter names of `kind`: {"mean", "sd"}, {"median", "sigma"}, {"lo", "hi"}.
  static std::pair<std::string_view, std::string_view> parameter_names(DistributionKind kind);
};

// The uncertain inputs of a scenario ([uncertainty] table).
struct UncertainInput {
  std::string path;  // a numeric input ("inference.rate", "hardware.h100-sxm.usd_per_hour")
  InputDistribution distribution;
};
struct UncertaintySpec {
  std::vector<UncertainInput> inputs;
  bool law_bootstrap = false;  // law = "bootstrap"
  bool any() const { return law_bootstrap || !inputs.empty(); }
};

// Draws a law's five coefficients (E, A, B, alpha, beta) around it from its uncertainty.
class LawSampler {
 public:
  // Throws InputError when the covariance is not symmetric positive semi-definite, or a
  // standard error is negative.
  LawSampler(const LossLaw& law, const LawUncertainty& uncertainty);
  // Five normal deviates drawn from `generator`; the coefficients may be <= 0 (then the law is
  // invalid and the caller counts the sample so).
  void draw(SampleGenerator& generator, LossLaw& law) const;

 private:
  std::array<double, 5> mean_{};
  std::array<double, 25> factor_{};  // lower-triangular L with L L^T = covariance (row-major)
};

}  // namespace scaleopt
