// Repeated data in the loss (costmodel/data_repetition.hpp, the repetition transform of the
// loss term): the datablations README's printed losses, the paper's "4 epochs are almost as good
// as new data", the transform's value and gradient against the README's formula evaluated in 50
// digits on both sides of both kinks (D = U_D, N = D_to_N(U)), the floor, and hostile inputs.

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "repeated_loss50.hpp"
#include "scaleopt/costmodel/data_repetition.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/lifecycle/loss_term.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

using boost::multiprecision::exp;
using boost::multiprecision::log;
using boost::multiprecision::pow;

LossTerm repeating_loss(const LossLaw& law, double unique_tokens) {
  LossTerm loss(law);
  loss.then(std::make_shared<const RepetitionTransform>(law, unique_tokens));
  return loss;
}

}  // namespace

TEST_CASE("the datablations README's two printed losses", "[data_repetition]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  // The README prints 17 digits of each (its Figure 1, right); the constants are the same
  // decimals, so the losses agree to rounding: 1e-12 is the tolerance, met with room.
  CHECK(std::fabs(data_constrained_loss(law, 6.34e9, 242e9, 25e9) - 2.2256440889984477) < 1e-12);
  CHECK(std::fabs(data_constrained_loss(law, 8.67e9, 178e9, 25e9) - 2.2269634075087867) < 1e-12);
  // The loss term with the transform gives the same numbers in log space.
  const double x1[] = {std::log(6.34e9), std::log(242e9)};
  CHECK(std::fabs(repeating_loss(law, 25e9).at(DecisionLayout{}, x1).loss - 2.2256440889984477) <
        1e-12);
}

TEST_CASE("four epochs: the effective data is 93.14% of D", "[data_repetition]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  // D = 4 U_D: R_D = 3, D' / D = (1 + R_D* (1 - exp(-3 / R_D*))) / 4; the issue prints 93.14%.
  const double unique = 100e9, tokens = 4 * unique;
  const RepeatedCount d = repeated_count(std::log(tokens), std::log(unique), 15.387756);
  CHECK(std::fabs(std::exp(d.log_effective) / tokens - 0.9314) < 5e-5);
  // The paper calls the loss of up to ~4 epochs negligible: at N = D_to_N(D) / 4 (well inside
  // the frontier, no parameter decay) the loss rises by ~2e-3 nats against fresh data.
  const double params = std::exp(log_frontier_params(law, std::log(unique)));
  const double fresh = law.loss(params, tokens);
  const double four_epochs = data_constrained_loss(law, params, tokens, unique);
  WARN("4 epochs: D'/D = " << std::exp(d.log_effective) / tokens << ", loss " << four_epochs
                           << " against " << fresh << " with fresh data (+" << four_epochs - fresh
                           << " nats)");
  CHECK(four_epochs > fresh);
  CHECK(four_epochs - fresh < 5e-3);
}

TEST_CASE("the repetition transform against the README's formula in 50 digits",
          "[data_repetition]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  const double unique = 25e9;
  const LossTerm loss = repeating_loss(law, unique);
  const double frontier_at_stock = std::exp(log_frontier_params(law, std::log(unique)));
  // Both sides of the token kink (D below and above U_D) and of the parameter kink (N below and
  // above D_to_N(min(U_D, D))), each well away from the kink itself.
  for (const double tokens : {5e9, 24e9, 26e9, 178e9, 2.5e12}) {
    for (const double params : {1e8, 0.5 * frontier_at_stock, 2 * frontier_at_stock, 8.67e9}) {
      const double x[] = {std::log(params), std::log(tokens)};
      const LossTerm::Value got = loss.at(DecisionLayout{}, x);
      const Real50 u(x[0]), v(x[1]), stock(unique), h("1e-20");
      auto f = [&](const Real50& a, const Real50& b) -> Real50 {
        return repeated50::loss(law, exp(a), exp(b), stock);
      };
      CHECK(relative_difference(got.loss, f(u, v)) < 1e-14);
      // Central differences in 50 digits: truncation ~h^2 = 1e-40, rounding ~1e-30.
      const Real50 du = (f(u + h, v) - f(u - h, v)) / (2 * h);
      const Real50 dv = (f(u, v + h) - f(u, v - h)) / (2 * h);
      CHECK(relative_difference(got.gradient[0], du) < 1e-11);
      CHECK(relative_difference(got.gradient[1], dv) < 1e-11);
    }
  }
}

TEST_CASE("at the kinks the two one-sided derivatives agree", "[data_repetition]") {
  // D' is continuously differentiable at D = U_D (both elasticities 1), so the smooth branch's
  // gradient is the derivative: checked against one-sided 50-digit differences of each side.
  const LossLaw law = loss_law_preset("muennighoff2023");
  const double unique = 25e9;
  const LossTerm loss = repeating_loss(law, unique);
  const double x[] = {std::log(1e9), std::log(unique)};
  const LossTerm::Value got = loss.at(DecisionLayout{}, x);
  const Real50 u(x[0]), v(x[1]), stock(unique), h("1e-25");
  auto f = [&](const Real50& b) -> Real50 { return repeated50::loss(law, exp(u), exp(b), stock); };
  const Real50 left = (f(v) - f(v - h)) / h, right = (f(v + h) - f(v)) / h;
  CHECK(relative_difference(got.gradient[1], left) < 1e-9);
  CHECK(relative_difference(got.gradient[1], right) < 1e-9);
}

TEST_CASE("without a limit the loss term is loss_in_log_space bit for bit", "[data_repetition]") {
  const LossLaw law = loss_law_preset("hoffmann2022");
  const LossTerm plain(law);
  for (const double u : {18.0, 22.5, 27.0}) {
    for (const double v : {20.0, 26.0, 31.0}) {
      const double x[] = {u, v};
      const LossTerm::Value got = plain.at(DecisionLayout{}, x);
      const LossInLogSpace want = loss_in_log_space(law, u, v);
      CHECK(got.loss == want.loss);
      CHECK(got.gradient[0] == want.d_log_params);
      CHECK(got.gradient[1] == want.d_log_tokens);
      // A stock larger than D, with N inside the frontier of D: nothing repeats, same bits.
      if (u < log_frontier_params(law, v)) {
        const LossTerm::Value unlimited = repeating_loss(law, 1e30).at(DecisionLayout{}, x);
        CHECK(unlimited.loss == want.loss);
        CHECK(unlimited.gradient[0] == want.d_log_params);
        CHECK(unlimited.gradient[1] == want.d_log_tokens);
      }
    }
  }
}

TEST_CASE("the loss floor of a finite stock", "[data_repetition]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  const double unique = 25e9;
  const double floor = data_constrained_loss_floor(law, unique);
  // E + A / (D_to_N(U_D) (1 + R_N*))^alpha + B / (U_D (1 + R_D*))^beta, in 50 digits.
  const Real50 A(law.A), B(law.B), E(law.E), a(law.alpha), b(law.beta), U(unique);
  const Real50 G = pow(a * A / (b * B), 1 / (a + b));
  const Real50 want = E + A / pow(pow(U * G, b / a) * G * (1 + Real50("5.309743")), a) +
                      B / pow(U * (1 + Real50("15.387756")), b);
  CHECK(relative_difference(floor, want) < 1e-14);
  // Approached from above by ever larger N and D (80 and 400 epochs: exp(-R/R*) of 6e-3 and
  // 5e-12), reached only where the exponentials underflow.
  const double near = data_constrained_loss(law, 1e11, 2e12, unique);
  const double nearer = data_constrained_loss(law, 1e12, 1e13, unique);
  CHECK(near > nearer);
  CHECK(nearer > floor);
  CHECK(nearer - floor < 1e-9);
  CHECK(data_constrained_loss(law, 1e20, 1e25, unique) == Approx(floor).epsilon(1e-15));
}

TEST_CASE("hostile unique tokens and decay constants are refused naming the field",
          "[data_repetition]") {
  const LossLaw law = loss_law_preset("muennighoff2023");
  for (const double bad : {0.0, -5e12, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(), 1e31}) {
    CHECK_THROWS_WITH(RepetitionTransform(law, bad),
                      Catch::Contains("data.unique_tokens must be a finite count"));
  }
  LossLaw no_decay = law;
  no_decay.repeat_decay_tokens = 0.0;
  CHECK_THROWS_WITH(no_decay.validate("law"), Catch::Contains("law.repeat_decay_tokens"));
  no_decay = law;
  no_decay.repeat_decay_params = -1.0;
  CHECK_THROWS_WITH(no_decay.validate("law"), Catch::Contains("law.repeat_decay_params"));
}
