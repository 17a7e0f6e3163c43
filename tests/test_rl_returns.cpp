// RL as a budget the optimiser chooses (the RL gain transform of the loss term, the lifecycle
// problem with D_RL a variable, problems/rl_returns/ its reference): the gain curve and the loss
// against 50-digit differences, the 3-variable optimum against a 50-digit reference built here
// from the closed form of r* (h = 1) and the Lagrange condition in N, the KKT checks, and the
// signs a returns model must have.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/rl_returns/rl_returns_plan.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

using boost::multiprecision::exp;
using boost::multiprecision::log;
using boost::multiprecision::pow;
using boost::multiprecision::sqrt;

// The 3-variable optimum against an independent reference: the answers agree to 1e-9
// relative, well above NLopt's 1e-12 tolerances and the KKT polish's residual.
constexpr double kReference = 1e-9;

// sardana2024 with the RL gain, k = 2 (rollouts not trained on).
struct ReturnsLaw {
  LossLaw law;
  RlReturns returns;
  LossTerm loss;
};
ReturnsLaw returns_law(double max_gain, double half_ratio, double steepness = 1.0,
                       double min_rl_tokens = 1.0) {
  const LossLaw law = loss_law_preset("sardana2024");
  const RlReturns returns{max_gain, half_ratio, steepness};
  LossTerm loss(law);
  loss.then(std::make_shared<const RlGainTransform>(returns, 2.0, min_rl_tokens));
  return {law, returns, loss};
}

// The lifecycle problem with D_RL chosen: the cheapest plan at a loss, the best within a budget.
LifetimePlan at_loss_with_rl(const ReturnsLaw& law, double target, const LifetimeCostModel& model,
                             CostUnit unit) {
  return solve_lifecycle(lifecycle_terms(law.loss, model, unit),
                         LifecycleQuestion::at_target_loss(target));
}
LifetimePlan within_budget_with_rl(const ReturnsLaw& law, const LifetimeCostModel& model,
                                   CostUnit unit, double budget, double min_params) {
  return solve_lifecycle(lifecycle_terms(law.loss, model, unit, min_params),
                         LifecycleQuestion::within_budget(budget));
}

// g(r) from its definition, in 50 digits.
Real50 gain50(const RlReturns& r, const Real50& ratio) {
  return 1 + Real50(r.max_gain - 1) / (1 + pow(Real50(r.half_ratio) / ratio, Real50(r.steepness)));
}

// r* for h = 1 and cost ratio kappa: the positive root of
//   kappa G r^2 + 2 kappa r_half r + r_half (kappa r_half + 1 - G) = 0,
// which is d ln[(1 + kappa r)(r + r_half) / (G r + r_half)] / dr = 0 (g = (G r + r_half) /
// (r + r_half) when h = 1), i.e. r* = (sqrt(kappa r_half (G - 1)(G - kappa r_half)) -
// kappa r_half) / (kappa G).
Real50 best_ratio_h1(double max_gain, double half_ratio, double kappa) {
  const Real50 G(max_gain), rh(half_ratio), k(kappa);
  return (sqrt(k * rh * (G - 1) * (G - k * rh)) - k * rh) / (k * G);
}

// The 50-digit reference of min-lifetime-flops with returns (h = 1, k = 2, FLOPs: kappa = 1):
// minimise 6 N D_eff m* + 2 N T s.t. E + A N^-alpha + B D_eff^-beta = L*, m* = (1 + r*) / g(r*).
// Along the constraint d ln D_eff / d ln N = -alpha p / (beta (R - p)), p = A N^-alpha, so the
// optimum is the root of 6 m* N D_eff (1 + d ln D_eff / d ln N) + 2 N T, found by bisection.
struct Reference {
  Real50 params, tokens, rl_tokens;
};
Reference reference_flops(const ReturnsLaw& law, double target, double inference_tokens) {
  const LossLaw& l = law.law;
  const Real50 r = best_ratio_h1(law.returns.max_gain, law.returns.half_ratio, 1.0);
  const Real50 g = gain50(law.returns, r);
  const Real50 m = (1 + r) / g;
  const Real50 R = Real50(target) - Real50(l.E);
  const Real50 A(l.A), B(l.B), alpha(l.alpha), beta(l.beta), T(inference_tokens);
  auto effective = [&](const Real50& n) -> Real50 {
    return pow(B / (R - A * pow(n, -alpha)), 1 / beta);
  };
  auto slope = [&](const Real50& log_n) -> Real50 {
    const Real50 n = exp(log_n);
    const Real50 p = A * pow(n, -alpha);
    return 6 * m * n * effective(n) * (1 - alpha * p / (beta * (R - p))) + 2 * n * T;
  };
  // N_min = (A / R)^(1/alpha): D_eff is infinite there and the slope -inf; large N: positive.
  Real50 lo = log(A / R) / alpha + Real50("1e-30"), hi = Real50(69);
  for (int i = 0; i < 400; ++i) {
    const Real50 mid = (lo + hi) / 2;
    (slope(mid) < 0 ? lo : hi) = mid;
  }
  const Real50 n = exp((lo + hi) / 2);
  const Real50 d = effective(n) / g;
  return {n, d, 6 * r * d / 2};  // D_RL = 6 D r / k, k = 2
}

}  // namespace

TEST_CASE("the gain: 1 without RL, half of G - 1 at r_half, G at saturation", "[rl_returns]") {
  const RlReturns r{20.0, 0.005, 1.0};
  CHECK(rl_gain(r, std::log(1e-20)).gain == Approx(1.0).epsilon(1e-14));
  CHECK(rl_gain(r, std::log(0.005)).gain == Approx(10.5).epsilon(1e-14));
  CHECK(rl_gain(r, std::log(1e20)).gain == Approx(20.0).epsilon(1e-14));
  // The elasticity against 50-digit central differences of ln g in ln r (h = 1e-12: truncation
  // ~1e-24, far below double precision).
  for (const RlReturns& returns : {r, RlReturns{5.0, 0.1, 2.0}, RlReturns{50.0, 0.02, 0.75}}) {
    for (double ratio : {1e-4, 0.003, 0.02, 0.3, 5.0}) {
      const Real50 h("1e-12"), x = log(Real50(ratio));
      const Real50 numeric =
          (log(gain50(returns, exp(x + h))) - log(gain50(returns, exp(x - h)))) / (2 * h);
      const RlGain g = rl_gain(returns, std::log(ratio));
      CHECK(relative_difference(g.gain, gain50(returns, Real50(ratio))) < 1e-14);
      CHECK(relative_difference(g.elasticity, numeric) < 1e-12);
    }
  }
}

TEST_CASE("the loss with RL and its gradient in (ln N, ln D, ln D_RL)", "[rl_returns]") {
  const ReturnsLaw law = returns_law(20.0, 0.005, 1.5);
  const LossLaw& l = law.law;
  const DecisionLayout layout = DecisionLayout::with(true);
  auto loss50 = [&](const Real50& u, const Real50& v, const Real50& w) -> Real50 {
    const Real50 ratio = Real50(2) / 6 * exp(w - v);
    return Real50(l.E) + Real50(l.A) * exp(-Real50(l.alpha) * u) +
           Real50(l.B) * pow(gain50(law.returns, ratio) * exp(v), -Real50(l.beta));
  };
  for (double u : {20.0, 25.0}) {
    for (double v : {25.0, 30.0}) {
      for (double w : {20.0, 25.0, 29.0}) {
        const double x[] = {u, v, w};
        const LossTerm::Value got = law.loss.at(layout, x);
        const Real50 U(u), V(v), W(w), h("1e-15");
        CHECK(relative_difference(got.loss, loss50(U, V, W)) < 1e-14);
        const Real50 du = (loss50(U + h, V, W) - loss50(U - h, V, W)) / (2 * h);
        const Real50 dv = (loss50(U, V + h, W) - loss50(U, V - h, W)) / (2 * h);
        const Real50 dw = (loss50(U, V, W + h) - loss50(U, V, W - h)) / (2 * h);
        CHECK(relative_difference(got.gradient[0], du) < 1e-13);
        CHECK(relative_difference(got.gradient[1], dv) < 1e-12);
        CHECK(relative_difference(got.gradient[2], dw) < 1e-12);
      }
    }
  }
}

TEST_CASE("the best RL ratio matches its closed form for h = 1", "[rl_returns]") {
  for (double max_gain : {2.0, 5.0, 20.0, 50.0}) {
    for (double half_ratio : {0.002, 0.02, 0.1}) {
      for (double kappa : {0.5, 1.0, 3.0}) {
        if (!(max_gain - 1.0 > kappa * half_ratio)) continue;  // else no RL pays: r* = 0
        const RlRatioOptimum best = optimal_rl_ratio({max_gain, half_ratio, 1.0}, kappa, 1e-12);
        INFO("G " << max_gain << " r_half " << half_ratio << " kappa " << kappa);
        CHECK_FALSE(best.at_lower_bound);
        CHECK(relative_difference(best.ratio, best_ratio_h1(max_gain, half_ratio, kappa)) < 1e-12);
      }
    }
  }
  // G - 1 <= kappa r_half: m only grows with r, so no RL is best.
  CHECK(optimal_rl_ratio({1.5, 1.0, 1.0}, 1.0, 1e-12).at_lower_bound);
}

TEST_CASE("min-lifetime-flops with RL returns: NLopt against the 50-digit reference",
          "[rl_returns]") {
  for (double max_gain : {5.0, 20.0}) {
    for (double half_ratio : {0.005, 0.05}) {
      for (double inference : {0.0, 2e12, 1e14}) {
        const ReturnsLaw law = returns_law(max_gain, half_ratio);
        const double target = 1.947;
        const LifetimePlan plan =
            at_loss_with_rl(law, target, flops_cost_model(inference, 0.0, 2.0), CostUnit::flops);
        INFO("G " << max_gain << " r_half " << half_ratio << " T " << inference);
        REQUIRE(plan.solve.status == Status::converged);
        CHECK(plan.solve.kkt_residual < 1e-7);
        CHECK(plan.solve.constraint_violation < 1e-9);
        CHECK(plan.loss == Approx(target).epsilon(1e-9));
        const Reference ref = reference_flops(law, target, inference);
        CHECK(relative_difference(plan.params, ref.params) < kReference);
        CHECK(relative_difference(plan.pretrain_tokens, ref.tokens) < kReference);
        CHECK(relative_difference(plan.rl_tokens, ref.rl_tokens) < kReference);
        // And the library's own reduction (TOMS 748 twice) agrees.
        CHECK(plan.reference_relative_difference < kReference);
      }
    }
  }
}

TEST_CASE("max-quality with RL returns agrees with its reduction", "[rl_returns]") {
  const ReturnsLaw law = returns_law(20.0, 0.005);
  for (double budget : {1e23, 1e25}) {
    const LifetimePlan plan =
        within_budget_with_rl(law, flops_cost_model(1e13, 0.0, 2.0), CostUnit::flops, budget, 1e7);
    REQUIRE(plan.solve.status == Status::converged);
    CHECK(plan.solve.kkt_residual < 1e-7);
    CHECK(plan.cost.total().flops == Approx(budget).epsilon(1e-9));
    CHECK(plan.reference_relative_difference < kReference);
  }
}

TEST_CASE("RL returns: signs", "[rl_returns]") {
  const auto model = flops_cost_model(2e12, 0.0, 2.0);
  SECTION("a larger max_gain buys more RL per pretraining token") {
    // The RL / pretraining compute ratio rises with G (dr*/dG > 0 in the closed form). The RL
    // tokens themselves need not: at a fixed loss a larger gain needs fewer pretraining tokens,
    // and D_RL = 6 D r / k falls with D (here 59.6B at G = 2 to 13.8B at G = 100).
    double previous = 0.0;
    for (double max_gain : {2.0, 5.0, 20.0, 100.0}) {
      const LifetimePlan plan =
          at_loss_with_rl(returns_law(max_gain, 0.005), 1.947, model, CostUnit::flops);
      REQUIRE(plan.solve.converged());
      REQUIRE(plan.rl_returns);
      CHECK(plan.rl_returns->compute_ratio > previous);
      CHECK(plan.cost.rl.flops / plan.cost.pretrain.flops ==
            Approx(plan.rl_returns->compute_ratio).epsilon(1e-12));
      previous = plan.rl_returns->compute_ratio;
    }
  }
  SECTION("r_half without bound drives the RL tokens to their lower bound") {
    const double floor = 1e9;
    for (double half_ratio : {1e4, 1e8}) {
      const LifetimePlan plan =
          at_loss_with_rl(returns_law(20.0, half_ratio, 1.0, floor), 1.947, model, CostUnit::flops);
      REQUIRE(plan.solve.converged());
      CHECK(plan.rl_tokens == Approx(floor).epsilon(1e-9));
      CHECK(plan.rl_returns->gain == Approx(1.0).margin(1e-6));
    }
  }
  SECTION("max_gain = 1: RL buys nothing, the plan is the one without RL beside its floor") {
    const double floor = 1e10;
    const LifetimePlan plan =
        at_loss_with_rl(returns_law(1.0, 0.005, 1.0, floor), 1.947, model, CostUnit::flops);
    REQUIRE(plan.solve.converged());
    CHECK(plan.rl_tokens == Approx(floor).epsilon(1e-9));
    // The problem without returns, RL held at the floor: its 1-D reduction.
    LifetimeCostModel held = model;
    held.rl_tokens = floor;
    const LifetimePlan fixed = min_lifetime_cost_at_loss_reduced(loss_law_preset("sardana2024"),
                                                                 1.947, held, CostUnit::flops);
    CHECK(plan.params == Approx(fixed.params).epsilon(1e-8));
    CHECK(plan.pretrain_tokens == Approx(fixed.pretrain_tokens).epsilon(1e-8));
  }
}
