#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"

#include <cmath>
#include <sstream>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/fit/bootstrap_resample.hpp"
#include "scaleopt/problems/fit/sample_statistics.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

// E, A, B, alpha, beta, a, b, tokens per parameter of one replicate's fit.
constexpr std::size_t kQuantities = 8;
using ReplicateValues = std::array<double, kQuantities>;

struct Replicate {
  ReplicateValues values{};
  bool converged = false;
};

Spread spread_of(std::span<const double> values) {
  return {standard_deviation(values), quantile(values, kLowerQuantile),
          quantile(values, kUpperQuantile)};
}

}  // namespace

void BootstrapOptions::validate() const {
  kBootstrapLimit.check(replicates);
  if (replicates < 2) {
    throw InputError("bootstrap: at least 2 replicates (a spread needs two), got " +
                     std::to_string(replicates));
  }
}

LawUncertainty BootstrapResult::uncertainty() const {
  LawUncertainty result;
  for (std::size_t i = 0; i < 5; ++i) result.standard_errors[i] = coefficients[i].standard_error;
  result.covariance = covariance;
  return result;
}

BootstrapResult bootstrap_scaling_law(std::span<const TrainingRun> runs, const FitResult& fit,
                                      const FitOptions& fit_options,
                                      const BootstrapOptions& options,
                                      const std::function<void(std::size_t)>& progress) {
  options.validate();
  fit_options.validate();
  validate_runs(runs);
  const std::vector<LogCoefficients> warm_start{fit.x};
  FitOptions refit_options = fit_options;
  refit_options.threads = 1;         // the replicates run in parallel, each refit on one thread
  refit_options.progress = nullptr;  // replicates are counted, not their one start each

  std::vector<Replicate> replicates(static_cast<std::size_t>(options.replicates));
  parallel_for(replicates.size(), fit_options.threads, [&](std::size_t r) {
    std::mt19937_64 generator = replicate_generator(options.seed, r);
    const std::vector<unsigned> counts = resample_counts(runs.size(), generator);
    // A resample that cannot determine the law (too few distinct N or D drawn) would give an
    // arbitrary refit: it counts as not converged and is left out of the spreads.
    std::vector<TrainingRun> drawn;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (counts[i] > 0) drawn.push_back(runs[i]);
    }
    if (!identifiability_problem(drawn).empty()) {
      replicates[r].converged = false;
      if (progress) progress(1);
      return;
    }
    const ScalingLawFitProblem problem(log_runs(runs, counts), fit_options.huber_delta);
    const FitResult refit = fit_scaling_law(problem, warm_start, refit_options);
    const LawImplications implied = law_implications(refit.law);
    replicates[r].values = {refit.law.E,    refit.law.A, refit.law.B, refit.law.alpha,
                            refit.law.beta, implied.a,   implied.b,   implied.tokens_per_param};
    replicates[r].converged = refit.converged();
    if (progress) progress(1);
  });

  // Columns over the converged replicates, in replicate order.
  std::array<std::vector<double>, kQuantities> columns;
  BootstrapResult result;
  result.replicates = options.replicates;
  result.seed = options.seed;
  for (const Replicate& replicate : replicates) {
    if (!replicate.converged) continue;
    ++result.converged;
    for (std::size_t q = 0; q < kQuantities; ++q) columns[q].push_back(replicate.values[q]);
  }
  if (result.converged < 2) {
    std::ostringstream message;
    message << "bootstrap: only " << result.converged << " of " << options.replicates
            << " refits converged; no spread can be estimated";
    throw InputError(message.str());
  }
  for (std::size_t i = 0; i < 5; ++i) {
    result.coefficients[i] = spread_of(columns[i]);
    for (std::size_t j = 0; j < 5; ++j)
      result.covariance[i][j] = covariance(columns[i], columns[j]);
  }
  result.a = spread_of(columns[5]);
  result.b = spread_of(columns[6]);
  result.tokens_per_param = spread_of(columns[7]);
  return result;
}

}  // namespace scaleopt
