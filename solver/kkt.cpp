#include "scaleopt/solver/kkt.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace scaleopt {

KktCheck check_kkt(const Problem& problem, std::span<const double> x, double active_tolerance) {
  const std::size_t n = problem.dimension();
  KktCheck check;
  Eigen::VectorXd objective_gradient(n);
  const double f = problem.objective(x, {objective_gradient.data(), n});

  // Columns of `constraint_gradients` are the gradients of the active constraints; `sign`
  // is +1 for equalities (free multiplier) and -1 / +1 where the multiplier must be >= 0.
  std::vector<Eigen::VectorXd> columns;
  std::vector<int> kinds;  // 0 equality, 1 inequality (index in `owner`), 2 bound
  std::vector<std::size_t> owner;
  Eigen::VectorXd gradient(n);

  for (std::size_t i = 0; i < problem.equality_count(); ++i) {
    const double h = problem.equality(i, x, {gradient.data(), n});
    check.constraint_violation = std::max(check.constraint_violation, std::fabs(h));
    columns.push_back(gradient);
    kinds.push_back(0);
    owner.push_back(i);
  }
  check.inequality_multipliers.assign(problem.inequality_count(), 0.0);
  for (std::size_t j = 0; j < problem.inequality_count(); ++j) {
    const double g = problem.inequality(j, x, {gradient.data(), n});
    check.constraint_violation = std::max(check.constraint_violation, std::max(0.0, g));
    if (g > -active_tolerance) {
      columns.push_back(gradient);
      kinds.push_back(1);
      owner.push_back(j);
    }
  }
  const std::vector<double> lower = problem.lower_bounds();
  const std::vector<double> upper = problem.upper_bounds();
  for (std::size_t k = 0; k < n; ++k) {
    check.constraint_violation =
        std::max({check.constraint_violation, lower[k] - x[k], x[k] - upper[k]});
    // A bound x_k >= l_k is the inequality l_k - x_k <= 0 with gradient -e_k.
    if (x[k] - lower[k] < active_tolerance * std::max(1.0, std::fabs(lower[k]))) {
      columns.push_back(-Eigen::VectorXd::Unit(n, k));
      kinds.push_back(2);
      owner.push_back(k);
    } else if (upper[k] - x[k] < active_tolerance * std::max(1.0, std::fabs(upper[k]))) {
      columns.push_back(Eigen::VectorXd::Unit(n, k));
      kinds.push_back(2);
      owner.push_back(k);
    }
  }

  Eigen::VectorXd lagrangian_gradient = objective_gradient;
  double scale = objective_gradient.lpNorm<Eigen::Infinity>();
  double wrong_sign = 0.0;
  check.equality_multipliers.assign(problem.equality_count(), 0.0);
  if (!columns.empty()) {
    Eigen::MatrixXd jacobian_t(n, columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) jacobian_t.col(c) = columns[c];
    // grad f + J^T lambda = 0 in the least-squares sense.
    const Eigen::VectorXd multipliers =
        jacobian_t.completeOrthogonalDecomposition().solve(-objective_gradient);
    lagrangian_gradient += jacobian_t * multipliers;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double term = (multipliers[c] * jacobian_t.col(c)).lpNorm<Eigen::Infinity>();
      scale = std::max(scale, term);
      if (kinds[c] == 0) check.equality_multipliers[owner[c]] = multipliers[c];
      if (kinds[c] == 1) check.inequality_multipliers[owner[c]] = multipliers[c];
      if (kinds[c] != 0 && multipliers[c] < 0.0) wrong_sign = std::max(wrong_sign, term);
    }
  } else {
    scale = std::max(1.0, std::fabs(f));
  }
  const double imbalance = std::max(lagrangian_gradient.lpNorm<Eigen::Infinity>(), wrong_sign);
  check.residual = scale > 0.0 ? imbalance / scale : imbalance;
  return check;
}

}  // namespace scaleopt
