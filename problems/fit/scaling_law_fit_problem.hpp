#pragma once
// The Approach 3 objective (problems/fit/huber_lse_objective.hpp) as a Problem for the solver:
// unconstrained, over x = (ln E, ln A, ln B, alpha, beta), on runs whose logarithms are
// computed once.

#include <span>

#include "scaleopt/problems/fit/huber_lse_objective.hpp"
#include "scaleopt/problems/fit/training_run.hpp"
#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

// The logarithms of `runs`, each with weight `weights[i]` (all 1 when `weights` is empty).
// Runs of weight 0 are left out: a bootstrap replicate misses ~37% of the runs.
LogRuns<double> log_runs(std::span<const TrainingRun> runs, std::span<const unsigned> weights = {});

class ScalingLawFitProblem final : public Problem {
 public:
  ScalingLawFitProblem(LogRuns<double> runs, double huber_delta);

  std::size_t dimension() const override { return kFitVariables; }
  // Unbounded, as in Hoffmann et al. and Epoch's code: the log-sum-exp form keeps every
  // point finite, and a bound would be one more thing the answer depends on.
  std::vector<double> lower_bounds() const override;
  std::vector<double> upper_bounds() const override;
  // The centre of Hoffmann's grid; the fit passes its own starts.
  std::vector<double> start() const override;
  double objective(std::span<const double> x, std::span<double> gradient) const override;

  // The largest |df/dx_k| can be anywhere: |Huber'| <= delta and each softmax weight is <= 1,
  // so |df/dx_k| <= delta * sum_i w_i * max(1, |ln N_i|, |ln D_i|). Gradients are judged
  // relative to it, which makes the test independent of delta and of the number of runs.
  double gradient_scale() const { return gradient_scale_; }

  const LogRuns<double>& runs() const { return runs_; }
  double huber_delta() const { return huber_delta_; }

 private:
  LogRuns<double> runs_;
  double huber_delta_;
  double gradient_scale_;
};

}  // namespace scaleopt
