#pragma once
// Repeated data in the loss (Muennighoff et al. 2023, "Scaling Data-Constrained Language
// Models", NeurIPS 2023, Eq. 5 and the datablations code's "Parametric Fit"). With U the unique
// tokens seen, U = min(U_D, D), a token repeated R_D = D / U - 1 more times is worth less each
// epoch, and parameters beyond what U can feed are worth less too:
//
//   D' = U   + U   R_D* (1 - exp(-R_D / R_D*)),  R_D = max(D / U - 1, 0)
//   N' = U_N + U_N R_N* (1 - exp(-R_N / R_N*)),  R_N = max(N / U_N - 1, 0),
//   U_N = min(N, D_to_N(U)),
//
// where D_to_N is the law's own compute-optimal frontier, D_to_N(D) = G (D G)^(beta / alpha),
// G = (alpha A / (beta B))^(1 / (alpha + beta)). The law then sees L(N', D'). Both maps are
// continuously differentiable (each elasticity is 1 on both sides of its kink, where R = 0);
// only their second derivatives jump there. D' <= U_D (1 + R_D*) and
// N' <= D_to_N(U_D) (1 + R_N*): with a finite stock the loss has a floor above E.
//
// Everything is in log space, as the problems optimise.

#include <optional>
#include <string_view>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

// The stock of pretraining data a question may draw on.
struct DataSupply {
  // U_D: unique tokens available; absent: unlimited fresh data (no repetition in the loss).
  std::optional<double> unique_tokens;
};

// A count after repetition's decay, in log space: ln of the effective count and its
// elasticities (d ln effective / d ln count, d ln effective / d ln unique). The map is
// homogeneous of degree one in (count, unique), so the two sum to 1.
struct RepeatedCount {
  double log_effective = 0.0;
  double d_log_count = 1.0;
  double d_log_unique = 0.0;
};

// c' = u + u R* (1 - exp(-R / R*)), R = max(c / u - 1, 0), at ln c and ln u: c' = c for
// c <= u.
RepeatedCount repeated_count(double log_count, double log_unique, double decay);

// ln D_to_N(D) of a law, the compute-optimal N for D tokens: (1 + beta/alpha) ln G
// + (beta/alpha) ln D.
double log_frontier_params(const LossLaw& law, double log_tokens);

// The law's loss with repeated data (the datablations README's scaling_law(N, D, U)):
// U = min(unique_tokens, D). The decay constants are the law's.
double data_constrained_loss(const LossLaw& law, double params, double tokens,
                             double unique_tokens);

// The loss's floor with `unique_tokens` unique tokens: E + A / (D_to_N(U_D) (1 + R_N*))^alpha
// + B / (U_D (1 + R_D*))^beta, approached as N and D grow without bound, never reached.
double data_constrained_loss_floor(const LossLaw& law, double unique_tokens);

// Throws InputError naming `field` unless the unique tokens are finite and positive.
void validate_unique_tokens(double unique_tokens, std::string_view field);

}  // namespace scaleopt
