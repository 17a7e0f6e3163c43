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

}  // namespace

Spread spread_of(std::span<const double> values) {
  return {standard_deviation(values), quantile(values, kLowerQuantile),
          quantile(values, kUpperQuantile)};
}

ReplicateColumns bootstrap_replicates(
    std::span<const TrainingRun> runs, const BootstrapOptions& options, unsigned threads,
    std::size_t quantities,
    const std::function<std::string(std::span<const TrainingRun>)>& cannot_determine,
    const std::function<std::optional<std::vector<double>>(std::span<const unsigned>)>& refit,
    const std::function<void(std::size_t)>& progress) {
  std::vector<std::optional<std::vector<double>>> replicates(
      static_cast<std::size_t>(options.replicates));
  parallel_for(replicates.size(), threads, [&](std::size_t r) {
    std::mt19937_64 generator = replicate_generator(options.seed, r);
    const std::vector<unsigned> counts = resample_counts(runs.size(), generator);
    std::vector<TrainingRun> drawn;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (counts[i] > 0) drawn.push_back(runs[i]);
    }
    if (cannot_determine(drawn).empty()) replicates[r] = refit(counts);
    if (progress) progress(1);
  });
  ReplicateColumns result;
  result.columns.resize(quantities);
  for (const auto& replicate : replicates) {
    if (!replicate) continue;
    ++result.converged;
    for (std::size_t q = 0; q < quantities; ++q) result.columns[q].push_back((*replicate)[q]);
  }
  if (result.converged < 2) {
    std::ostringstream message;
    message << "bootstrap: only " << result.converged << " of " << options.replicates
            << " refits converged; no spread can be estimated";
    throw InputError(message.str());
  }
  return result;
}

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

  const ReplicateColumns replicates = bootstrap_replicates(
      runs, options, fit_options.threads, kQuantities,
      [](std::span<const TrainingRun> drawn) { return identifiability_problem(drawn); },
      [&](std::span<const unsigned> counts) -> std::optional<std::vector<double>> {
        const ScalingLawFitProblem problem(log_runs(runs, counts), fit_options.huber_delta);
        const FitResult refit = fit_scaling_law(problem, warm_start, refit_options);
        if (!refit.converged()) return std::nullopt;
        const LawImplications implied = law_implications(refit.law);
        return std::vector<double>{
            refit.law.E,    refit.law.A, refit.law.B, refit.law.alpha,
            refit.law.beta, implied.a,   implied.b,   implied.tokens_per_param};
      },
      progress);
  const std::vector<std::vector<double>>& columns = replicates.columns;
  BootstrapResult result;
  result.replicates = options.replicates;
  result.converged = replicates.converged;
  result.seed = options.seed;
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
