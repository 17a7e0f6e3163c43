// The compute-optimal questions: NLopt against the closed form evaluated in 50 digits, and
// the published numbers of Hoffmann et al. 2022 and Besiroglu et al. 2024.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

AllocationRule law_rule(const char* name) {
  return {loss_law_preset(name), std::nullopt};
}

// The bound for NLopt against the exact closed form.
constexpr double kNloptVsExact = 1e-9;

}  // namespace

TEST_CASE("NLopt matches the 50-digit closed form for C in 1e18..1e28 and every preset",
          "[compute_optimal]") {
  for (const LossLaw& law : loss_law_presets()) {
    const auto exact_coefficients = coefficients_of<Real50>(law);
    for (int step = 0; step <= 40; ++step) {
      const double compute = std::pow(10.0, 18.0 + 0.25 * step);
      const Allocation a = optimal_for_compute({law, std::nullopt}, compute);
      const auto exact = compute_optimal_allocation(exact_coefficients, Real50(compute));
      INFO(law.name << " C=" << compute << " " << a.solve.message);
      REQUIRE(a.solve.status == Status::converged);
      CHECK(relative_difference(a.params, exact.params) <= kNloptVsExact);
      CHECK(relative_difference(a.tokens, exact.tokens) <= kNloptVsExact);
      CHECK(a.solve.kkt_residual <= SolverOptions{}.kkt_tolerance);
      CHECK(a.solve.constraint_violation <= SolverOptions{}.constraint_tolerance);
    }
  }
}

TEST_CASE("hoffmann2022 at 5.76e23 FLOPs: N ~ 3.219e10 and ~92.6 tokens per parameter",
          "[compute_optimal][published]") {
  // The printed Approach 3 fit gives ~90 tokens/param at Chinchilla's budget, not 20
  // (docs/model.md, Loss law); 3.219e10 and 92.6 are the closed form's values to 4 digits.
  const Allocation a = optimal_for_compute(law_rule("hoffmann2022"), 5.76e23);
  CHECK(a.params == Approx(3.219e10).epsilon(5e-4));
  CHECK(a.tokens_per_param() == Approx(92.6).margin(0.05));
}

TEST_CASE("hoffmann2022-a3 reproduces Hoffmann's Table A3 frontier within 5% on every row",
          "[compute_optimal][published]") {
  // Hoffmann et al. 2022, App. D.3, Table A3, Approach 3: parameters and tokens as printed
  // (each row is keyed by N; its FLOPs are 6 N D, except the 175B row's 1.26e24, a typo for
  // 1.26e25, which is why the rows are compared by N and D, not by FLOPs).
  struct Row {
    double params, tokens;
  };
  const Row table_a3[] = {{400e6, 9.2e9},   {1e9, 27.1e9},    {10e9, 410.1e9},
                          {67e9, 4.1e12},   {175e9, 12.0e12}, {280e9, 20.1e12},
                          {520e9, 43.5e12}, {1e12, 94.1e12},  {10e12, 1425.5e12}};
  // 5%: the table is not one power law (its 67B and 280B rows are ~4% off their own 6 N D),
  // so no law of Hoffmann's form passes within less than 4.4% of every row.
  constexpr double kTableA3 = 0.05;
  const AllocationRule a3 = law_rule("hoffmann2022-a3");
  const AllocationRule printed = law_rule("hoffmann2022");
  for (const Row& row : table_a3) {
    INFO("N = " << row.params);
    CHECK(std::fabs(optimal_for_params(a3, row.params).tokens / row.tokens - 1.0) < kTableA3);
    // The printed (rounded) exponents give 57-122% more tokens than the table.
    CHECK(optimal_for_params(printed, row.params).tokens / row.tokens > 1.5);
  }
}

TEST_CASE("epoch2024 at 5.76e23 FLOPs: ~18.4 tokens per parameter (Besiroglu et al. 2024)",
          "[compute_optimal][published]") {
  const Allocation a = optimal_for_compute(law_rule("epoch2024"), 5.76e23);
  CHECK(a.tokens_per_param() == Approx(18.4).margin(0.05));
}

TEST_CASE("the cheapest model for a target loss matches the 50-digit closed form",
          "[compute_optimal]") {
  for (const LossLaw& law : loss_law_presets()) {
    const auto exact_coefficients = coefficients_of<Real50>(law);
    for (double excess : {0.05, 0.1, 0.25, 0.5, 1.0, 2.0}) {
      const double target = law.E + excess;
      const Allocation a = optimal_for_loss({law, std::nullopt}, target);
      const Real50 exact_compute = compute_for_loss(exact_coefficients, Real50(target));
      const auto exact = compute_optimal_allocation(exact_coefficients, exact_compute);
      INFO(law.name << " target=" << target << " " << a.solve.message);
      REQUIRE(a.solve.status == Status::converged);
      CHECK(relative_difference(a.params, exact.params) <= kNloptVsExact);
      CHECK(relative_difference(a.tokens, exact.tokens) <= kNloptVsExact);
      CHECK(relative_difference(a.compute_flops, exact_compute) <= 2 * kNloptVsExact);
      CHECK(a.loss == Approx(target).epsilon(1e-13));
    }
  }
}

TEST_CASE("the closed forms agree with each other in 50 digits", "[compute_optimal]") {
  // compute_for_loss inverts the frontier: the frontier point at that compute has the target
  // loss, and compute_optimal_tokens(N) returns that point's D.
  using boost::multiprecision::pow;
  for (const LossLaw& law : loss_law_presets()) {
    const auto c = coefficients_of<Real50>(law);
    const Real50 target = c.E + Real50("0.3");
    const auto point = compute_optimal_allocation(c, compute_for_loss(c, target));
    const Real50 loss = c.E + c.A / pow(point.params, c.alpha) + c.B / pow(point.tokens, c.beta);
    CHECK(abs(loss - target) < Real50("1e-40"));
    CHECK(abs(compute_optimal_tokens(c, point.params) / point.tokens - 1) < Real50("1e-40"));
  }
}

TEST_CASE("the compute-optimal D for a given N is where NLopt puts that N", "[compute_optimal]") {
  const AllocationRule rule = law_rule("epoch2024");
  const Allocation for_params = optimal_for_params(rule, 70e9);
  const Allocation for_compute = optimal_for_compute(rule, for_params.compute_flops);
  CHECK(for_compute.params == Approx(70e9).epsilon(kNloptVsExact));
  CHECK(for_compute.tokens == Approx(for_params.tokens).epsilon(kNloptVsExact));
}

TEST_CASE("a fixed tokens-per-parameter rule replaces the law's frontier", "[compute_optimal]") {
  AllocationRule rule = law_rule("epoch2024");
  rule.tokens_per_param = 20.0;
  const Allocation a = optimal_for_compute(rule, 1.2e24);
  CHECK(a.params == Approx(1e11).epsilon(1e-15));  // sqrt(1.2e24 / 120)
  CHECK(a.tokens == Approx(2e12).epsilon(1e-15));
  const Allocation b = optimal_for_params(rule, 70e9);
  CHECK(b.tokens == Approx(1.4e12).epsilon(1e-15));
  CHECK(b.compute_flops == Approx(6 * 70e9 * 1.4e12).epsilon(1e-15));
  const Allocation c = optimal_for_loss(rule, 2.0);
  REQUIRE(c.solve.status == Status::converged);
  CHECK(c.tokens_per_param() == Approx(20.0).epsilon(1e-15));
  CHECK(c.loss == Approx(2.0).epsilon(1e-14));  // TOMS 748 to 52 bits in ln N
}

TEST_CASE("a target at or below E is infeasible and says what is reachable", "[compute_optimal]") {
  const Allocation a = optimal_for_loss(law_rule("sardana2024"), 1.5);
  CHECK(a.solve.status == Status::infeasible);
  CHECK_THAT(a.solve.message, Catch::Contains("irreducible loss E = 1.69") &&
                                  Catch::Contains("lowest reachable loss"));
  CHECK(optimal_for_loss(law_rule("sardana2024"), 1.69).solve.status == Status::infeasible);
  AllocationRule rule = law_rule("sardana2024");
  rule.tokens_per_param = 20.0;
  CHECK(optimal_for_loss(rule, 1.2).solve.status == Status::infeasible);
}

TEST_CASE("a target so close to E that it needs more than 1e30 parameters is infeasible",
          "[compute_optimal]") {
  const Allocation a = optimal_for_loss(law_rule("epoch2024"), 1.8172 + 1e-9);
  CHECK(a.solve.status == Status::infeasible);
  CHECK_THAT(a.solve.message, Catch::Contains("1e30"));
}

TEST_CASE("non-positive or non-finite inputs are rejected with the field named",
          "[compute_optimal]") {
  const AllocationRule rule = law_rule("epoch2024");
  CHECK_THROWS_WITH(optimal_for_compute(rule, -1.0), Catch::Contains("compute must be"));
  CHECK_THROWS_WITH(optimal_for_compute(rule, std::nan("")), Catch::Contains("compute"));
  CHECK_THROWS_WITH(optimal_for_params(rule, 0.0), Catch::Contains("params must be"));
  CHECK_THROWS_WITH(optimal_for_loss(rule, INFINITY), Catch::Contains("loss must be"));
  AllocationRule bad = rule;
  bad.tokens_per_param = -20.0;
  CHECK_THROWS_WITH(optimal_for_compute(bad, 1e24), Catch::Contains("tokens_per_param"));
}
