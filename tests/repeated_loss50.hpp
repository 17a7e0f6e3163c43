#pragma once
// The datablations README's loss with repeated data (Muennighoff et al. 2023, "Parametric Fit"),
// transcribed in 50 digits for the tests' references, and a golden-section minimum in 50 digits.

#include <cmath>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/solver/high_precision.hpp"

namespace repeated50 {

using scaleopt::Real50;

// scaling_law(N, D, U) of the README for a law (its decay constants included), with
// U = min(stock, D): max and min as the README writes them.
inline Real50 loss(const scaleopt::LossLaw& law, const Real50& n, const Real50& d,
                   const Real50& stock) {
  using boost::multiprecision::exp;
  using boost::multiprecision::pow;
  const Real50 E(law.E), A(law.A), B(law.B), alpha(law.alpha), beta(law.beta),
      rd(law.repeat_decay_tokens), rn(law.repeat_decay_params);
  const Real50 G = pow(alpha * A / (beta * B), 1 / (alpha + beta));
  const Real50 u = d < stock ? d : stock;
  const Real50 rdv = d / u - 1 > 0 ? Real50(d / u - 1) : Real50(0);
  const Real50 frontier = pow(u * G, beta / alpha) * G;
  const Real50 un = n < frontier ? n : frontier;
  const Real50 rnv = n / un - 1 > 0 ? Real50(n / un - 1) : Real50(0);
  return E + A / pow(un + un * rn * (1 - exp(-rnv / rn)), alpha) +
         B / pow(u + u * rd * (1 - exp(-rdv / rd)), beta);
}

// The minimum of f on [a, b] by golden section, `steps` times (0.618^steps of the interval).
template <class F>
Real50 golden_section_minimum(F f, Real50 a, Real50 b, int steps) {
  using boost::multiprecision::sqrt;
  const Real50 phi = (sqrt(Real50(5)) - 1) / 2;
  Real50 c = b - phi * (b - a), d = a + phi * (b - a);
  Real50 fc = f(c), fd = f(d);
  for (int i = 0; i < steps; ++i) {
    if (fc < fd) {
      b = d, d = c, fd = fc, c = b - phi * (b - a), fc = f(c);
    } else {
      a = c, c = d, fc = fd, d = a + phi * (b - a), fd = f(d);
    }
  }
  return (a + b) / 2;
}

}  // namespace repeated50
