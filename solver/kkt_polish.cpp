#include "solver/kkt_polish.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "solver/kkt.hpp"

namespace scaleopt {
namespace {

// The constraints treated as equalities at x: every equality, active inequalities and
// active bounds (the latter as fixed variables).
struct ActiveSet {
  std::vector<std::size_t> inequalities;
  std::vector<std::size_t> fixed_variables;
};

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

// Values and gradients (as rows) of the equalities and active inequalities.
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

}  // namespace

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
    // Hessian of the Lagrangian by central differences of its analytic gradient, one-sided
    // at a bound: the problem is never evaluated outside its bounds (where its functions may
    // not be defined, e.g. a model that no longer fits the serving replica).
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(n, n);
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<double> plus = x, minus = x;
      plus[k] = std::min(x[k] + options.difference_step, upper[k]);
      minus[k] = std::max(x[k] - options.difference_step, lower[k]);
      const double width = plus[k] - minus[k];
      if (!(width > 0.0)) continue;  // a variable pinned between equal bounds
      hessian.col(static_cast<Eigen::Index>(k)) =
          (lagrangian_gradient(problem, active, plus, lambda) -
           lagrangian_gradient(problem, active, minus, lambda)) /
          width;
    }
    hessian = 0.5 * (hessian + hessian.transpose()).eval();
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
