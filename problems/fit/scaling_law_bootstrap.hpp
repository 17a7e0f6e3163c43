#pragma once
// How uncertain a scaling-law fit is: resample the runs with replacement, refit each
// replicate from the full fit's optimum (a warm start, not the whole grid: the replicates'
// optima lie near it), and summarise the spread of every coefficient and of what the law
// implies (Efron & Tibshirani 1993; Besiroglu et al. 2024 bootstrap Hoffmann's runs alike).

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"

namespace scaleopt {

struct BootstrapOptions {
  // Number of resampled refits.
  int replicates = 1000;
  // Replicate r resamples with std::mt19937_64 seeded from (seed, r): the same seed gives the
  // same output at any thread count (problems/fit/bootstrap_resample.hpp).
  std::uint64_t seed = 1;

  // Throws InputError naming the field and its bad value.
  void validate() const;
};

// The quantiles reported as the interval.
inline constexpr double kLowerQuantile = 0.1;
inline constexpr double kUpperQuantile = 0.9;

// The spread of one quantity over the converged replicates.
struct Spread {
  double standard_error = 0.0;  // sample standard deviation over replicates
  double lower = 0.0;           // kLowerQuantile quantile (10%)
  double upper = 0.0;           // kUpperQuantile quantile (90%)
};

// A sample's spread: its standard deviation and kLowerQuantile / kUpperQuantile quantiles.
Spread spread_of(std::span<const double> values);

// What every bootstrap of a law shares: the values of the replicates that converged, one
// column per quantity, in replicate order.
struct ReplicateColumns {
  int converged = 0;
  std::vector<std::vector<double>> columns;
};

// Runs options.replicates refits in parallel on `threads` threads (0: one per hardware
// thread): replicate r draws the counts of `runs` from replicate_generator(options.seed, r)
// (problems/fit/bootstrap_resample.hpp), so the result does not depend on the threads. A
// replicate whose drawn runs cannot determine the law (`cannot_determine` of them not empty,
// the reason) would give an arbitrary refit: it counts as not converged. Otherwise `refit(counts)`
// gives its `quantities` values, or nothing when it did not converge. `progress`, when given,
// is called with 1 as each replicate finishes, from any thread. Throws InputError when fewer
// than 2 replicates converge (no spread can be estimated).
ReplicateColumns bootstrap_replicates(
    std::span<const TrainingRun> runs, const BootstrapOptions& options, unsigned threads,
    std::size_t quantities,
    const std::function<std::string(std::span<const TrainingRun>)>& cannot_determine,
    const std::function<std::optional<std::vector<double>>(std::span<const unsigned>)>& refit,
    const std::function<void(std::size_t)>& progress = {});

struct BootstrapResult {
  int replicates = 0;  // refits run
  int converged = 0;   // refits whose optimum passed the gradient test; the spreads use these
  std::uint64_t seed = 0;
  std::array<Spread, 5> coefficients{};  // E, A, B, alpha, beta
  Spread a, b;                           // beta/(alpha+beta), alpha/(alpha+beta)
  Spread tokens_per_param;               // D/N at kReferenceComputeFlops
  // Sample covariance of (E, A, B, alpha, beta) over the converged replicates.
  std::array<std::array<double, 5>, 5> covariance{};

  // Standard errors and covariance in the form a LossLaw carries.
  LawUncertainty uncertainty() const;
};

// Resamples `runs` (the runs `fit` was fitted to) options.replicates times and refits each
// from fit.x with `fit_options` (its delta, L-BFGS settings, gradient test and threads).
// Throws InputError for bad options, or when fewer than 2 replicates converge. `progress`, when
// given, is called as replicates finish, with how many finished, from any thread at once (a
// progress bar; options.replicates in all).
BootstrapResult bootstrap_scaling_law(std::span<const TrainingRun> runs, const FitResult& fit,
                                      const FitOptions& fit_options,
                                      const BootstrapOptions& options = {},
                                      const std::function<void(std::size_t)>& progress = {});

}  // namespace scaleopt
