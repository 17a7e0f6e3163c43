#pragma once
// The compute-optimal questions of Hoffmann et al. 2022, each answered by NLopt over
// (ln N, ln D) with analytic gradients and cross-checked against the closed form:
//  - the best (N, D) for a compute budget C: minimise L(N, D) subject to 6 N D = C;
//  - the cheapest (N, D) reaching a target loss: minimise 6 N D subject to L(N, D) = target;
//  - the compute-optimal D (and C) for a given N: closed form only (one free variable left).
// With a fixed tokens-per-parameter rule (D = r N, the "20 tokens per parameter" of
// Hoffmann's Approach 1) the law only scores the loss.

#include <optional>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/compute_optimal/allocation.hpp"
#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

// How D follows N: the law's compute-optimal frontier, or a fixed ratio D = r N.
struct AllocationRule {
  LossLaw law;
  std::optional<double> tokens_per_param;  // r; empty means "the law's frontier"
};

// minimise L(e^x0, e^x1) s.t. x0 + x1 + ln 6 - ln C = 0 (the constraint is the relative
// error of 6ND against C, hence linear in log space).
class LossAtComputeProblem final : public Problem {
 public:
  LossAtComputeProblem(LossLaw law, double compute_flops);
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t equality_count() const override { return 1; }
  double equality(std::size_t i, std::span<const double> x,
                  std::span<double> gradient) const override;

 private:
  LossLaw law_;
  double log_compute_;
};

// minimise ln(6 N D) s.t. (L(N, D) - target) / (target - E) = 0 (the relative error of the
// reducible loss, so the constraint is of order one for every target).
class ComputeAtLossProblem final : public Problem {
 public:
  ComputeAtLossProblem(LossLaw law, double target_loss);
  std::size_t dimension() const override { return 2; }
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;
  std::size_t equality_count() const override { return 1; }
  double equality(std::size_t i, std::span<const double> x,
                  std::span<double> gradient) const override;

 private:
  LossLaw law_;
  double target_loss_;
};

// Best (N, D) for a compute budget. Law: NLopt, cross-checked with Hoffmann Eq. 4.
// Rule: N = sqrt(C / (6 r)), D = r N.
Allocation optimal_for_compute(const AllocationRule& rule, double compute_flops,
                               const SolverOptions& options = {});

// Compute-optimal D and C for N parameters (closed form; rule: D = r N).
Allocation optimal_for_params(const AllocationRule& rule, double params);

// The rule's D for N parameters alone (closed form, no strings: sweeps call it per point).
double rule_tokens(const AllocationRule& rule, double params);

// Cheapest (N, D) reaching `target_loss`. Law: NLopt, cross-checked with the closed form.
// Rule: TOMS 748 on L(N, r N) = target. Status infeasible when target <= E.
Allocation optimal_for_loss(const AllocationRule& rule, double target_loss,
                            const SolverOptions& options = {});

// Bounds of every log-space variable of these problems: 1 to 1e30 (parameters and tokens).
inline constexpr double kLogLowerBound = 0.0;
inline constexpr double kLogUpperBound = 69.07755278982137;  // ln 1e30

// Whether ln N or ln D sits on a bound of the search (within 1e-9 of ln 1 or ln 1e30): bounds no
// user sets, so a solution there is no optimum of the question but the edge of the range.
inline bool at_search_bound(double log_count) {
  constexpr double kWithin = 1e-9;
  return log_count <= kLogLowerBound + kWithin || log_count >= kLogUpperBound - kWithin;
}

}  // namespace scaleopt
