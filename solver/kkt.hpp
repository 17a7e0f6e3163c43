#pragma once
// First-order optimality check at a candidate point, independent of how the point was found
// (NLopt often reports roundoff_limited at a correct optimum: docs/model.md, How the optimiser
// solves them).

#include <span>
#include <vector>

#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

struct KktCheck {
  // ||grad f + J^T lambda||_inf divided by the largest term it balances
  // (max(||grad f||_inf, max_i ||lambda_i grad c_i||_inf)); with no active constraint it is
  // ||grad f||_inf / max(1, |f|). Multipliers come from a least-squares fit over the
  // equalities, the active inequalities and the active bounds; an active inequality or
  // bound whose multiplier has the wrong sign counts its size into the residual.
  double residual = 0.0;
  // max over equalities of |h_i|, over inequalities of max(0, g_j), over bounds of the excess.
  double constraint_violation = 0.0;
  std::vector<double> equality_multipliers;
  std::vector<double> inequality_multipliers;
};

// `active_tolerance`: an inequality with g_j > -active_tolerance (or a variable that close to
// a bound) is treated as active.
KktCheck check_kkt(const Problem& problem, std::span<const double> x,
                   double active_tolerance = 1e-8);

}  // namespace scaleopt
