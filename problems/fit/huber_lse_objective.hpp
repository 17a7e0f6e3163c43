#pragma once
// The objective of Approach 3 (Hoffmann et al. 2022, App. D.2; Besiroglu et al. 2024):
//
//   f(e, a, b, alpha, beta) = sum_i w_i Huber_delta( LSE(a - alpha ln N_i, b - beta ln D_i, e)
//                                                    - ln L_i ),
//
// with A = e^a, B = e^b, E = e^e, so that LSE(...) = ln(E + A / N^alpha + B / D^beta) is the
// law's log loss, Huber_delta(r) = r^2 / 2 for |r| <= delta and delta (|r| - delta / 2)
// beyond (as scipy.special.huber and optax.huber_loss; Epoch's code sums it over runs), and
// w_i the number of times run i is counted (1 in a fit, the resampling count in a bootstrap
// replicate: summing w_i copies of a term is multiplying it by w_i).
//
// The variables are ordered as LawUncertainty orders the coefficients: (e, a, b, alpha, beta).
//
// Templated on the number type so that tests evaluate the very same formulas in 50 digits
// (Boost.Multiprecision) to check the analytic gradient by finite differences.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace scaleopt {

// Index of each variable in x.
enum FitVariable : std::size_t { kLogE = 0, kLogA = 1, kLogB = 2, kAlpha = 3, kBeta = 4 };
inline constexpr std::size_t kFitVariables = 5;

// The runs as the objective sees them: logarithms precomputed once (the objective is
// evaluated ~10^6 times in a fit), and a weight per run.
template <class Real>
struct LogRuns {
  std::vector<Real> log_params;  // ln N_i
  std::vector<Real> log_tokens;  // ln D_i
  std::vector<Real> log_loss;    // ln L_i
  std::vector<Real> weight;      // w_i >= 0

  std::size_t size() const { return log_params.size(); }
};

// Huber_delta(r) and its derivative, continuous at |r| = delta (both pieces give delta^2/2
// and slope +-delta there).
template <class Real>
Real huber(Real r, Real delta) {
  using std::abs;
  const Real size = abs(r);
  if (size <= delta) return r * r / 2;
  return delta * (size - delta / 2);
}
template <class Real>
Real huber_derivative(Real r, Real delta) {
  using std::abs;
  if (abs(r) <= delta) return r;
  return r > 0 ? delta : -delta;
}

// ln(e^t0 + e^t1 + e^t2) and the softmax weights p_k = e^(t_k - LSE), which are its partial
// derivatives. `exp_t0` = e^t0 is passed in because t0 = e is the same for every run: two
// exponentials and a logarithm per run instead of three and one (the fit's hot loop). When
// an exponential could overflow or the sum underflow (L-BFGS tries wild points from the grid's
// far corners), the sum is shifted by the largest t first, which is exact in any case.
template <class Real>
struct LogSumExp3 {
  Real value;
  Real p0, p1, p2;
};
template <class Real>
LogSumExp3<Real> log_sum_exp3(Real t0, Real exp_t0, Real t1, Real t2) {
  using std::exp;
  using std::log;
  constexpr double kSafeExponent = 700.0;  // e^700 ~ 1e304 < DBL_MAX ~ 1.8e308
  if (t0 < kSafeExponent && t1 < kSafeExponent && t2 < kSafeExponent) {
    const Real u1 = exp(t1), u2 = exp(t2);
    const Real sum = exp_t0 + u1 + u2;
    if (sum > Real(1e-300)) {
      const Real inverse = 1 / sum;
      return {log(sum), exp_t0 * inverse, u1 * inverse, u2 * inverse};
    }
  }
  const Real m = std::max({t0, t1, t2});
  const Real u0 = exp(t0 - m), u1 = exp(t1 - m), u2 = exp(t2 - m);
  const Real sum = u0 + u1 + u2;  // in [1, 3]: one term is exp(0)
  return {m + log(sum), u0 / sum, u1 / sum, u2 / sum};
}

// f(x); fills `gradient` (5 entries) when it is not empty.
//
// Gradient: with r_i the residual, h_i = w_i Huber'(r_i) and p the softmax weights of
// (t_E, t_A, t_B) = (e, a - alpha ln N_i, b - beta ln D_i),
//   df/de = sum h_i p_E,  df/da = sum h_i p_A,  df/db = sum h_i p_B,
//   df/dalpha = -sum h_i p_A ln N_i,  df/dbeta = -sum h_i p_B ln D_i.
template <class Real>
Real summed_huber_lse(std::span<const Real> x, const LogRuns<Real>& runs, Real delta,
                      std::span<Real> gradient) {
  using std::exp;
  const Real e = x[kLogE], a = x[kLogA], b = x[kLogB], alpha = x[kAlpha], beta = x[kBeta];
  const Real exp_e = exp(e);
  Real total = 0;
  Real g_e = 0, g_a = 0, g_b = 0, g_alpha = 0, g_beta = 0;
  const bool want_gradient = !gradient.empty();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Real w = runs.weight[i];
    if (w == 0) continue;
    const LogSumExp3<Real> lse =
        log_sum_exp3<Real>(e, exp_e, a - alpha * runs.log_params[i], b - beta * runs.log_tokens[i]);
    const Real r = lse.value - runs.log_loss[i];
    total += w * huber<Real>(r, delta);
    if (want_gradient) {
      const Real h = w * huber_derivative<Real>(r, delta);
      g_e += h * lse.p0;
      g_a += h * lse.p1;
      g_b += h * lse.p2;
      g_alpha -= h * lse.p1 * runs.log_params[i];
      g_beta -= h * lse.p2 * runs.log_tokens[i];
    }
  }
  if (want_gradient) {
    gradient[kLogE] = g_e;
    gradient[kLogA] = g_a;
    gradient[kLogB] = g_b;
    gradient[kAlpha] = g_alpha;
    gradient[kBeta] = g_beta;
  }
  return total;
}

}  // namespace scaleopt
