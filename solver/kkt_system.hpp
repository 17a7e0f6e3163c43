#pragma once
// The KKT conditions of a problem at a point as a system of equations: the active constraints,
// their values and Jacobian, and the gradient and Hessian of the Lagrangian. Shared by the
// Newton polish (solver/kkt_polish.hpp) and the implicit-function sensitivities
// (solver/implicit_sensitivity.hpp).

#include <Eigen/Dense>
#include <span>
#include <vector>

#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

// The constraints treated as equalities at x: every equality, the active inequalities, and the
// variables at a bound (fixed).
struct ActiveSet {
  std::vector<std::size_t> inequalities;
  std::vector<std::size_t> fixed_variables;
};

// An inequality is active when g_j(x) > -tolerance; a variable is fixed when it is within
// tolerance * max(1, |bound|) of a bound (as check_kkt).
ActiveSet active_set(const Problem& problem, std::span<const double> x, double tolerance);

// Values and gradients (as rows) of the equalities and then the active inequalities.
void constraints_at(const Problem& problem, const ActiveSet& active, std::span<const double> x,
                    Eigen::VectorXd& values, Eigen::MatrixXd& jacobian);

// grad f + J^T lambda, with lambda ordered as constraints_at's rows.
Eigen::VectorXd lagrangian_gradient(const Problem& problem, const ActiveSet& active,
                                    std::span<const double> x, const Eigen::VectorXd& lambda);

// Hessian of the Lagrangian by central differences of its analytic gradient (step `step` in
// each variable; one-sided where a bound is nearer than `step`), symmetrised: the analytic
// gradients are exact, so the error is O(step^2) + O(rounding / step), O(step) one-sided.
Eigen::MatrixXd lagrangian_hessian(const Problem& problem, const ActiveSet& active,
                                   std::span<const double> x, const Eigen::VectorXd& lambda,
                                   double step);

}  // namespace scaleopt
