#include "scaleopt/solver/kkt_polish.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "scaleopt/solver/kkt.hpp"
#include "scaleopt/solver/kkt_system.hpp"

namespace scaleopt {

std::vector<double> polish_kkt(const Problem& problem, std::span<const double> x_in,
                               const PolishOptions& options) {
  std::vector<double> x(x_in.begin(), x_in.end());
  const std::size_t n = x.size();
  const ActiveSet active = active_set(problem, x, options.active_tolerance);
  const auto lower = problem.lower_bounds();
  const auto upper = problem.upper_bounds();
  KktCheck best = check_kkt(problem, x, options.active_tolerance);

  for (int step = 0; step < options.max_steps && best.residual > 0.0; ++step) {
    Eigen::VectorXd values;
    Eigen::MatrixXd jacobian;
    constraints_at(problem, active, x, values, jacobian);
    const auto m = values.size();
    // Multipliers of the current point by least squares (as check_kkt), in active-set order.
    Eigen::VectorXd objective_gradient(n);
    problem.objective(x, {objective_gradient.data(), n});
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(m);
    if (m > 0) {
      lambda = jacobian.transpose().completeOrthogonalDecomposition().solve(-objective_gradient);
    }
    // Hessian of the Lagrangian by differences of its analytic gradient, within the bounds.
    Eigen::MatrixXd hessian =
        lagrangian_hessian(problem, active, x, lambda, options.difference_step);
    // Fixed variables (active bounds) are removed from the step.
    for (std::size_t k : active.fixed_variables) {
      const auto index = static_cast<Eigen::Index>(k);
      hessian.row(index).setZero();
      hessian.col(index).setZero();
      hessian(index, index) = 1.0;
      if (m > 0) jacobian.col(index).setZero();
    }
    Eigen::VectorXd residual_gradient = objective_gradient + jacobian.transpose() * lambda;
    for (std::size_t k : active.fixed_variables)
      residual_gradient[static_cast<Eigen::Index>(k)] = 0;

    const auto size = static_cast<Eigen::Index>(n) + m;
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(size, size);
    kkt.topLeftCorner(n, n) = hessian;
    kkt.topRightCorner(n, m) = jacobian.transpose();
    kkt.bottomLeftCorner(m, n) = jacobian;
    Eigen::VectorXd rhs(size);
    rhs << -residual_gradient, -values;
    const Eigen::VectorXd delta = kkt.fullPivLu().solve(rhs);
    if (!delta.allFinite()) break;

    std::vector<double> candidate = x;
    for (std::size_t k = 0; k < n; ++k) {
      candidate[k] = std::clamp(x[k] + delta[static_cast<Eigen::Index>(k)], lower[k], upper[k]);
    }
    const KktCheck trial = check_kkt(problem, candidate, options.active_tolerance);
    const bool feasible = trial.constraint_violation <=
                          std::max(options.constraint_tolerance, best.constraint_violation);
    if (!feasible || !(trial.residual < best.residual)) break;
    x = std::move(candidate);
    best = trial;
  }
  return x;
}

}  // namespace scaleopt
