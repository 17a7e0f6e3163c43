#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/minimize.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

const double kLog6 = std::log(6.0);

double relative_gap(double value, double reference) {
  return std::fabs(value - reference) / std::fabs(reference);
}

void require_positive_finite(double value, const char* field) {
  if (!std::isfinite(value) || value <= 0.0) {
    std::ostringstream message;
    message << field << " must be finite and positive, got " << value;
    throw InputError(message.str());
  }
}

// The ln N at which the ray D = r N reaches `target_loss`: L(N, r N) falls monotonically in
// N, so TOMS 748 over the whole variable range finds it or proves it out of range.
RootResult log_params_on_ray(const LossLaw& law, double tokens_per_param, double target_loss) {
  const double log_ratio = std::log(tokens_per_param);
  auto gap = [&](double log_params) {
    return loss_in_log_space(law, log_params, log_params + log_ratio).loss - target_loss;
  };
  const double upper = std::min(kLogUpperBound, kLogUpperBound - log_ratio);
  return find_root_in_bracket(gap, std::max(kLogLowerBound, kLogLowerBound - log_ratio), upper);
}

Allocation infeasible_loss(const LossLaw& law, double target_loss) {
  std::ostringstream message;
  message.precision(15);  // a target within 1e-12 of E must not print as E
  message << "target loss " << target_loss << " is at or below the irreducible loss E = " << law.E
          << " of law " << law.name
          << ": no model reaches it; the lowest reachable loss is just above E = " << law.E
          << ", approached only as N and D grow without bound";
  Allocation allocation;
  allocation.loss = law.E;
  allocation.solve.status = Status::infeasible;
  allocation.solve.message = message.str();
  allocation.closed_form_relative_difference = std::nan("");
  return allocation;
}

Allocation out_of_range(const LossLaw& law, double target_loss) {
  Allocation allocation = infeasible_loss(law, target_loss);
  std::ostringstream message;
  message.precision(15);
  message << "target loss " << target_loss
          << " needs more than 1e30 parameters or tokens under law " << law.name
          << " (E = " << law.E << ")";
  allocation.solve.message = message.str();
  return allocation;
}

// 6 N D = C with N and D within 1 to 1e30 (the variables' range) needs 6 <= C <= 6e60.
Allocation compute_out_of_range(double compute_flops) {
  std::ostringstream message;
  message << "compute " << compute_flops << " FLOPs is outside what models of 1 to 1e30 "
          << "parameters trained on 1 to 1e30 tokens use (6 N D from 6 to 6e60 FLOPs)";
  Allocation allocation;
  allocation.solve.status = Status::infeasible;
  allocation.solve.message = message.str();
  allocation.closed_form_relative_difference = std::nan("");
  return allocation;
}

// N, D, C and loss at a solved (ln N, ln D), with the solve kept. A solution on a bound of the
// search (N or D at 1 or 1e30: bounds no user set) is no optimum of the question but the edge
// of the range the law is evaluated on, whatever the KKT check says there.
Allocation from_solution(const LossLaw& law, SolveResult solve) {
  Allocation allocation = evaluate_allocation(law, std::exp(solve.x[0]), std::exp(solve.x[1]));
  if (solve.converged()) {
    for (std::size_t i = 0; i < 2; ++i) {
      if (!at_search_bound(solve.x[i])) continue;
      const bool low = solve.x[i] < 0.5 * kLogUpperBound;
      std::ostringstream message;
      message << (i == 0 ? "parameters" : "tokens") << (low ? " fall to 1" : " reach 1e30")
              << ", the " << (low ? "least" : "most")
              << " the model considers: no optimum inside the range the law is evaluated on "
              << "(law " << law.name << ", alpha = " << law.alpha << ", beta = " << law.beta << ")";
      solve.status = Status::infeasible;
      solve.message = message.str();
      break;
    }
  }
  allocation.solve = std::move(solve);
  return allocation;
}

// A point fixed by the rule D = r N (no optimisation involved).
Allocation on_ray(const LossLaw& law, double tokens_per_param, double params,
                  const char* algorithm) {
  Allocation allocation = evaluate_allocation(law, params, tokens_per_param * params);
  allocation.solve.algorithm = algorithm;
  std::ostringstream message;
  message << "fixed rule: " << tokens_per_param << " tokens per parameter";
  allocation.solve.message = message.str();
  return allocation;
}

std::vector<double> full_range(double value) {
  return {value, value};
}

}  // namespace

LossAtComputeProblem::LossAtComputeProblem(LossLaw law, double compute_flops)
    : law_(std::move(law)), log_compute_(std::log(compute_flops)) {}

std::vector<double> LossAtComputeProblem::lower_bounds() const {
  return full_range(kLogLowerBound);
}
std::vector<double> LossAtComputeProblem::upper_bounds() const {
  return full_range(kLogUpperBound);
}

// Start on the constraint at 20 tokens per parameter: a rule of thumb, independent of the
// closed form the answer is checked against.
std::vector<double> LossAtComputeProblem::start() const {
  const double log_params = 0.5 * (log_compute_ - kLog6 - std::log(20.0));
  return {log_params, log_compute_ - kLog6 - log_params};
}

double LossAtComputeProblem::objective(std::span<const double> x,
                                       std::span<double> gradient) const {
  return loss_with_gradient(law_, x, gradient);
}

double LossAtComputeProblem::equality(std::size_t, std::span<const double> x,
                                      std::span<double> gradient) const {
  if (!gradient.empty()) {
    gradient[0] = 1.0;
    gradient[1] = 1.0;
  }
  return x[0] + x[1] + kLog6 - log_compute_;
}

ComputeAtLossProblem::ComputeAtLossProblem(LossLaw law, double target_loss)
    : law_(std::move(law)), target_loss_(target_loss) {}

std::vector<double> ComputeAtLossProblem::lower_bounds() const {
  return full_range(kLogLowerBound);
}
std::vector<double> ComputeAtLossProblem::upper_bounds() const {
  return full_range(kLogUpperBound);
}

// Start on the constraint at 20 tokens per parameter (found by root finding on that ray).
std::vector<double> ComputeAtLossProblem::start() const {
  const RootResult root = log_params_on_ray(law_, 20.0, target_loss_);
  const double log_params = root.status == Status::converged ? root.x : std::log(1e10);
  return {log_params, log_params + std::log(20.0)};
}

double ComputeAtLossProblem::objective(std::span<const double> x,
                                       std::span<double> gradient) const {
  if (!gradient.empty()) {
    gradient[0] = 1.0;
    gradient[1] = 1.0;
  }
  return kLog6 + x[0] + x[1];
}

double ComputeAtLossProblem::equality(std::size_t, std::span<const double> x,
                                      std::span<double> gradient) const {
  return loss_gap_with_gradient(law_, target_loss_, x, gradient);
}

Allocation optimal_for_compute(const AllocationRule& rule, double compute_flops,
                               const SolverOptions& options) {
  require_positive_finite(compute_flops, "compute");
  rule.law.validate();
  if (rule.tokens_per_param) {
    const double r = *rule.tokens_per_param;
    require_positive_finite(r, "tokens_per_param");
    return on_ray(rule.law, r, std::sqrt(compute_flops / (6.0 * r)), "closed form (fixed rule)");
  }
  if (!(compute_flops >= 6.0 && compute_flops <= 6e60)) {
    return compute_out_of_range(compute_flops);
  }
  Allocation allocation =
      from_solution(rule.law, minimize(LossAtComputeProblem(rule.law, compute_flops), options));
  const auto exact = compute_optimal_allocation(coefficients_of<double>(rule.law), compute_flops);
  allocation.closed_form_relative_difference = std::max(
      relative_gap(allocation.params, exact.params), relative_gap(allocation.tokens, exact.tokens));
  return allocation;
}

Allocation optimal_for_params(const AllocationRule& rule, double params) {
  require_positive_finite(params, "params");
  rule.law.validate();
  if (rule.tokens_per_param) {
    require_positive_finite(*rule.tokens_per_param, "tokens_per_param");
    return on_ray(rule.law, *rule.tokens_per_param, params, "closed form (fixed rule)");
  }
  Allocation allocation = evaluate_allocation(
      rule.law, params, compute_optimal_tokens(coefficients_of<double>(rule.law), params));
  allocation.solve.algorithm = "closed form";
  allocation.solve.message = "closed form (Hoffmann et al. 2022, Eq. 4)";
  return allocation;
}

double rule_tokens(const AllocationRule& rule, double params) {
  if (rule.tokens_per_param) return *rule.tokens_per_param * params;
  return compute_optimal_tokens(coefficients_of<double>(rule.law), params);
}

Allocation optimal_for_loss(const AllocationRule& rule, double target_loss,
                            const SolverOptions& options) {
  require_positive_finite(target_loss, "loss");
  rule.law.validate();
  if (target_loss <= rule.law.E) return infeasible_loss(rule.law, target_loss);
  if (rule.tokens_per_param) {
    const double r = *rule.tokens_per_param;
    require_positive_finite(r, "tokens_per_param");
    const RootResult root = log_params_on_ray(rule.law, r, target_loss);
    if (root.status == Status::infeasible) return out_of_range(rule.law, target_loss);
    Allocation allocation = on_ray(rule.law, r, std::exp(root.x), "TOMS 748 (Boost.Math)");
    if (root.status != Status::converged) {
      allocation.solve.status = root.status;
      allocation.solve.message = "root finding " + root.message;
    }
    return allocation;
  }
  const double exact_compute = compute_for_loss(coefficients_of<double>(rule.law), target_loss);
  const auto exact = compute_optimal_allocation(coefficients_of<double>(rule.law), exact_compute);
  if (!(exact.params < 1e30 && exact.tokens < 1e30)) return out_of_range(rule.law, target_loss);
  Allocation allocation =
      from_solution(rule.law, minimize(ComputeAtLossProblem(rule.law, target_loss), options));
  allocation.closed_form_relative_difference = std::max(
      relative_gap(allocation.params, exact.params), relative_gap(allocation.tokens, exact.tokens));
  return allocation;
}

}  // namespace scaleopt
