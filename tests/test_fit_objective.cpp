// The Approach 3 objective: Huber pieces by hand, the log-sum-exp against its naive form in
// 50 digits, and the analytic gradient against central differences in 50 digits.

#include <catch2/catch.hpp>
#include <cmath>

#include "fit_test_data.hpp"
#include "scaleopt/problems/fit/huber_lse_objective.hpp"
#include "scaleopt/problems/fit/scaling_law_fit_problem.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

LogRuns<Real50> log_runs_50(const std::vector<TrainingRun>& runs,
                            const std::vector<unsigned>& weights) {
  LogRuns<Real50> logs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    logs.log_params.push_back(log(Real50(runs[i].params)));
    logs.log_tokens.push_back(log(Real50(runs[i].tokens)));
    logs.log_loss.push_back(log(Real50(runs[i].loss)));
    logs.weight.push_back(Real50(weights[i]));
  }
  return logs;
}

struct GradientCheck {
  double double_vs_reference = 0.0;  // max_k |g_double - g_fd| / gradient scale
  double exact_vs_reference = 0.0;   // max_k |g_50 - g_fd| / gradient scale (formula alone)
  double objective_relative = 0.0;   // |f_double - f_50| / f_50
  int quadratic_residuals = 0;       // runs with |r| <= delta (the Huber branch exercised)
};

// Central differences in 50 digits with step 1e-20: truncation ~h^2 f''' ~ 1e-36 and rounding
// ~1e-50 / h = 1e-30, both far below what is compared. (A run whose residual lies within h of
// +-delta, where f'' jumps, would spoil it: probability ~1e-20.)
GradientCheck check_gradient(const std::vector<TrainingRun>& runs,
                             const std::vector<unsigned>& weights, const LogCoefficients& x,
                             double delta) {
  const ScalingLawFitProblem problem(log_runs(runs, weights), delta);
  const LogRuns<Real50> exact = log_runs_50(runs, weights);
  const Real50 delta50(delta);
  std::vector<Real50> x50(x.begin(), x.end());
  std::vector<Real50> g50(kFitVariables);
  const Real50 f50 = summed_huber_lse<Real50>(x50, exact, delta50, g50);
  std::vector<double> g(kFitVariables);
  const double f = problem.objective(x, g);

  GradientCheck check;
  check.objective_relative = relative_difference(f, f50);
  const Real50 h("1e-20");
  for (std::size_t k = 0; k < kFitVariables; ++k) {
    std::vector<Real50> plus = x50, minus = x50;
    plus[k] += h;
    minus[k] -= h;
    const Real50 fd = (summed_huber_lse<Real50>(plus, exact, delta50, {}) -
                       summed_huber_lse<Real50>(minus, exact, delta50, {})) /
                      (2 * h);
    const double scale = problem.gradient_scale();
    check.double_vs_reference =
        std::max(check.double_vs_reference, (abs(Real50(g[k]) - fd) / scale).convert_to<double>());
    check.exact_vs_reference =
        std::max(check.exact_vs_reference, (abs(g50[k] - fd) / scale).convert_to<double>());
  }
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const auto lse = log_sum_exp3<Real50>(x50[kLogE], exp(x50[kLogE]),
                                          x50[kLogA] - x50[kAlpha] * exact.log_params[i],
                                          x50[kLogB] - x50[kBeta] * exact.log_tokens[i]);
    if (abs(lse.value - exact.log_loss[i]) <= delta50) ++check.quadratic_residuals;
  }
  return check;
}

}  // namespace

TEST_CASE("Huber loss: quadratic within delta, linear beyond, continuous at delta", "[fit]") {
  // By hand: r = 5e-4 -> r^2/2 = 1.25e-7; r = -3e-3 -> 1e-3 (3e-3 - 5e-4) = 2.5e-6.
  CHECK(huber(5e-4, 1e-3) == Approx(1.25e-7).epsilon(1e-15));
  CHECK(huber(-3e-3, 1e-3) == Approx(2.5e-6).epsilon(1e-15));
  CHECK(huber(1e-3, 1e-3) == Approx(5e-7).epsilon(1e-15));
  CHECK(huber(std::nextafter(1e-3, 1.0), 1e-3) == Approx(5e-7).epsilon(1e-12));
  CHECK(huber_derivative(5e-4, 1e-3) == 5e-4);
  CHECK(huber_derivative(-3e-3, 1e-3) == -1e-3);
  CHECK(huber_derivative(3e-3, 1e-3) == 1e-3);
}

TEST_CASE(
    "log-sum-exp of three matches ln(e^t0 + e^t1 + e^t2) in 50 digits, even past "
    "double's overflow",
    "[fit]") {
  const double cases[][3] = {{0.5, 6.0 - 0.34 * 20.0, 6.0 - 0.28 * 23.0},
                             {-1.0, 25.0, 0.0},
                             {0.0, 800.0, -5.0},        // e^800 overflows a double
                             {-800.0, -790.0, -760.0},  // every e^t underflows
                             {1.0, 1.0, 1.0}};
  for (const auto& t : cases) {
    const double exp_t0 = std::exp(t[0]);
    const auto lse = log_sum_exp3(t[0], exp_t0, t[1], t[2]);
    const Real50 u0 = exp(Real50(t[0])), u1 = exp(Real50(t[1])), u2 = exp(Real50(t[2]));
    const Real50 sum = u0 + u1 + u2;
    INFO(t[0] << " " << t[1] << " " << t[2]);
    // A few ulps: two exponentials, a sum and a logarithm in double.
    CHECK(relative_difference(lse.value, log(sum)) <= 1e-15);
    CHECK(std::fabs(lse.p0 - (u0 / sum).convert_to<double>()) <= 1e-15);
    CHECK(std::fabs(lse.p1 - (u1 / sum).convert_to<double>()) <= 1e-15);
    CHECK(std::fabs(lse.p2 - (u2 / sum).convert_to<double>()) <= 1e-15);
  }
}

TEST_CASE("the analytic gradient matches 50-digit central differences on Epoch's runs",
          "[fit][gradient]") {
  const std::vector<TrainingRun> runs = epoch_runs();
  const std::vector<unsigned> ones(runs.size(), 1);
  // Epoch's optimum (residuals on both Huber branches), two grid starts, and a point from
  // which e^(a - alpha ln N) overflows a double.
  const LogCoefficients points[] = {
      {std::log(1.8172), std::log(477.8), std::log(2143.9), 0.3473, 0.3672},
      {0.5, 5.0, 10.0, 0.5, 1.0},
      {-1.0, 25.0, 0.0, 0.0, 2.0},
      {0.0, 900.0, 5.0, 1.0, 0.5}};
  for (const LogCoefficients& x : points) {
    const GradientCheck check = check_gradient(runs, ones, x, 1e-3);
    INFO("x = " << x[0] << " " << x[1] << " " << x[2] << " " << x[3] << " " << x[4]);
    // The formula itself: agreement to the 50-digit reference's own accuracy.
    CHECK(check.exact_vs_reference <= 1e-25);
    // In double: 240 terms of size <= delta |ln N| summed with rounding ~1e-16 each, relative
    // to their bound; 1e-13 leaves a factor ~100 for the exp/log ulps.
    CHECK(check.double_vs_reference <= 1e-13);
    CHECK(check.objective_relative <= 1e-13);
  }
  // The optimum exercises the quadratic branch, so both Huber pieces were checked.
  CHECK(check_gradient(runs, ones, points[0], 1e-3).quadratic_residuals >= 10);
}

TEST_CASE("the gradient with bootstrap weights and another delta matches too", "[fit][gradient]") {
  const std::vector<TrainingRun> runs = epoch_runs();
  std::mt19937_64 generator = replicate_generator(7, 3);
  const std::vector<unsigned> counts = resample_counts(runs.size(), generator);
  const LogCoefficients x{0.6, 6.2, 7.6, 0.35, 0.37};
  for (double delta : {1e-3, 0.05}) {
    const GradientCheck check = check_gradient(runs, counts, x, delta);
    CHECK(check.exact_vs_reference <= 1e-25);
    CHECK(check.double_vs_reference <= 1e-13);
    CHECK(check.objective_relative <= 1e-13);
  }
}

TEST_CASE("the gradient scale bounds the gradient at every grid start", "[fit][gradient]") {
  const std::vector<TrainingRun> runs = epoch_runs();
  const ScalingLawFitProblem problem(log_runs(runs), 1e-3);
  // delta * sum_i max(1, |ln N_i|, |ln D_i|), from the runs themselves.
  double bound = 0.0;
  for (const TrainingRun& run : runs) {
    bound += std::max({1.0, std::fabs(std::log(run.params)), std::fabs(std::log(run.tokens))});
  }
  CHECK(problem.gradient_scale() == Approx(1e-3 * bound).epsilon(1e-14));
  std::vector<double> g(kFitVariables);
  for (const LogCoefficients& x : hoffmann_start_grid()) {
    problem.objective(x, g);
    for (double v : g) REQUIRE(std::fabs(v) <= problem.gradient_scale());
  }
}
