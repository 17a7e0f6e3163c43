#include "scaleopt/solver/kkt_system.hpp"

#include <algorithm>
#include <cmath>

namespace scaleopt {

ActiveSet active_set(const Problem& problem, std::span<const double> x, double tolerance) {
  ActiveSet active;
  for (std::size_t j = 0; j < problem.inequality_count(); ++j) {
    if (problem.inequality(j, x, {}) > -tolerance) active.inequalities.push_back(j);
  }
  const auto lower = problem.lower_bounds();
  const auto upper = problem.upper_bounds();
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (x[k] - lower[k] < tolerance * std::max(1.0, std::fabs(lower[k])) ||
        upper[k] - x[k] < tolerance * std::max(1.0, std::fabs(upper[k]))) {
      active.fixed_variables.push_back(k);
    }
  }
  return active;
}

void constraints_at(const Problem& problem, const ActiveSet& active, std::span<const double> x,
                    Eigen::VectorXd& values, Eigen::MatrixXd& jacobian) {
  const std::size_t n = x.size();
  const std::size_t m = problem.equality_count() + active.inequalities.size();
  values.resize(static_cast<Eigen::Index>(m));
  jacobian.resize(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(n));
  Eigen::VectorXd row(n);
  Eigen::Index r = 0;
  for (std::size_t i = 0; i < problem.equality_count(); ++i, ++r) {
    values[r] = problem.equality(i, x, {row.data(), n});
    jacobian.row(r) = row.transpose();
  }
  for (std::size_t j : active.inequalities) {
    values[r] = problem.inequality(j, x, {row.data(), n});
    jacobian.row(r) = row.transpose();
    ++r;
  }
}

Eigen::VectorXd lagrangian_gradient(const Problem& problem, const ActiveSet& active,
                                    std::span<const double> x, const Eigen::VectorXd& lambda) {
  const std::size_t n = x.size();
  Eigen::VectorXd gradient(n);
  problem.objective(x, {gradient.data(), n});
  Eigen::VectorXd values;
  Eigen::MatrixXd jacobian;
  constraints_at(problem, active, x, values, jacobian);
  return gradient + jacobian.transpose() * lambda;
}

Eigen::MatrixXd lagrangian_hessian(const Problem& problem, const ActiveSet& active,
                                   std::span<const double> x, const Eigen::VectorXd& lambda,
                                   double step) {
  const std::size_t n = x.size();
  const auto lower = problem.lower_bounds();
  const auto upper = problem.upper_bounds();
  Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<double> plus(x.begin(), x.end()), minus(x.begin(), x.end());
    // One-sided at a bound: the problem is never evaluated outside its bounds, where its
    // functions may not be defined (e.g. a model that no longer fits the serving replica).
    plus[k] = std::min(x[k] + step, upper[k]);
    minus[k] = std::max(x[k] - step, lower[k]);
    const double width = plus[k] - minus[k];
    if (!(width > 0.0)) continue;  // a variable pinned between equal bounds
    hessian.col(static_cast<Eigen::Index>(k)) =
        (lagrangian_gradient(problem, active, plus, lambda) -
         lagrangian_gradient(problem, active, minus, lambda)) /
        width;
  }
  return 0.5 * (hessian + hessian.transpose());
}

}  // namespace scaleopt
