#include "scaleopt/problems/fit/scaling_law_fit_problem.hpp"

#include <cmath>
#include <limits>

namespace scaleopt {

LogRuns<double> log_runs(std::span<const TrainingRun> runs, std::span<const unsigned> weights) {
  LogRuns<double> logs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const unsigned weight = weights.empty() ? 1u : weights[i];
    if (weight == 0) continue;
    logs.log_params.push_back(std::log(runs[i].params));
    logs.log_tokens.push_back(std::log(runs[i].tokens));
    logs.log_loss.push_back(std::log(runs[i].loss));
    logs.weight.push_back(weight);
  }
  return logs;
}

ScalingLawFitProblem::ScalingLawFitProblem(LogRuns<double> runs, double huber_delta)
    : runs_(std::move(runs)), huber_delta_(huber_delta), gradient_scale_(0.0) {
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    gradient_scale_ += runs_.weight[i] * std::max({1.0, std::fabs(runs_.log_params[i]),
                                                   std::fabs(runs_.log_tokens[i])});
  }
  gradient_scale_ *= huber_delta_;
}

std::vector<double> ScalingLawFitProblem::lower_bounds() const {
  return std::vector<double>(kFitVariables, -std::numeric_limits<double>::infinity());
}

std::vector<double> ScalingLawFitProblem::upper_bounds() const {
  return std::vector<double>(kFitVariables, std::numeric_limits<double>::infinity());
}

std::vector<double> ScalingLawFitProblem::start() const {
  return {0.0, 12.5, 12.5, 1.0, 1.0};
}

double ScalingLawFitProblem::objective(std::span<const double> x,
                                       std::span<double> gradient) const {
  return summed_huber_lse<double>(x, runs_, huber_delta_, gradient);
}

}  // namespace scaleopt
