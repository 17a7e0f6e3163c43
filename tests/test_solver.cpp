// The NLopt front end on problems with known answers: statuses, multipliers, the KKT check,
// option validation and exceptions thrown inside an objective.

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/kkt.hpp"
#include "scaleopt/solver/minimize.hpp"
#include "scaleopt/solver/root_find.hpp"

using namespace scaleopt;

namespace {

// minimise (x0 - 2)^2 + (x1 - 1)^2 s.t. x0 + x1 = 1: by hand x = (1, 0), lambda = 2
// (grad f = (-2, -2) at x, so grad f + lambda (1, 1) = 0).
class ProjectionProblem : public Problem {
 public:
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override { return {-10, -10}; }
  std::vector<double> upper_bounds() const override { return {10, 10}; }
  std::vector<double> start() const override { return {5, 5}; }
  double objective(std::span<const double> x, std::span<double> g) const override {
    if (!g.empty()) {
      g[0] = 2 * (x[0] - 2);
      g[1] = 2 * (x[1] - 1);
    }
    return (x[0] - 2) * (x[0] - 2) + (x[1] - 1) * (x[1] - 1);
  }
  std::size_t equality_count() const override { return 1; }
  double equality(std::size_t, std::span<const double> x, std::span<double> g) const override {
    if (!g.empty()) g[0] = g[1] = 1.0;
    return x[0] + x[1] - 1.0;
  }
};

// The same with the equality replaced by x0 <= 0.5: by hand x = (0.5, 1), mu = 3.
class InequalityProblem : public ProjectionProblem {
 public:
  std::size_t equality_count() const override { return 0; }
  std::size_t inequality_count() const override { return 1; }
  double inequality(std::size_t, std::span<const double> x, std::span<double> g) const override {
    if (!g.empty()) {
      g[0] = 1.0;
      g[1] = 0.0;
    }
    return x[0] - 0.5;
  }
};

class ThrowingProblem : public ProjectionProblem {
 public:
  double objective(std::span<const double> x, std::span<double> g) const override {
    if (x[0] < 4.0) throw InputError("price of chip 'x' went negative at step 3");
    return ProjectionProblem::objective(x, g);
  }
};

}  // namespace

TEST_CASE("an equality-constrained quadratic converges to the hand solution", "[solver]") {
  const SolveResult r = minimize(ProjectionProblem{});
  REQUIRE(r.status == Status::converged);
  CHECK(r.x[0] == Approx(1.0).margin(1e-12));
  CHECK(r.x[1] == Approx(0.0).margin(1e-12));
  REQUIRE(r.equality_multipliers.size() == 1);
  CHECK(r.equality_multipliers[0] == Approx(2.0).epsilon(1e-10));
  CHECK(r.kkt_residual < 1e-10);
  CHECK(r.constraint_violation < 1e-12);
  CHECK(r.evaluations > 0);
  CHECK_THAT(r.message, Catch::StartsWith("converged (LD_SLSQP"));
}

TEST_CASE("an active inequality gets a non-negative multiplier", "[solver]") {
  const SolveResult r = minimize(InequalityProblem{});
  REQUIRE(r.status == Status::converged);
  CHECK(r.x[0] == Approx(0.5).margin(1e-12));
  CHECK(r.x[1] == Approx(1.0).margin(1e-12));
  CHECK(r.inequality_multipliers[0] == Approx(3.0).epsilon(1e-10));
}

TEST_CASE("the derivative-free COBYLA answer is polished and verified too", "[solver]") {
  SolverOptions options;
  options.algorithm = "LN_COBYLA";
  const SolveResult r = minimize(ProjectionProblem{}, options);
  REQUIRE(r.status == Status::converged);
  CHECK(r.x[0] == Approx(1.0).margin(1e-10));
}

TEST_CASE("a solve cut short is not_converged, with the reason", "[solver]") {
  SolverOptions options;
  options.max_evaluations = 1;
  options.polish = false;
  const SolveResult r = minimize(ProjectionProblem{}, options);
  CHECK(r.status == Status::not_converged);
  CHECK_THAT(r.message, Catch::StartsWith("not converged") &&
                            Catch::Contains("maximum evaluations reached") &&
                            Catch::Contains("KKT residual"));
}

TEST_CASE("the KKT check rejects a feasible point that is not optimal", "[solver]") {
  const std::vector<double> feasible = {0.2, 0.8};
  const KktCheck check = check_kkt(ProjectionProblem{}, feasible);
  CHECK(check.constraint_violation < 1e-15);
  // grad f = (-3.6, -0.4): no lambda balances it; the least-squares lambda = 2 leaves (-1.6, 1.6).
  CHECK(check.residual == Approx(1.6 / 3.6).epsilon(1e-12));
}

TEST_CASE("an exception inside the objective keeps its type and message", "[solver]") {
  CHECK_THROWS_AS(minimize(ThrowingProblem{}), InputError);
  CHECK_THROWS_WITH(minimize(ThrowingProblem{}), "price of chip 'x' went negative at step 3");
}

TEST_CASE("invalid options name the field", "[solver]") {
  SolverOptions options;
  options.max_evaluations = 0;
  CHECK_THROWS_WITH(minimize(ProjectionProblem{}, options),
                    "max_evaluations: must be from 1 to 1e6, got 0");
  options = {};
  options.kkt_tolerance = -1;
  CHECK_THROWS_WITH(minimize(ProjectionProblem{}, options),
                    Catch::Contains("solver.kkt_tolerance"));
  options = {};
  options.algorithm = "LD_MMA";
  CHECK_THROWS_WITH(minimize(ProjectionProblem{}, options),
                    Catch::Contains("does not take equality constraints"));
  options.algorithm = "GN_MAGIC";
  CHECK_THROWS_WITH(minimize(ProjectionProblem{}, options), Catch::Contains("unknown NLopt"));
}

// A double well tilted to the left: f(x) = 10 (x^2 - 1)^2 + 0.3 x on [-2, 2], stationary where
// 40x^3 - 40x + 0.3 = 0: minima near -1.004 (the lower, f ~ -0.30) and 0.996 (f ~ 0.30), the
// maximum between them near 0.0075. From 1 (slope 0.3) NLopt stays in the right-hand well.
class DoubleWellProblem : public Problem {
 public:
  std::size_t dimension() const override { return 1; }
  std::vector<double> lower_bounds() const override { return {-2}; }
  std::vector<double> upper_bounds() const override { return {2}; }
  std::vector<double> start() const override { return {1.0}; }
  double objective(std::span<const double> x, std::span<double> g) const override {
    if (!g.empty()) g[0] = slope(x[0]);
    return 10 * (x[0] * x[0] - 1) * (x[0] * x[0] - 1) + 0.3 * x[0];
  }
  static double slope(double x) { return 40 * x * x * x - 40 * x + 0.3; }
};

TEST_CASE("several starts keep the best verified answer", "[solver]") {
  SolverOptions options;
  options.starts = 1;
  const SolveResult one = minimize(DoubleWellProblem{}, options);
  REQUIRE(one.status == Status::converged);
  CHECK(one.x[0] > 0.99);  // the right-hand well: a local minimum, verified as such
  // The starts move x by +1, -1, +2, -2 (clamped to the bounds): 0 slopes down to the left,
  // -1 lies in the left-hand well. The best of the five is kept, found by a start after the
  // first.
  options.starts = 5;
  const SolveResult five = minimize(DoubleWellProblem{}, options);
  REQUIRE(five.status == Status::converged);
  CHECK(five.x[0] < -1.0);
  CHECK(std::abs(DoubleWellProblem::slope(five.x[0])) < 1e-9);
  CHECK(five.objective < one.objective - 0.55);
  CHECK_THAT(five.message, Catch::Contains("; start "));
}

TEST_CASE("TOMS 748 finds a bracketed root and reports a missing sign change", "[solver]") {
  const RootResult root = find_root_in_bracket([](double x) { return x * x - 2.0; }, 0.0, 2.0);
  REQUIRE(root.status == Status::converged);
  CHECK(root.x == Approx(std::sqrt(2.0)).epsilon(1e-15));
  const RootResult none = find_root_in_bracket([](double x) { return x * x + 1.0; }, 0.0, 2.0);
  CHECK(none.status == Status::infeasible);
}

namespace {

// A corner: minimise f(x0, x1) = max(3 (x0 - 1), -(x0 - 1)) + x1 on x0 - x1 = 0. Along the
// constraint f = max(3 (t - 1), 1 - t) + t, whose slopes are 4 right of t = 1 and 0... so take
// f = max(3 (x0 - 1), -2 (x0 - 1)) + 0.5 x1: slopes 3.5 and -1.5 straddle zero at t = 1, where
// no gradient balances the constraint (the KKT conditions cannot hold).
class CornerProblem : public Problem {
 public:
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override { return {-10, -10}; }
  std::vector<double> upper_bounds() const override { return {10, 10}; }
  std::vector<double> start() const override { return {4, 4}; }
  double objective(std::span<const double> x, std::span<double> g) const override {
    const bool right = x[0] > 1.0;
    if (!g.empty()) {
      g[0] = right ? 3.0 : -2.0;
      g[1] = 0.5;
    }
    return (right ? 3.0 : -2.0) * (x[0] - 1.0) + 0.5 * x[1];
  }
  std::size_t equality_count() const override { return 1; }
  double equality(std::size_t, std::span<const double> x, std::span<double> g) const override {
    if (!g.empty()) {
      g[0] = 1.0;
      g[1] = -1.0;
    }
    return x[0] - x[1];
  }
};

// Throws when evaluated outside [0, 1] x [0, 1] (as the roofline does for a model beyond
// the replica's HBM); the optimum (1, 1) is at the upper bounds.
class FencedProblem : public ProjectionProblem {
 public:
  std::vector<double> lower_bounds() const override { return {0, 0}; }
  std::vector<double> upper_bounds() const override { return {1, 1}; }
  std::vector<double> start() const override { return {0.5, 0.5}; }
  double objective(std::span<const double> x, std::span<double> g) const override {
    if (x[0] > 1.0 || x[1] > 1.0 || x[0] < 0.0 || x[1] < 0.0) {
      throw std::logic_error("evaluated outside the bounds");
    }
    if (!g.empty()) {
      g[0] = -1.0;
      g[1] = -2.0 * x[1];
    }
    return -x[0] - x[1] * x[1];
  }
  std::size_t equality_count() const override { return 0; }
};

}  // namespace

TEST_CASE("a corner optimum is converged, certified by the slopes on its two sides", "[solver]") {
  const SolveResult result = minimize(CornerProblem{});
  INFO(result.message);
  REQUIRE(result.status == Status::converged);
  CHECK_THAT(result.message, Catch::Contains("corner"));
  // Bisection on the sign of the slope along x0 = x1 pins the corner to a few ulps.
  CHECK(result.x[0] == Approx(1.0).epsilon(1e-14));
  CHECK(result.x[1] == Approx(1.0).epsilon(1e-14));
  // The KKT residual is reported as it is: no single gradient balances at a corner.
  CHECK(result.kkt_residual > 1e-3);
}

TEST_CASE("the solver never evaluates a problem outside its bounds", "[solver]") {
  // The KKT polish's central differences are one-sided at a bound.
  const SolveResult result = minimize(FencedProblem{});
  REQUIRE(result.status == Status::converged);
  CHECK(result.x[0] == 1.0);
  CHECK(result.x[1] == 1.0);
}
