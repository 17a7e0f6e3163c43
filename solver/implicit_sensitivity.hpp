#pragma once
// How a solution moves when a parameter of its problem moves, by the implicit-function theorem
// on the KKT system (no re-solve).
//
// At a KKT point z* = (x*, lambda*) of a problem P(p), with the active constraints c (equalities,
// active inequalities, and x_k - bound_k for variables at a bound),
//
//     F(z, p) = [ grad f(x; p) + J(x; p)^T lambda ;  c(x; p) ] = 0.
//
// Differentiating along the solution, K dz/dp + dF/dp = 0 with K = dF/dz = [[H, J^T], [J, 0]]
// (H the Hessian of the Lagrangian, by central differences of the analytic gradients as in
// solver/kkt_polish.hpp), so dz/dp = -K^-1 dF/dp. dF/dp is taken at the fixed z* from the
// problem rebuilt at perturbed parameters: a finite-difference stencil over problems, so any
// input that enters the problem's functions can be the parameter.
//
// Valid where the active set does not change with p (strict complementarity) and K is
// nonsingular (second-order sufficiency with independent active gradients).

#include <span>
#include <string>
#include <vector>

#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

struct SensitivityOptions {
  // An inequality with g > -active_tolerance, or a variable that close to a bound, is active
  // (as check_kkt).
  double active_tolerance = 1e-8;
  // Central-difference step of the Hessian in each (log) variable: truncation ~step^2,
  // rounding ~1e-16 / step, both ~1e-10 at 1e-5.
  double difference_step = 1e-5;
  // Throws InputError naming the field.
  void validate() const;
};

class KktSensitivity {
 public:
  // Builds and factorises K at x (multipliers by least squares, as check_kkt).
  KktSensitivity(const Problem& problem, std::span<const double> x,
                 const SensitivityOptions& options = {});

  // False when K is singular (the sensitivity is not defined); message() says why.
  bool ok() const { return ok_; }
  const std::string& message() const { return message_; }

  // dx*/dp, where dF/dp = sum_i weights[i] * F(z*; problems[i]): the problems are P at the
  // stencil's parameters (e.g. p - h and p + h with weights -1/2h and 1/2h), each with the same
  // constraints and bounds as the problem given to the constructor.
  std::vector<double> dx_dp(std::span<const Problem* const> problems,
                            std::span<const double> weights) const;

 private:
  // F(z*; problem): the Lagrangian gradient, the active constraints, the fixed variables.
  std::vector<double> residual(const Problem& problem) const;

  std::vector<double> x_;
  std::vector<std::size_t> inequalities_;  // active
  std::vector<std::size_t> fixed_;         // variables at a bound
  std::vector<bool> fixed_at_upper_;
  std::vector<double> lambda_;  // equalities, active inequalities, then fixed variables
  std::vector<double> factor_;  // K^-1 (row-major), kept dense: K is small
  std::size_t size_ = 0;
  bool ok_ = false;
  std::string message_;
};

}  // namespace scaleopt
