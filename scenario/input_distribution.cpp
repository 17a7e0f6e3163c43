#include "scaleopt/scenario/input_distribution.hpp"

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {
namespace {

[[noreturn]] void bad_parameter(std::string_view key, std::string_view parameter,
                                const std::string& what) {
  throw InputError(std::string(key) + "." + std::string(parameter) + ": " + what);
}

std::string text_of(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::string_view to_string(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::normal:
      return "normal";
    case DistributionKind::lognormal:
      return "lognormal";
    case DistributionKind::uniform:
      return "uniform";
  }
  return "normal";
}

DistributionKind parse_distribution_kind(std::string_view text) {
  for (DistributionKind kind :
       {DistributionKind::normal, DistributionKind::lognormal, DistributionKind::uniform}) {
    if (to_string(kind) == text) return kind;
  }
  throw InputError("unknown distribution " + quoted_input(text) +
                   ": expected normal, lognormal or uniform");
}

std::pair<std::string_view, std::string_view> InputDistribution::parameter_names(
    DistributionKind kind) {
  switch (kind) {
    case DistributionKind::normal:
      return {"mean", "sd"};
    case DistributionKind::lognormal:
      return {"median", "sigma"};
    case DistributionKind::uniform:
      return {"lo", "hi"};
  }
  return {"mean", "sd"};
}

void InputDistribution::validate(std::string_view key) const {
  const auto [first_name, second_name] = parameter_names(kind);
  if (!std::isfinite(first)) bad_parameter(key, first_name, "must be finite");
  if (!std::isfinite(second)) bad_parameter(key, second_name, "must be finite");
  switch (kind) {
    case DistributionKind::normal:
    case DistributionKind::lognormal:
      if (second < 0.0) bad_parameter(key, second_name, "must be >= 0, got " + text_of(second));
      if (kind == DistributionKind::lognormal && !(first > 0.0)) {
        bad_parameter(key, first_name, "must be > 0, got " + text_of(first));
      }
      return;
    case DistributionKind::uniform:
      if (!(first < second)) {
        throw InputError(std::string(key) + ": lo must be below hi, got lo = " + text_of(first) +
                         ", hi = " + text_of(second));
      }
      return;
  }
}

double InputDistribution::draw(SampleGenerator& generator) const {
  switch (kind) {
    case DistributionKind::normal:
      return first + second * generator.normal();
    case DistributionKind::lognormal:
      return first * std::exp(second * generator.normal());
    case DistributionKind::uniform:
      return first + (second - first) * generator.uniform();
  }
  return first;
}

LawSampler::LawSampler(const LossLaw& law, const LawUncertainty& uncertainty)
    : mean_{law.E, law.A, law.B, law.alpha, law.beta} {
  Eigen::Matrix<double, 5, 5> covariance = Eigen::Matrix<double, 5, 5>::Zero();
  for (int i = 0; i < 5; ++i) {
    const double se = uncertainty.standard_errors[static_cast<std::size_t>(i)];
    if (!(se >= 0.0) || !std::isfinite(se)) {
      throw InputError(std::string("law.uncertainty.standard_errors.") + kLawCoefficientNames[i] +
                       ": must be finite and >= 0, got " + text_of(se));
    }
    covariance(i, i) = se * se;
  }
  if (uncertainty.covariance) {
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 5; ++j) {
        covariance(i, j) =
            (*uncertainty.covariance)[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      }
    }
    if (!covariance.allFinite() || !covariance.isApprox(covariance.transpose(), 1e-12)) {
      throw InputError("law.uncertainty.covariance: must be a finite symmetric matrix");
    }
  }
  // covariance = V diag(lambda) V^T; the factor V diag(sqrt(lambda)) maps independent normal
  // deviates to draws with this covariance, also when it is only semi-definite (a bootstrap
  // of collinear coefficients). Eigenvalues below -1e-12 of the largest mean it is not one.
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 5, 5>> eigen(covariance);
  const auto& lambda = eigen.eigenvalues();
  if (lambda.minCoeff() < -1e-12 * std::max(1.0, lambda.maxCoeff())) {
    throw InputError("law.uncertainty.covariance: not positive semi-definite (eigenvalue " +
                     text_of(lambda.minCoeff()) + ")");
  }
  const Eigen::Matrix<double, 5, 5> factor =
      eigen.eigenvectors() * lambda.cwiseMax(0.0).cwiseSqrt().asDiagonal();
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) factor_[static_cast<std::size_t>(5 * i + j)] = factor(i, j);
  }
}

void LawSampler::draw(SampleGenerator& generator, LossLaw& law) const {
  std::array<double, 5> z{};
  for (double& deviate : z) deviate = generator.normal();
  std::array<double, 5> x = mean_;
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 5; ++j) x[i] += factor_[5 * i + j] * z[j];
  }
  law.E = x[0];
  law.A = x[1];
  law.B = x[2];
  law.alpha = x[3];
  law.beta = x[4];
}

}  // namespace scaleopt
