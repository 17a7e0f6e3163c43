#include "scaleopt/problems/fit/joint_law_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/fit/huber_lse_objective.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

// Index of each variable of the joint fit.
enum JointVariable : std::size_t {
  kJointLogE = 0,
  kJointLogA = 1,
  kJointLogB = 2,
  kJointAlpha = 3,
  kJointBeta = 4,
  kJointDelta = 5,
  kJointGamma = 6,
  kJointOmega = 7,
  kJointZeta = 8
};

// The runs as the objective sees them: logarithms (l = ln E^ included) and weights.
struct JointLogRuns {
  std::vector<double> log_params, log_tokens, log_hat, log_loss, weight;
  std::size_t size() const { return log_params.size(); }
};

JointLogRuns joint_log_runs(std::span<const TrainingRun> runs, std::span<const unsigned> weights,
                            const JointLossLaw& transform) {
  JointLogRuns logs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const unsigned weight = weights.empty() ? 1u : weights[i];
    if (weight == 0) continue;
    logs.log_params.push_back(std::log(runs[i].params));
    logs.log_tokens.push_back(std::log(runs[i].tokens));
    logs.log_hat.push_back(std::log(transform.transformed_experts(runs[i].experts)));
    logs.log_loss.push_back(std::log(runs[i].loss));
    logs.weight.push_back(weight);
  }
  return logs;
}

// The summed Huber loss of ln L over x, with its gradient:
//   d/d ln E = h p_E, d/d ln a = h p_A, d/d alpha = h p_A ln N, d/d delta = h p_A l,
//   d/d gamma = h p_A l ln N, and likewise for the data term with (ln b, beta, omega, zeta).
class JointFitProblem final : public Problem {
 public:
  JointFitProblem(JointLogRuns runs, double huber_delta)
      : runs_(std::move(runs)), huber_delta_(huber_delta) {
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const double l = std::fabs(runs_.log_hat[i]);
      const double n = std::fabs(runs_.log_params[i]), d = std::fabs(runs_.log_tokens[i]);
      gradient_scale_ += runs_.weight[i] * std::max({1.0, n, d, l, l * n, l * d});
    }
    gradient_scale_ *= huber_delta_;
  }
  std::size_t dimension() const override { return kJointFitVariables; }
  std::vector<double> lower_bounds() const override {
    return std::vector<double>(kJointFitVariables, -std::numeric_limits<double>::infinity());
  }
  std::vector<double> upper_bounds() const override {
    return std::vector<double>(kJointFitVariables, std::numeric_limits<double>::infinity());
  }
  std::vector<double> start() const override {
    return {0.0, 5.0, 5.0, -0.3, -0.3, 0.0, 0.0, 0.0, 0.0};
  }
  double objective(std::span<const double> x, std::span<double> gradient) const override {
    const double exp_e = std::exp(x[kJointLogE]);
    double total = 0.0;
    std::array<double, kJointFitVariables> g{};
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const double l = runs_.log_hat[i], n = runs_.log_params[i], d = runs_.log_tokens[i];
      const double t_a =
          x[kJointLogA] + x[kJointDelta] * l + (x[kJointAlpha] + x[kJointGamma] * l) * n;
      const double t_b =
          x[kJointLogB] + x[kJointOmega] * l + (x[kJointBeta] + x[kJointZeta] * l) * d;
      const LogSumExp3<double> lse = log_sum_exp3<double>(x[kJointLogE], exp_e, t_a, t_b);
      const double r = lse.value - runs_.log_loss[i];
      const double w = runs_.weight[i];
      total += w * huber<double>(r, huber_delta_);
      if (gradient.empty()) continue;
      const double h = w * huber_derivative<double>(r, huber_delta_);
      const double ha = h * lse.p1, hb = h * lse.p2;
      g[kJointLogE] += h * lse.p0;
      g[kJointLogA] += ha;
      g[kJointAlpha] += ha * n;
      g[kJointDelta] += ha * l;
      g[kJointGamma] += ha * l * n;
      g[kJointLogB] += hb;
      g[kJointBeta] += hb * d;
      g[kJointOmega] += hb * l;
      g[kJointZeta] += hb * l * d;
    }
    if (!gradient.empty()) std::copy(g.begin(), g.end(), gradient.begin());
    return total;
  }
  double gradient_scale() const { return gradient_scale_; }
  std::size_t runs() const { return runs_.size(); }

 private:
  JointLogRuns runs_;
  double huber_delta_;
  double gradient_scale_ = 0.0;
};

struct StartOutcome {
  JointLogCoefficients x{};
  double objective = std::numeric_limits<double>::infinity();
  double gradient_norm = std::numeric_limits<double>::infinity();
  int evaluations = 0;
  bool converged = false;
};

bool better_start(const StartOutcome& candidate, const StartOutcome& incumbent) {
  if (candidate.converged != incumbent.converged) return candidate.converged;
  return candidate.objective < incumbent.objective;
}

void require_option(bool ok, const char* field, const char* expectation, double value) {
  if (ok) return;
  std::ostringstream message;
  message << "fit." << field << " must be " << expectation << ", got " << value;
  throw InputError(message.str());
}

JointLossLaw transform_of(const JointFitOptions& options) {
  JointLossLaw law;
  law.experts_start = options.experts_start;
  law.experts_max = options.experts_max;
  return law;
}

JointLossLaw law_of(const JointLogCoefficients& x, const JointFitOptions& options) {
  JointLossLaw law = transform_of(options);
  law.name = "fit";
  law.E = std::exp(x[kJointLogE]);
  law.a = std::exp(x[kJointLogA]);
  law.b = std::exp(x[kJointLogB]);
  law.alpha = x[kJointAlpha];
  law.beta = x[kJointBeta];
  law.delta = x[kJointDelta];
  law.gamma = x[kJointGamma];
  law.omega = x[kJointOmega];
  law.zeta = x[kJointZeta];
  return law;
}

std::size_t distinct_count(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t count = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i == 0 || values[i] - values[i - 1] > 1e-9 * values[i]) ++count;
  }
  return count;
}

}  // namespace

std::vector<JointLogCoefficients> joint_start_grid() {
  std::vector<JointLogCoefficients> grid;
  const double log_e[] = {-0.5, 0.0, 0.5};
  const double log_coefficient[] = {0.0, 5.0, 10.0};
  const double exponent[] = {-0.1, -0.3, -0.5};
  const double power[] = {-0.5, 0.0, 0.5};
  for (double alpha : exponent)
    for (double beta : exponent)
      for (double e : log_e)
        for (double a : log_coefficient)
          for (double b : log_coefficient)
            for (double delta : power)
              for (double omega : power)
                grid.push_back({e, a, b, alpha, beta, delta, 0.0, omega, 0.0});
  return grid;
}

void JointFitOptions::validate() const {
  require_option(std::isfinite(huber_delta) && huber_delta > 0.0, "huber_delta",
                 "finite and positive", huber_delta);
  require_option(std::isfinite(experts_start) && experts_start > 0.0, "experts_start",
                 "finite and positive", experts_start);
  require_option(std::isfinite(experts_max) && experts_max > experts_start, "experts_max",
                 "finite and above experts_start", experts_max);
  require_option(!starts.empty(), "starts", "non-empty (number of starts)", 0.0);
  require_option(std::isfinite(gradient_tolerance) && gradient_tolerance > 0.0,
                 "gradient_tolerance", "finite and positive", gradient_tolerance);
  lbfgs.validate();
  kThreadsLimit.check(threads);
}

std::string joint_identifiability_problem(std::span<const TrainingRun> runs) {
  std::ostringstream reason;
  if (runs.size() < kJointFitVariables) {
    reason << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << ", fewer than the "
           << kJointFitVariables << " coefficients of the joint law";
    return reason.str();
  }
  std::vector<double> params, tokens, experts;
  for (const TrainingRun& run : runs) {
    params.push_back(run.params);
    tokens.push_back(run.tokens);
    experts.push_back(run.experts);
  }
  if (const std::size_t n = distinct_count(params); n < 3) {
    reason << "the runs have " << n << " distinct model sizes N; the joint law needs at least 3";
  } else if (const std::size_t d = distinct_count(tokens); d < 3) {
    reason << "the runs have " << d << " distinct token counts D; the joint law needs at least 3";
  } else if (const std::size_t e = distinct_count(experts); e < 2) {
    reason << "the runs have " << e
           << " distinct expert count; the joint law's delta, gamma, omega and zeta need at "
              "least 2";
  }
  return reason.str();
}

JointFitResult fit_joint_law(std::span<const TrainingRun> runs, std::span<const unsigned> weights,
                             std::span<const JointLogCoefficients> starts,
                             const JointFitOptions& options) {
  options.validate();
  if (starts.empty()) throw InputError("fit: no start points");
  const JointFitProblem problem(joint_log_runs(runs, weights, transform_of(options)),
                                options.huber_delta);
  std::vector<StartOutcome> outcomes(starts.size());
  parallel_for(starts.size(), options.threads, [&](std::size_t s) {
    const LbfgsOutcome outcome = minimize_lbfgs(
        problem, std::vector<double>(starts[s].begin(), starts[s].end()), options.lbfgs);
    StartOutcome& result = outcomes[s];
    std::copy(outcome.x.begin(), outcome.x.end(), result.x.begin());
    result.evaluations = outcome.evaluations;
    double norm = 0.0;
    for (double g : outcome.gradient) norm = std::max(norm, std::fabs(g));
    result.gradient_norm = std::isfinite(norm) ? norm / problem.gradient_scale()
                                               : std::numeric_limits<double>::infinity();
    result.objective = std::isfinite(outcome.objective) ? outcome.objective
                                                        : std::numeric_limits<double>::infinity();
    result.converged =
        std::isfinite(outcome.objective) && result.gradient_norm <= options.gradient_tolerance;
  });
  JointFitResult fit;
  fit.runs = problem.runs();
  fit.starts = outcomes.size();
  std::size_t best = 0;
  for (std::size_t s = 0; s < outcomes.size(); ++s) {
    fit.evaluations += outcomes[s].evaluations;
    if (outcomes[s].converged) ++fit.starts_converged;
    if (better_start(outcomes[s], outcomes[best])) best = s;
  }
  const StartOutcome& winner = outcomes[best];
  fit.best_start = best;
  fit.x = winner.x;
  fit.objective = winner.objective;
  fit.gradient_norm = winner.gradient_norm;
  fit.status = winner.converged ? Status::converged : Status::not_converged;
  fit.law = law_of(winner.x, options);
  std::ostringstream source;
  source << "joint fit (summed Huber, delta " << options.huber_delta << ") of " << fit.runs
         << " runs, E_start " << options.experts_start << " and E_max " << options.experts_max
         << " held";
  fit.law.source = source.str();
  std::ostringstream message;
  message.precision(2);
  if (fit.converged()) {
    message << "converged (LD_LBFGS from " << fit.starts << " starts, " << fit.starts_converged
            << " converged; best start " << fit.best_start << ", relative gradient "
            << fit.gradient_norm << ")";
  } else {
    message << "not converged: none of " << fit.starts << " starts reached a relative gradient of "
            << options.gradient_tolerance << " (best " << fit.gradient_norm << ")";
  }
  fit.message = message.str();
  return fit;
}

JointFitResult fit_joint_law(std::span<const TrainingRun> runs, const JointFitOptions& options) {
  options.validate();
  validate_runs(runs);
  if (std::string reason = joint_identifiability_problem(runs); !reason.empty()) {
    JointFitResult fit;
    fit.status = Status::not_identifiable;
    fit.message = reason;
    fit.runs = runs.size();
    fit.x.fill(std::numeric_limits<double>::quiet_NaN());
    fit.law = law_of(fit.x, options);
    fit.objective = fit.gradient_norm = std::numeric_limits<double>::quiet_NaN();
    return fit;
  }
  JointFitResult fit = fit_joint_law(runs, {}, options.starts, options);
  // The runs' extremes, experts included: answers of the fitted law say when they lie outside.
  fit.law.fitted_range = fitted_range_of(runs, true);
  return fit;
}

std::array<double, 9> JointBootstrapResult::standard_errors() const {
  std::array<double, 9> errors{};
  for (std::size_t i = 0; i < errors.size(); ++i) errors[i] = coefficients[i].standard_error;
  return errors;
}

JointBootstrapResult bootstrap_joint_law(std::span<const TrainingRun> runs,
                                         const JointFitResult& fit,
                                         const JointFitOptions& fit_options,
                                         const BootstrapOptions& options) {
  options.validate();
  fit_options.validate();
  validate_runs(runs);
  const std::vector<JointLogCoefficients> warm_start{fit.x};
  JointFitOptions refit_options = fit_options;
  refit_options.threads = 1;  // the replicates run in parallel, each refit on one thread
  const ReplicateColumns replicates = bootstrap_replicates(
      runs, options, fit_options.threads, kJointFitVariables,
      [](std::span<const TrainingRun> drawn) { return joint_identifiability_problem(drawn); },
      [&](std::span<const unsigned> counts) -> std::optional<std::vector<double>> {
        const JointFitResult refit = fit_joint_law(runs, counts, warm_start, refit_options);
        if (!refit.converged()) return std::nullopt;
        const std::array<double, kJointFitVariables> values = refit.law.coefficients();
        return std::vector<double>(values.begin(), values.end());
      });
  JointBootstrapResult result;
  result.replicates = options.replicates;
  result.converged = replicates.converged;
  result.seed = options.seed;
  for (std::size_t q = 0; q < kJointFitVariables; ++q) {
    result.coefficients[q] = spread_of(replicates.columns[q]);
  }
  return result;
}

}  // namespace scaleopt
