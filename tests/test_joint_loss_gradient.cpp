// The joint dense/MoE law in log space with its gradient in (ln N_act, ln D, ln E)
// (costmodel/joint_loss_law.hpp, joint_loss_in_log_space), the loss term a problem that chooses
// the experts needs: the value against the law's own loss, the three partials against central
// differences of Eq. 4 and 6 transcribed here in 50 digits, and at a fixed E the partials in
// ln N and ln D against the reduced Chinchilla law's (law_at_experts, loss_in_log_space).

#include <boost/multiprecision/cpp_dec_float.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

// Eq. 4 and Eq. 6 of Ludziejewski et al. 2025 in 50 digits, at (u, v, w) = (ln N, ln D, ln E).
Real50 loss50(const JointLossLaw& law, const Real50& u, const Real50& v, const Real50& w) {
  using boost::multiprecision::exp;
  using boost::multiprecision::log;
  const Real50 experts = exp(w);
  const Real50 start(law.experts_start), max(law.experts_max);
  const Real50 hat = 1 / (1 / (experts - 1 + 1 / (1 / start - 1 / max)) + 1 / max);
  const Real50 h = log(hat);
  return Real50(law.a) *
             exp(Real50(law.delta) * h + (Real50(law.alpha) + Real50(law.gamma) * h) * u) +
         Real50(law.b) *
             exp(Real50(law.omega) * h + (Real50(law.beta) + Real50(law.zeta) * h) * v) +
         Real50(law.E);
}

}  // namespace

TEST_CASE("the joint law's gradient in ln N, ln D and ln E equals 50-digit central differences",
          "[joint_law]") {
  const JointLossLaw law = *find_joint_loss_law_preset("ludziejewski2025");
  // A step of 1e-20 in 50 digits: the central difference's truncation (~h^2 = 1e-40) and its
  // rounding (~1e-50 / h = 1e-30) are both far below a double's 1e-16, so the reference is the
  // derivative to every digit a double holds. The value and the partials are computed in
  // doubles from exponentials of sums of ~30 (ln N, ln D): a few ulps of that sum, ~1e-14.
  const Real50 step("1e-20");
  int points = 0;
  for (const double params : {1e8, 3e9, 1e11, 2e12}) {
    for (const double tokens : {1e9, 2e11, 1.5e13}) {
      for (const double experts : {1.0, 1.5, 8.0, 32.0, 256.0, 5000.0}) {
        INFO("N " << params << ", D " << tokens << ", E " << experts);
        const double u = std::log(params), v = std::log(tokens), w = std::log(experts);
        const JointLossInLogSpace at = joint_loss_in_log_space(law, u, v, w);
        const Real50 U(u), V(v), W(w);
        CHECK(relative_difference(at.loss, loss50(law, U, V, W)) < 1e-14);
        CHECK(at.loss == Approx(law.loss(params, tokens, experts)).epsilon(1e-14));
        const Real50 d_u = (loss50(law, U + step, V, W) - loss50(law, U - step, V, W)) / (2 * step);
        const Real50 d_v = (loss50(law, U, V + step, W) - loss50(law, U, V - step, W)) / (2 * step);
        const Real50 d_w = (loss50(law, U, V, W + step) - loss50(law, U, V, W - step)) / (2 * step);
        CHECK(relative_difference(at.d_log_params, d_u) < 1e-13);
        CHECK(relative_difference(at.d_log_tokens, d_v) < 1e-13);
        CHECK(relative_difference(at.d_log_experts, d_w) < 1e-12);
        // At a fixed E the law is the Chinchilla law law_at_experts gives, partials included.
        const LossInLogSpace reduced = loss_in_log_space(law_at_experts(law, experts), u, v);
        CHECK(at.loss == Approx(reduced.loss).epsilon(1e-14));
        CHECK(at.d_log_params == Approx(reduced.d_log_params).epsilon(1e-13));
        CHECK(at.d_log_tokens == Approx(reduced.d_log_tokens).epsilon(1e-13));
        ++points;
      }
    }
  }
  CHECK(points == 72);
}

TEST_CASE("more experts lower the loss at fixed N and D, and the gain saturates with E^",
          "[joint_law]") {
  // At the paper's scale more experts lower the loss (its Fig. 1 and Table 1: at a fixed N_act
  // and D the MoE's loss is below the dense one's); E^ saturates at E_max, so d ln E^ / d ln E,
  // and with it d L / d ln E, tends to 0 as E grows (~E_max / E).
  const JointLossLaw law = *find_joint_loss_law_preset("ludziejewski2025");
  const double u = std::log(1e9), v = std::log(2e10);
  for (const double experts : {1.0, 4.0, 16.0, 64.0, 256.0}) {
    INFO("E " << experts);
    CHECK(joint_loss_in_log_space(law, u, v, std::log(experts)).d_log_experts < 0.0);
  }
  for (const double experts : {1e5, 1e7}) {
    INFO("E " << experts);
    CHECK(law.transformed_experts_log_slope(experts) ==
          Approx(law.experts_max / experts).epsilon(0.05));
  }
}
