#include "scaleopt/solver/implicit_sensitivity.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/kkt_system.hpp"

namespace scaleopt {

void SensitivityOptions::validate() const {
  const std::pair<const char*, double> fields[] = {{"active_tolerance", active_tolerance},
                                                   {"difference_step", difference_step}};
  for (const auto& [name, value] : fields) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      std::ostringstream message;
      message << "sensitivity." << name << " must be finite and positive, got " << value;
      throw InputError(message.str());
    }
  }
}

KktSensitivity::KktSensitivity(const Problem& problem, std::span<const double> x,
                               const SensitivityOptions& options)
    : x_(x.begin(), x.end()) {
  options.validate();
  const std::size_t n = x.size();
  ActiveSet active = active_set(problem, x, options.active_tolerance);
  inequalities_ = active.inequalities;
  fixed_ = active.fixed_variables;
  const auto upper = problem.upper_bounds();
  for (std::size_t k : fixed_) {
    fixed_at_upper_.push_back(upper[k] - x[k] <
                              options.active_tolerance * std::max(1.0, std::fabs(upper[k])));
  }

  Eigen::VectorXd values;
  Eigen::MatrixXd constraint_jacobian;
  constraints_at(problem, active, x, values, constraint_jacobian);
  const auto m = constraint_jacobian.rows();
  const auto nn = static_cast<Eigen::Index>(n);
  const auto nf = static_cast<Eigen::Index>(fixed_.size());
  // The fixed variables are the constraints x_k - bound_k = 0, with gradient e_k.
  Eigen::MatrixXd jacobian = Eigen::MatrixXd::Zero(m + nf, nn);
  jacobian.topRows(m) = constraint_jacobian;
  for (Eigen::Index f = 0; f < nf; ++f) jacobian(m + f, static_cast<Eigen::Index>(fixed_[f])) = 1;

  Eigen::VectorXd gradient(nn);
  problem.objective(x, {gradient.data(), n});
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(m + nf);
  if (m + nf > 0) {
    lambda = jacobian.transpose().completeOrthogonalDecomposition().solve(-gradient);
  }
  lambda_.assign(lambda.data(), lambda.data() + lambda.size());
  const Eigen::MatrixXd hessian =
      lagrangian_hessian(problem, active, x, lambda.head(m), options.difference_step);

  size_ = n + static_cast<std::size_t>(m + nf);
  const auto size = static_cast<Eigen::Index>(size_);
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(size, size);
  kkt.topLeftCorner(nn, nn) = hessian;
  kkt.topRightCorner(nn, m + nf) = jacobian.transpose();
  kkt.bottomLeftCorner(m + nf, nn) = jacobian;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(kkt);
  if (!lu.isInvertible() || !kkt.allFinite()) {
    message_ =
        "the KKT matrix is singular at the solution (the active constraints or the curvature "
        "do not determine how it moves)";
    return;
  }
  const Eigen::MatrixXd inverse = lu.inverse();
  factor_.resize(size_ * size_);
  for (Eigen::Index r = 0; r < size; ++r) {
    for (Eigen::Index c = 0; c < size; ++c) {
      factor_[static_cast<std::size_t>(r) * size_ + static_cast<std::size_t>(c)] = inverse(r, c);
    }
  }
  ok_ = true;
}

std::vector<double> KktSensitivity::residual(const Problem& problem) const {
  const std::size_t n = x_.size();
  std::vector<double> out(size_, 0.0);
  std::vector<double> gradient(n);
  problem.objective(x_, gradient);
  for (std::size_t k = 0; k < n; ++k) out[k] = gradient[k];
  // Each active constraint adds lambda * its gradient to the Lagrangian gradient, and its
  // value as a row of its own.
  std::size_t row = n, multiplier = 0;
  std::vector<double> constraint_gradient(n);
  auto add_constraint = [&](double value) {
    for (std::size_t k = 0; k < n; ++k) out[k] += lambda_[multiplier] * constraint_gradient[k];
    out[row++] = value;
    ++multiplier;
  };
  for (std::size_t i = 0; i < problem.equality_count(); ++i) {
    add_constraint(problem.equality(i, x_, constraint_gradient));
  }
  for (std::size_t j : inequalities_) {
    add_constraint(problem.inequality(j, x_, constraint_gradient));
  }
  const auto lower = problem.lower_bounds();
  const auto upper = problem.upper_bounds();
  for (std::size_t f = 0; f < fixed_.size(); ++f) {
    const std::size_t k = fixed_[f];
    out[k] += lambda_[multiplier++];
    out[row++] = x_[k] - (fixed_at_upper_[f] ? upper[k] : lower[k]);
  }
  return out;
}

std::vector<double> KktSensitivity::dx_dp(std::span<const Problem* const> problems,
                                          std::span<const double> weights) const {
  std::vector<double> derivative(size_, 0.0);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const std::vector<double> f = residual(*problems[i]);
    for (std::size_t r = 0; r < size_; ++r) derivative[r] += weights[i] * f[r];
  }
  std::vector<double> dx(x_.size(), 0.0);
  for (std::size_t r = 0; r < x_.size(); ++r) {
    double sum = 0.0;
    for (std::size_t c = 0; c < size_; ++c) sum += factor_[r * size_ + c] * derivative[c];
    dx[r] = -sum;
  }
  return dx;
}

}  // namespace scaleopt
