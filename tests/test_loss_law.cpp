// Loss-law presets, validation, and the log-space gradients every problem relies on.

#include <catch2/catch.hpp>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

TEST_CASE("presets carry the coefficients of their papers and a source", "[law]") {
  const LossLaw hoffmann = loss_law_preset("hoffmann2022");
  CHECK(hoffmann.E == 1.69);
  CHECK(hoffmann.A == 406.4);
  CHECK(hoffmann.B == 410.7);
  CHECK(hoffmann.alpha == 0.34);
  CHECK(hoffmann.beta == 0.28);
  const LossLaw sardana = loss_law_preset("sardana2024");
  CHECK(sardana.alpha == 0.336);
  CHECK(sardana.beta == 0.283);
  const LossLaw epoch = loss_law_preset("epoch2024");
  CHECK(epoch.E == 1.8172);
  CHECK(epoch.A == 482.01);
  CHECK(epoch.B == 2085.43);
  CHECK(epoch.alpha == 0.3478);
  CHECK(epoch.beta == 0.3658);
  for (const LossLaw& law : loss_law_presets()) {
    CHECK_FALSE(law.source.empty());
    CHECK_NOTHROW(law.validate());
  }
}

TEST_CASE("sardana2024 at N = 70B, D = 1T gives loss 1.947 (Sardana et al. 2024)", "[law]") {
  // Hand computation: 1.69 + 406.4 / 7e10^0.336 + 410.7 / 1e12^0.283 = 1.94727...
  const double loss = loss_law_preset("sardana2024").loss(70e9, 1e12);
  CHECK(loss == Approx(1.947).margin(5e-4));  // published to 4 significant digits
  using boost::multiprecision::pow;
  const Real50 exact = Real50("1.69") + Real50("406.4") / pow(Real50(70e9), Real50("0.336")) +
                       Real50("410.7") / pow(Real50(1e12), Real50("0.283"));
  CHECK(relative_difference(loss, exact) < 1e-15);  // a few roundings of double arithmetic
}

TEST_CASE("log-space gradients match 50-digit central differences", "[law]") {
  // Central differences in 50-digit arithmetic with h = 1e-15: truncation O(h^2) = 1e-30 and
  // rounding 1e-50 / 1e-15 = 1e-35, both far below double precision. The double gradient is
  // then good to a few ulps of the larger term.
  using boost::multiprecision::exp;
  for (const LossLaw& law : loss_law_presets()) {
    for (double log_params : {18.0, 24.0, 30.0}) {
      for (double log_tokens : {20.0, 28.0, 34.0}) {
        const LossInLogSpace l = loss_in_log_space(law, log_params, log_tokens);
        const auto c = [&](const Real50& x, const Real50& y) -> Real50 {
          return Real50(law.E) + Real50(law.A) * exp(-Real50(law.alpha) * x) +
                 Real50(law.B) * exp(-Real50(law.beta) * y);
        };
        const Real50 h("1e-15");
        const Real50 x(log_params), y(log_tokens);
        const Real50 d_params = (c(x + h, y) - c(x - h, y)) / (2 * h);
        const Real50 d_tokens = (c(x, y + h) - c(x, y - h)) / (2 * h);
        CHECK(relative_difference(l.d_log_params, d_params) < 1e-14);
        CHECK(relative_difference(l.d_log_tokens, d_tokens) < 1e-14);
        CHECK(relative_difference(l.loss, c(x, y)) < 1e-15);
      }
    }
  }
}

TEST_CASE("validation names the coefficient and its bad value", "[law]") {
  LossLaw law = loss_law_preset("epoch2024");
  law.alpha = -0.3;
  CHECK_THROWS_WITH(law.validate(), "law.alpha must be finite and positive, got -0.3");
  law = loss_law_preset("epoch2024");
  law.E = std::nan("");
  CHECK_THROWS_WITH(law.validate(), Catch::Contains("law.E must be finite and positive"));
  law = loss_law_preset("epoch2024");
  law.B = 0.0;
  CHECK_THROWS_WITH(law.validate(), Catch::Contains("law.B"));
}

TEST_CASE("an unknown preset lists the known ones", "[law]") {
  CHECK_THROWS_AS(loss_law_preset("chinchilla"), InputError);
  CHECK_THROWS_WITH(loss_law_preset("chinchilla"),
                    Catch::Contains("'chinchilla'") && Catch::Contains("hoffmann2022") &&
                        Catch::Contains("sardana2024") && Catch::Contains("epoch2024"));
}
