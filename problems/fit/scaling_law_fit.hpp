#pragma once
// Fitting L(N, D) = E + A / N^alpha + B / D^beta to training runs by Approach 3 of Hoffmann
// et al. 2022 (App. D.2), as Besiroglu et al. 2024 (Epoch AI) replicated it: minimise the
// summed Huber loss (delta = 1e-3) of ln L against the law's log-sum-exp prediction
// (problems/fit/huber_lse_objective.hpp) by L-BFGS from each of a grid of 4,500 starts, in
// parallel, and keep the best verified optimum. docs/fitting.md has the method and checks.

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/fit/huber_lse_objective.hpp"
#include "scaleopt/problems/fit/scaling_law_fit_problem.hpp"
#include "scaleopt/problems/fit/training_run.hpp"
#include "scaleopt/solver/lbfgs.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

// A point of the fit: (ln E, ln A, ln B, alpha, beta), the order of LawUncertainty.
using LogCoefficients = std::array<double, kFitVariables>;

// Hoffmann's grid: alpha, beta in {0, 0.5, ..., 2}; e in {-1, -0.5, ..., 1}; a, b in
// {0, 5, ..., 25}: 5 * 5 * 5 * 6 * 6 = 4,500 starts, enumerated with alpha outermost and b
// innermost (the order of Epoch's itertools.product), which numbers the starts.
std::vector<LogCoefficients> hoffmann_start_grid();

struct FitOptions {
  // Huber threshold on the residual ln L_pred - ln L (Hoffmann et al.: 1e-3). Residuals
  // within it count quadratically, beyond it linearly: the fit is nearly a least-absolute-
  // deviations fit, robust to outlying runs.
  double huber_delta = 1e-3;

  // Start points; each is polished by L-BFGS. Default: Hoffmann's grid of 4,500.
  std::vector<LogCoefficients> starts = hoffmann_start_grid();

  // The L-BFGS run from each start. Its `stop` stops the whole fit, and the bootstrap's refits.
  LbfgsOptions lbfgs{};

  // A start has converged when ||grad f||_inf <= gradient_tolerance * gradient_scale
  // (ScalingLawFitProblem::gradient_scale, the largest value the gradient can take). The
  // best start on Epoch's data stops at ~2e-10 of that scale; 1e-7 leaves room for harder
  // data without accepting a point still on its way down.
  double gradient_tolerance = 1e-7;

  // Threads for the starts (and bootstrap replicates); 0 = one per hardware thread. The
  // result does not depend on it.
  unsigned threads = 0;

  // Above this many runs, the starts run on a subsample of this many (evenly spaced over the
  // runs sorted by N, then D, then loss) and the `refined_starts` best distinct optima found
  // there are refined by L-BFGS on every run: every start on every run grows with the runs
  // (4,500 starts on 10^6 runs: hours), the refinements do not need the grid. 0: every start on
  // every run, whatever their number.
  std::size_t subsample_runs = 1000;
  std::size_t refined_starts = 8;

  // Called as starts (and refinements) finish, with how many finished, from any thread at once:
  // the caller's progress bar. fit_steps() is their total. Not called when empty.
  std::function<void(std::size_t)> progress;

  // Throws InputError naming the field and its bad value.
  void validate() const;
};

struct FitResult {
  // converged: the best start's gradient passed the test above; not_converged otherwise
  // (then `law` is the best point found, not an optimum); not_identifiable when the runs cannot
  // determine the five coefficients (`message` says why; no start is run and `law` is NaN).
  Status status = Status::not_converged;
  std::string message;

  LossLaw law;                 // E, A, B, alpha, beta of the best start (name "fit")
  LogCoefficients x{};         // the same as (ln E, ln A, ln B, alpha, beta)
  double objective = 0.0;      // summed Huber loss at x
  double gradient_norm = 0.0;  // ||grad f(x)||_inf / gradient_scale

  std::size_t runs = 0;              // runs fitted
  std::size_t starts = 0;            // starts tried
  std::size_t starts_converged = 0;  // starts that ended at a verified stationary point
  std::size_t best_start = 0;        // index of the winning start in FitOptions::starts
  long evaluations = 0;              // objective evaluations over all starts
  // When the starts ran on a subsample (FitOptions::subsample_runs): its runs, and the optima
  // then refined on every run; 0 and 0 when every start ran on every run.
  std::size_t subsample_runs = 0;
  std::size_t refined_starts = 0;

  bool converged() const { return status == Status::converged; }
};

// Fits the law to `runs` (validated: finite and positive). The best start is the
// converged one with the lowest objective, ties broken by the lower start index, so the
// answer is the same at any thread count. Runs that cannot determine the law (see
// identifiability_problem) come back not_identifiable. Throws InputError for bad runs or
// options.
FitResult fit_scaling_law(std::span<const TrainingRun> runs, const FitOptions& options = {});

// The starts and refinements a fit of `runs` runs takes: what FitOptions::progress counts to.
std::size_t fit_steps(std::size_t runs, const FitOptions& options);

// Why `runs` cannot determine E, A, B, alpha and beta, or an empty string: fewer runs than
// the 5 coefficients, or too few distinct values. E + A / N^alpha
// takes three distinct model sizes to separate E, A and alpha (two sizes give one difference
// for two unknowns; one size merges A / N^alpha into E), and likewise B / D^beta three distinct
// token counts; and five coefficients need at least five distinct (N, D) runs (repeats of a run
// add no equation). Values within 1e-9 relative count as one.
std::string identifiability_problem(std::span<const TrainingRun> runs);
inline constexpr std::size_t kMinimumDistinctLevels = 3;

// The same on runs already reduced to logarithms and weights (a bootstrap replicate), from
// the given starts (a warm start from the full fit).
FitResult fit_scaling_law(const ScalingLawFitProblem& problem,
                          std::span<const LogCoefficients> starts, const FitOptions& options);

// `runs` without the `count` runs of highest loss (ties: the earlier run goes first), in the
// original order. Epoch drop the 5 highest-loss runs of Hoffmann's Figure 4 before fitting.
std::vector<TrainingRun> without_highest_loss(std::span<const TrainingRun> runs, std::size_t count);

// What a law implies for compute-optimal training (Hoffmann et al. 2022, Eq. 4):
// N_opt ~ C^a, D_opt ~ C^b and D/N at a reference budget.
struct LawImplications {
  double a = 0.0;                 // beta / (alpha + beta)
  double b = 0.0;                 // alpha / (alpha + beta)
  double tokens_per_param = 0.0;  // D_opt / N_opt at `compute_flops`
};
inline constexpr double kReferenceComputeFlops = 1e24;
LawImplications law_implications(const LossLaw& law, double compute_flops = kReferenceComputeFlops);

// The minimum number of runs: one per coefficient (fewer: not_identifiable).
inline constexpr std::size_t kMinimumRuns = kFitVariables;

}  // namespace scaleopt
