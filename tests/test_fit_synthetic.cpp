// Fits of runs generated from a known law (hoffmann2022's coefficients): exact data give the
// law back, noisy data give it back within the bootstrap's spread, and the spread shrinks as
// runs are added.

#include <catch2/catch.hpp>
#include <cmath>

#include "fit_test_data.hpp"
#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"

using namespace scaleopt;

namespace {

std::array<double, 5> coefficients(const LossLaw& law) {
  return {law.E, law.A, law.B, law.alpha, law.beta};
}

// Noise on ln L of 1% (Hoffmann's runs scatter by ~2% about the fitted law).
constexpr double kNoise = 0.01;

}  // namespace

TEST_CASE("runs exactly on a law give the law back to ~1e-8", "[fit][synthetic]") {
  const LossLaw truth = loss_law_preset("hoffmann2022");
  const FitResult fit = fit_scaling_law(synthetic_runs(truth, 10, 6, 0.0, 1));
  REQUIRE(fit.converged());
  // Every residual can be zero, so the optimum is the law itself; L-BFGS stops where the
  // objective (quadratic in the error there) changes by < 1e-12 relative, measured at a
  // relative error ~3e-12 in A. 1e-8 is a margin, far below any statistical effect.
  const auto expected = coefficients(truth);
  const auto found = coefficients(fit.law);
  for (std::size_t i = 0; i < 5; ++i) {
    INFO(kLawCoefficientNames[i]);
    CHECK(found[i] == Approx(expected[i]).epsilon(1e-8));
  }
  CHECK(fit.objective < 1e-20);
}

TEST_CASE("noisy runs from a known law: the law lies within the bootstrap's spread",
          "[fit][synthetic][bootstrap]") {
  const LossLaw truth = loss_law_preset("hoffmann2022");
  const auto expected = coefficients(truth);
  int covered = 0, checked = 0;
  for (std::uint64_t dataset = 1; dataset <= 4; ++dataset) {
    const std::vector<TrainingRun> runs = synthetic_runs(truth, 10, 6, kNoise, dataset);
    const FitResult fit = fit_scaling_law(runs);
    REQUIRE(fit.converged());
    const BootstrapResult boot =
        bootstrap_scaling_law(runs, fit, FitOptions{}, {.replicates = 200, .seed = 1});
    CHECK(boot.converged >= 190);
    const auto found = coefficients(fit.law);
    for (std::size_t i = 0; i < 5; ++i) {
      const Spread& spread = boot.coefficients[i];
      INFO("dataset " << dataset << " " << kLawCoefficientNames[i] << " fit " << found[i] << " se "
                      << spread.standard_error << " [" << spread.lower << ", " << spread.upper
                      << "]");
      // Within 3 standard errors: fails by chance ~0.3% of the time for a sound error bar
      // (these seeds are fixed, so the outcome is too).
      CHECK(std::fabs(found[i] - expected[i]) <= 3.0 * spread.standard_error);
      covered += spread.lower <= expected[i] && expected[i] <= spread.upper;
      ++checked;
    }
  }
  // The 10-90% intervals are 80% intervals: of 20, ~16 should cover the truth; intervals too
  // narrow by a factor 2 would cover ~8. (Measured: 20 of 20; percentile intervals of a
  // robust fit on 60 runs run a little wide.)
  CHECK(covered >= 12);
  CHECK(checked == 20);
}

TEST_CASE("four times the runs halve the standard errors", "[fit][synthetic][bootstrap]") {
  const LossLaw truth = loss_law_preset("hoffmann2022");
  std::array<BootstrapResult, 2> boots;
  const std::pair<int, int> designs[2] = {{10, 6}, {20, 12}};  // 60 and 240 runs, same span
  for (std::size_t d = 0; d < 2; ++d) {
    const std::vector<TrainingRun> runs =
        synthetic_runs(truth, designs[d].first, designs[d].second, kNoise, 1);
    const FitResult fit = fit_scaling_law(runs);
    REQUIRE(fit.converged());
    boots[d] = bootstrap_scaling_law(runs, fit, FitOptions{}, {.replicates = 200, .seed = 1});
  }
  for (std::size_t i = 0; i < 5; ++i) {
    INFO(kLawCoefficientNames[i]);
    // Standard errors fall as 1/sqrt(runs): expected ratio 0.5 (measured 0.30-0.42 here);
    // 0.75 allows for the scatter of a 200-replicate estimate on one data set.
    CHECK(boots[1].coefficients[i].standard_error < 0.75 * boots[0].coefficients[i].standard_error);
    const double width_small = boots[0].coefficients[i].upper - boots[0].coefficients[i].lower;
    const double width_large = boots[1].coefficients[i].upper - boots[1].coefficients[i].lower;
    CHECK(width_large < 0.75 * width_small);
  }
}
