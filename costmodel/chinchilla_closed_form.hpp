#pragma once
// Closed forms of the compute-optimal allocation under C = 6 N D (Hoffmann et al. 2022,
// Eq. 4 and App. D.2). Templated on the number type so that tests evaluate the very same
// formulas in 50-digit arithmetic (Boost.Multiprecision) as the reference for the NLopt
// answer; pow/exp are found by argument-dependent lookup for multiprecision types.

#include <cmath>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

template <class Real>
struct LawCoefficients {
  Real E, A, B, alpha, beta;
};

template <class Real>
LawCoefficients<Real> coefficients_of(const LossLaw& law) {
  return {Real(law.E), Real(law.A), Real(law.B), Real(law.alpha), Real(law.beta)};
}

template <class Real>
struct ParamsTokens {
  Real params;
  Real tokens;
};

// G = (alpha A / (beta B))^(1 / (alpha + beta)): the Lagrange condition
// alpha A / N^alpha = beta B / D^beta with N D = C / 6 gives N = G (C/6)^a, D = (C/6)^b / G.
template <class Real>
Real allocation_scale(const LawCoefficients<Real>& c) {
  using std::pow;
  return pow(c.alpha * c.A / (c.beta * c.B), Real(1) / (c.alpha + c.beta));
}

// Hoffmann Eq. 4: N_opt = G (C/6)^a, D_opt = (C/6)^b / G, a = beta/(alpha+beta),
// b = alpha/(alpha+beta).
template <class Real>
ParamsTokens<Real> compute_optimal_allocation(const LawCoefficients<Real>& c, Real compute_flops) {
  using std::pow;
  const Real G = allocation_scale(c);
  const Real half_compute = compute_flops / 6;
  const Real a = c.beta / (c.alpha + c.beta);
  const Real b = c.alpha / (c.alpha + c.beta);
  return {G * pow(half_compute, a), pow(half_compute, b) / G};
}

// The D that puts a model of N parameters on the compute-optimal frontier: eliminate C/6
// from Eq. 4, C/6 = (N/G)^(1/a), so D = (N/G)^(b/a) / G = (N/G)^(alpha/beta) / G.
template <class Real>
Real compute_optimal_tokens(const LawCoefficients<Real>& c, Real params) {
  using std::pow;
  const Real G = allocation_scale(c);
  return pow(params / G, c.alpha / c.beta) / G;
}

// The least compute that reaches `target_loss` (> E). On the frontier both reducible terms
// scale as (C/6)^(-alpha beta/(alpha+beta)), so
// L - E = (A G^-alpha + B G^beta) (C/6)^(-alpha beta/(alpha+beta)), solved for C.
template <class Real>
Real compute_for_loss(const LawCoefficients<Real>& c, Real target_loss) {
  using std::pow;
  const Real G = allocation_scale(c);
  const Real K = c.A * pow(G, -c.alpha) + c.B * pow(G, c.beta);
  return 6 * pow(K / (target_loss - c.E), (c.alpha + c.beta) / (c.alpha * c.beta));
}

}  // namespace scaleopt
