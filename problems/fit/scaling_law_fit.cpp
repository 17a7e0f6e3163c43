#include "scaleopt/problems/fit/scaling_law_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <tuple>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

// What one start ended with; kept per start index so that the choice of the best does not
// depend on which thread ran which start.
struct StartResult {
  LogCoefficients x{};
  double objective = std::numeric_limits<double>::infinity();
  double gradient_norm = std::numeric_limits<double>::infinity();
  int evaluations = 0;
  bool converged = false;
};

double infinity_norm(std::span<const double> values) {
  double norm = 0.0;
  for (double v : values) norm = std::max(norm, std::fabs(v));
  return std::isfinite(norm) ? norm : std::numeric_limits<double>::infinity();
}

// Converged before not; then lower objective; then lower index (the caller's loop order).
bool better(const StartResult& candidate, const StartResult& incumbent) {
  if (candidate.converged != incumbent.converged) return candidate.converged;
  return candidate.objective < incumbent.objective;
}

void require(bool ok, const char* field, const char* expectation, double value) {
  if (ok) return;
  std::ostringstream message;
  message << "fit." << field << " must be " << expectation << ", got " << value;
  throw InputError(message.str());
}

}  // namespace

std::vector<LogCoefficients> hoffmann_start_grid() {
  std::vector<LogCoefficients> grid;
  grid.reserve(4500);
  for (int alpha = 0; alpha <= 4; ++alpha) {
    for (int beta = 0; beta <= 4; ++beta) {
      for (int e = -2; e <= 2; ++e) {
        for (int a = 0; a <= 5; ++a) {
          for (int b = 0; b <= 5; ++b) {
            LogCoefficients x{};
            x[kLogE] = 0.5 * e;
            x[kLogA] = 5.0 * a;
            x[kLogB] = 5.0 * b;
            x[kAlpha] = 0.5 * alpha;
            x[kBeta] = 0.5 * beta;
            grid.push_back(x);
          }
        }
      }
    }
  }
  return grid;
}

void FitOptions::validate() const {
  require(std::isfinite(huber_delta) && huber_delta > 0.0, "huber_delta", "finite and positive",
          huber_delta);
  require(!starts.empty(), "starts", "non-empty (number of starts)", 0.0);
  for (const LogCoefficients& start : starts) {
    for (double v : start) require(std::isfinite(v), "starts", "finite", v);
  }
  require(std::isfinite(gradient_tolerance) && gradient_tolerance > 0.0, "gradient_tolerance",
          "finite and positive", gradient_tolerance);
  require(subsample_runs == 0 || subsample_runs >= kMinimumRuns, "subsample_runs",
          "0 (none) or at least 5 runs", static_cast<double>(subsample_runs));
  require(refined_starts >= 1, "refined_starts", "at least 1", static_cast<double>(refined_starts));
  lbfgs.validate();
  kThreadsLimit.check(threads);
}

namespace {

// L-BFGS from each start, in parallel; one result per start, in the starts' order.
std::vector<StartResult> run_starts(const ScalingLawFitProblem& problem,
                                    std::span<const LogCoefficients> starts,
                                    const FitOptions& options) {
  const double scale = problem.gradient_scale();
  std::vector<StartResult> results(starts.size());
  parallel_for(starts.size(), options.threads, [&](std::size_t s) {
    const LbfgsOutcome outcome = minimize_lbfgs(
        problem, std::vector<double>(starts[s].begin(), starts[s].end()), options.lbfgs);
    StartResult& result = results[s];
    std::copy(outcome.x.begin(), outcome.x.end(), result.x.begin());
    result.evaluations = outcome.evaluations;
    result.gradient_norm = infinity_norm(outcome.gradient) / scale;
    result.objective = std::isfinite(outcome.objective) ? outcome.objective
                                                        : std::numeric_limits<double>::infinity();
    result.converged =
        std::isfinite(outcome.objective) && result.gradient_norm <= options.gradient_tolerance;
    if (options.progress) options.progress(1);
  });
  return results;
}

// The fit of the best of `results` (converged first, then lowest objective, then lowest index).
FitResult best_fit(const ScalingLawFitProblem& problem, const std::vector<StartResult>& results) {
  FitResult fit;
  fit.runs = problem.runs().size();
  fit.starts = results.size();
  std::size_t best = 0;
  for (std::size_t s = 0; s < results.size(); ++s) {
    fit.evaluations += results[s].evaluations;
    if (results[s].converged) ++fit.starts_converged;
    if (better(results[s], results[best])) best = s;  // strict: ties keep the lower index
  }
  const StartResult& winner = results[best];
  fit.best_start = best;
  fit.x = winner.x;
  fit.objective = winner.objective;
  fit.gradient_norm = winner.gradient_norm;
  fit.status = winner.converged ? Status::converged : Status::not_converged;
  fit.law.name = "fit";
  fit.law.E = std::exp(winner.x[kLogE]);
  fit.law.A = std::exp(winner.x[kLogA]);
  fit.law.B = std::exp(winner.x[kLogB]);
  fit.law.alpha = winner.x[kAlpha];
  fit.law.beta = winner.x[kBeta];
  std::ostringstream source;
  source << "Approach 3 fit (summed Huber, delta " << problem.huber_delta() << ") of " << fit.runs
         << " runs";
  fit.law.source = source.str();
  return fit;
}

// `count` of `runs`, evenly spaced over them sorted by N, then D, then loss (so the subsample
// spans the model sizes and token counts, whatever the file's order).
std::vector<TrainingRun> subsample(std::span<const TrainingRun> runs, std::size_t count) {
  std::vector<TrainingRun> sorted(runs.begin(), runs.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const TrainingRun& a, const TrainingRun& b) {
    return std::tie(a.params, a.tokens, a.loss) < std::tie(b.params, b.tokens, b.loss);
  });
  std::vector<TrainingRun> sample;
  sample.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    // The middle of the i-th of `count` equal slices.
    sample.push_back(sorted[(2 * i + 1) * sorted.size() / (2 * count)]);
  }
  return sample;
}

// Whether two optima are the same point (to 1e-6 relative in each coordinate): the many starts
// that reach one optimum are refined once.
bool same_optimum(const LogCoefficients& a, const LogCoefficients& b) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (std::fabs(a[k] - b[k]) > 1e-6 * std::max(1.0, std::fabs(b[k]))) return false;
  }
  return true;
}

// The starts on `sample`, then the best distinct optima refined on every run.
FitResult fit_by_subsample(std::span<const TrainingRun> runs, std::span<const TrainingRun> sample,
                           const FitOptions& options) {
  const ScalingLawFitProblem sample_problem(log_runs(sample), options.huber_delta);
  const std::vector<StartResult> results = run_starts(sample_problem, options.starts, options);
  std::vector<std::size_t> order(results.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return better(results[i], results[j]); });
  std::vector<std::size_t> picked;  // start indices
  std::vector<LogCoefficients> refine_from;
  for (const std::size_t s : order) {
    if (picked.size() == options.refined_starts) break;
    if (!picked.empty() && !results[s].converged) break;  // the best is refined in any case
    if (std::any_of(refine_from.begin(), refine_from.end(),
                    [&](const LogCoefficients& x) { return same_optimum(results[s].x, x); })) {
      continue;
    }
    picked.push_back(s);
    refine_from.push_back(results[s].x);
  }
  const ScalingLawFitProblem problem(log_runs(runs), options.huber_delta);
  FitResult fit = best_fit(problem, run_starts(problem, refine_from, options));
  fit.refined_starts = picked.size();
  fit.best_start = picked[fit.best_start];
  fit.starts = results.size();
  fit.starts_converged = 0;
  for (const StartResult& result : results) {
    fit.evaluations += result.evaluations;
    if (result.converged) ++fit.starts_converged;
  }
  fit.subsample_runs = sample.size();
  return fit;
}

// The status line of a fit.
void describe(FitResult& fit, const FitOptions& options) {
  std::ostringstream message;
  message.precision(2);
  std::ostringstream method;
  method << "LD_LBFGS from " << fit.starts << " starts";
  if (fit.subsample_runs > 0) {
    method << " on a subsample of " << fit.subsample_runs << " of the " << fit.runs
           << " runs, the best " << fit.refined_starts << " refined on every run";
  }
  if (fit.converged()) {
    message << "converged (" << method.str() << ", " << fit.starts_converged
            << " converged; best start " << fit.best_start << ", relative gradient "
            << fit.gradient_norm << ")";
  } else {
    message << "not converged: none of " << fit.starts << " starts reached a relative gradient of "
            << options.gradient_tolerance << " (best " << fit.gradient_norm << ") after "
            << fit.evaluations << " evaluations";
    if (fit.subsample_runs > 0) message << " (" << method.str() << ")";
  }
  fit.message = message.str();
}

}  // namespace

FitResult fit_scaling_law(const ScalingLawFitProblem& problem,
                          std::span<const LogCoefficients> starts, const FitOptions& options) {
  options.validate();
  if (starts.empty()) throw InputError("fit: no start points");
  FitResult fit = best_fit(problem, run_starts(problem, starts, options));
  describe(fit, options);
  return fit;
}

std::size_t fit_steps(std::size_t runs, const FitOptions& options) {
  const bool subsampled = options.subsample_runs > 0 && runs > options.subsample_runs;
  return options.starts.size() + (subsampled ? options.refined_starts : 0);
}

std::string identifiability_problem(std::span<const TrainingRun> runs) {
  auto distinct = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    std::size_t count = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i == 0 || values[i] - values[i - 1] > 1e-9 * values[i]) ++count;
    }
    return count;
  };
  std::ostringstream reason;
  if (runs.size() < kMinimumRuns) {
    reason << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << ", fewer than the "
           << kMinimumRuns << " coefficients E, A, B, alpha, beta";
    return reason.str();
  }
  std::vector<double> params, tokens;
  for (const TrainingRun& run : runs) {
    params.push_back(run.params);
    tokens.push_back(run.tokens);
  }
  const std::size_t sizes = distinct(params), token_counts = distinct(tokens);
  if (sizes < kMinimumDistinctLevels) {
    reason << "the runs have " << sizes << " distinct model size" << (sizes == 1 ? "" : "s")
           << " N; separating E, A and alpha needs at least " << kMinimumDistinctLevels;
    return reason.str();
  }
  if (token_counts < kMinimumDistinctLevels) {
    reason << "the runs have " << token_counts << " distinct token count"
           << (token_counts == 1 ? "" : "s") << " D; separating E, B and beta needs at least "
           << kMinimumDistinctLevels;
    return reason.str();
  }
  // Distinct (N, D) pairs: sorted by N then D, a pair repeats its predecessor when both match.
  std::vector<std::size_t> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return std::pair(runs[i].params, runs[i].tokens) < std::pair(runs[j].params, runs[j].tokens);
  });
  auto same = [](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(a, b); };
  std::size_t pairs = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const TrainingRun& run = runs[order[k]];
    if (k == 0 || !same(run.params, runs[order[k - 1]].params) ||
        !same(run.tokens, runs[order[k - 1]].tokens)) {
      ++pairs;
    }
  }
  if (pairs < kMinimumRuns) {
    reason << "the runs have " << pairs << " distinct (N, D) pairs, fewer than the " << kMinimumRuns
           << " coefficients E, A, B, alpha, beta";
    return reason.str();
  }
  return "";
}

FitResult fit_scaling_law(std::span<const TrainingRun> runs, const FitOptions& options) {
  options.validate();
  validate_runs(runs);
  if (std::string reason = identifiability_problem(runs); !reason.empty()) {
    FitResult fit;
    fit.status = Status::not_identifiable;
    fit.message = reason;
    fit.runs = runs.size();
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    fit.law.name = "fit";
    fit.law.E = fit.law.A = fit.law.B = fit.law.alpha = fit.law.beta = kNaN;
    fit.x.fill(kNaN);
    fit.objective = fit.gradient_norm = kNaN;
    return fit;
  }
  FitResult fit;
  bool subsampled = false;
  if (options.subsample_runs > 0 && runs.size() > options.subsample_runs) {
    const std::vector<TrainingRun> sample = subsample(runs, options.subsample_runs);
    // A subsample that cannot determine the law (a model size with fewer runs than a slice
    // holds) leaves the starts to every run.
    if (identifiability_problem(sample).empty()) {
      fit = fit_by_subsample(runs, sample, options);
      describe(fit, options);
      subsampled = true;
    }
  }
  if (!subsampled) {
    const ScalingLawFitProblem problem(log_runs(runs), options.huber_delta);
    fit = fit_scaling_law(problem, options.starts, options);
  }
  // The runs' extremes: answers of the fitted law say when they lie outside them.
  fit.law.fitted_range = fitted_range_of(runs, false);
  return fit;
}

std::vector<TrainingRun> without_highest_loss(std::span<const TrainingRun> runs,
                                              std::size_t count) {
  std::vector<std::size_t> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return runs[i].loss > runs[j].loss; });
  std::vector<bool> dropped(runs.size(), false);
  for (std::size_t k = 0; k < std::min(count, runs.size()); ++k) dropped[order[k]] = true;
  std::vector<TrainingRun> kept;
  kept.reserve(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!dropped[i]) kept.push_back(runs[i]);
  }
  return kept;
}

LawImplications law_implications(const LossLaw& law, double compute_flops) {
  const auto allocation = compute_optimal_allocation(coefficients_of<double>(law), compute_flops);
  return {law.beta / (law.alpha + law.beta), law.alpha / (law.alpha + law.beta),
          allocation.tokens / allocation.params};
}

}  // namespace scaleopt
