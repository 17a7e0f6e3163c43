// The pieces under the fit: sample statistics, the L-BFGS wrapper, dropping runs, the start
// grid and option validation.

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/fit/sample_statistics.hpp"
#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"
#include "scaleopt/solver/lbfgs.hpp"

using namespace scaleopt;

namespace {

// Rosenbrock's function, minimum 0 at (1, 1).
class Rosenbrock : public Problem {
 public:
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override { return {-HUGE_VAL, -HUGE_VAL}; }
  std::vector<double> upper_bounds() const override { return {HUGE_VAL, HUGE_VAL}; }
  std::vector<double> start() const override { return {-1.2, 1.0}; }
  double objective(std::span<const double> x, std::span<double> g) const override {
    const double a = 1 - x[0], b = x[1] - x[0] * x[0];
    if (!g.empty()) {
      g[0] = -2 * a - 400 * x[0] * b;
      g[1] = 200 * b;
    }
    return a * a + 100 * b * b;
  }
};

class ThrowingRosenbrock : public Rosenbrock {
 public:
  double objective(std::span<const double> x, std::span<double> g) const override {
    if (x[0] > -1.0) throw InputError("run 12: loss went negative");
    return Rosenbrock::objective(x, g);
  }
};

}  // namespace

TEST_CASE("quantiles interpolate as numpy and R do (Hyndman & Fan definition 7)", "[fit]") {
  const std::vector<double> values = {4.0, 1.0, 3.0, 2.0};
  // Sorted 1, 2, 3, 4: position (n - 1) q = 0.3 -> 1.3; 2.7 -> 3.7 (numpy.quantile agrees).
  CHECK(quantile(values, 0.1) == Approx(1.3).epsilon(1e-15));
  CHECK(quantile(values, 0.9) == Approx(3.7).epsilon(1e-15));
  CHECK(quantile(values, 0.0) == 1.0);
  CHECK(quantile(values, 1.0) == 4.0);
  CHECK(quantile(std::vector<double>{7.0}, 0.9) == 7.0);
}

TEST_CASE("standard deviation and covariance divide by n - 1", "[fit]") {
  const std::vector<double> x = {2, 4, 4, 4, 5, 5, 7, 9};  // mean 5, squares sum to 32
  CHECK(standard_deviation(x) == Approx(std::sqrt(32.0 / 7.0)).epsilon(1e-15));
  const std::vector<double> y = {1, 2, 3};
  const std::vector<double> z = {3, 1, 2};
  // (1-2)(3-2) + 0 + (3-2)(2-2) = -1, over 2.
  CHECK(covariance(y, z) == Approx(-0.5).epsilon(1e-15));
  CHECK(standard_deviation(std::vector<double>{3.0}) == 0.0);
}

TEST_CASE("L-BFGS finds Rosenbrock's minimum and reports the gradient there", "[fit][lbfgs]") {
  const LbfgsOutcome outcome = minimize_lbfgs(Rosenbrock{}, {-1.2, 1.0});
  CHECK(outcome.x[0] == Approx(1.0).margin(1e-5));
  CHECK(outcome.x[1] == Approx(1.0).margin(1e-5));
  CHECK(outcome.objective < 1e-10);
  CHECK(std::fabs(outcome.gradient[0]) < 1e-4);
  CHECK(outcome.evaluations > 10);
  CHECK_FALSE(outcome.nlopt_outcome.empty());
}

TEST_CASE("an exception inside the fit objective reaches the caller unchanged", "[fit][lbfgs]") {
  CHECK_THROWS_AS(minimize_lbfgs(ThrowingRosenbrock{}, {-1.2, 1.0}), InputError);
  CHECK_THROWS_WITH(minimize_lbfgs(ThrowingRosenbrock{}, {-1.2, 1.0}),
                    "run 12: loss went negative");
}

TEST_CASE("Hoffmann's grid has 4,500 distinct starts over the published values", "[fit]") {
  const std::vector<LogCoefficients> grid = hoffmann_start_grid();
  REQUIRE(grid.size() == 4500);
  std::set<LogCoefficients> distinct(grid.begin(), grid.end());
  CHECK(distinct.size() == 4500);
  std::set<double> alphas, es, as;
  for (const LogCoefficients& x : grid) {
    alphas.insert(x[kAlpha]);
    es.insert(x[kLogE]);
    as.insert(x[kLogA]);
  }
  CHECK(alphas == std::set<double>{0.0, 0.5, 1.0, 1.5, 2.0});
  CHECK(es == std::set<double>{-1.0, -0.5, 0.0, 0.5, 1.0});
  CHECK(as == std::set<double>{0.0, 5.0, 10.0, 15.0, 20.0, 25.0});
  // Epoch's itertools.product order: alpha outermost, b innermost.
  CHECK(grid[1][kLogB] == 5.0);
  CHECK(grid[4499] == LogCoefficients{1.0, 25.0, 25.0, 2.0, 2.0});
}

TEST_CASE("without_highest_loss drops exactly k runs, ties in file order", "[fit]") {
  const std::vector<TrainingRun> runs = {
      {1e8, 1e9, 3.0}, {2e8, 1e9, 5.0}, {3e8, 1e9, 4.0}, {4e8, 1e9, 5.0}, {5e8, 1e9, 2.0}};
  const std::vector<TrainingRun> kept = without_highest_loss(runs, 2);
  REQUIRE(kept.size() == 3);
  CHECK(kept[0].params == 1e8);
  CHECK(kept[1].params == 3e8);
  CHECK(kept[2].params == 5e8);
  // Of the two 5.0s only the first goes when one run is dropped.
  CHECK(without_highest_loss(runs, 1)[2].params == 4e8);
  CHECK(without_highest_loss(runs, 0).size() == 5);
  CHECK(without_highest_loss(runs, 9).empty());
}

TEST_CASE("bad runs and options are refused with the field named", "[fit]") {
  std::vector<TrainingRun> runs(6, TrainingRun{1e9, 2e10, 2.5});
  runs[4].loss = -1.0;
  CHECK_THROWS_WITH(fit_scaling_law(runs), "run 4: loss must be finite and positive, got -1");
  runs[4].loss = 2.5;
  runs[2].tokens = std::nan("");
  CHECK_THROWS_WITH(fit_scaling_law(runs), "run 2: tokens must be finite and positive, got nan");
  // Fewer runs than coefficients is a limit of the data, not bad input: not identifiable.
  const std::vector<TrainingRun> four{
      {1e8, 2e9, 3.1}, {2e8, 4e9, 2.9}, {4e8, 8e9, 2.7}, {8e8, 2e10, 2.5}};
  const FitResult fit = fit_scaling_law(four);
  CHECK(fit.status == Status::not_identifiable);
  CHECK(fit.message == "4 runs, fewer than the 5 coefficients E, A, B, alpha, beta");

  FitOptions options;
  options.huber_delta = 0.0;
  CHECK_THROWS_WITH(options.validate(), "fit.huber_delta must be finite and positive, got 0");
  options = {};
  options.starts.clear();
  CHECK_THROWS_WITH(options.validate(), Catch::StartsWith("fit.starts must be non-empty"));
  options = {};
  options.lbfgs.max_evaluations = 0;
  CHECK_THROWS_WITH(options.validate(), "lbfgs.max_evaluations must be positive, got 0");
  const BootstrapOptions one_replicate{.replicates = 1, .seed = 1};
  CHECK_THROWS_WITH(one_replicate.validate(),
                    "bootstrap: at least 2 replicates (a spread needs two), got 1");
}

TEST_CASE("a fit whose starts all stop early is not_converged, with the reason", "[fit]") {
  std::vector<TrainingRun> runs;
  for (int i = 0; i < 8; ++i) {
    const double params = 1e8 * std::pow(2.0, i);
    runs.push_back({params, 20 * params, loss_law_preset("epoch2024").loss(params, 20 * params)});
  }
  FitOptions options;
  options.starts = {hoffmann_start_grid()[0], hoffmann_start_grid()[100]};
  options.lbfgs.max_evaluations = 3;
  const FitResult fit = fit_scaling_law(runs, options);
  CHECK(fit.status == Status::not_converged);
  CHECK(fit.starts_converged == 0);
  CHECK(fit.gradient_norm > options.gradient_tolerance);
  CHECK_THAT(fit.message, Catch::StartsWith("not converged: none of 2 starts"));
}
