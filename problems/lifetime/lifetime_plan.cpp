#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/solver/minimize.hpp"

namespace scaleopt {

LifetimePlan plan_at(const LossLaw& law, const LifetimeCostModel& model, CostUnit unit,
                     double params, double pretrain_tokens) {
  LifetimePlan plan;
  plan.params = params;
  plan.pretrain_tokens = pretrain_tokens;
  plan.rl_tokens = model.rl_tokens;
  plan.loss = law.loss(params, pretrain_tokens);
  plan.cost = model.cost(params, pretrain_tokens);
  plan.unit = unit;
  return plan;
}

namespace {

// The largest relative difference of e^x and e^y over the variables they share.
double relative_gap_in_counts(const std::vector<double>& x, const std::vector<double>& y) {
  double gap = 0.0;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    gap = std::max(gap, std::fabs(std::expm1(x[i] - y[i])));
  }
  return gap;
}

}  // namespace

SolveResult minimize_with_restart(const Problem& problem, const LifetimePlan& reference,
                                  const SolverOptions& options) {
  SolveResult first = minimize(problem, options);
  if (!reference.solve.converged() || reference.solve.x.empty()) return first;
  // Not on the artificial bounds of N and D, where the plan is no answer anyway and D is pinned
  // while N is known to rounding.
  const bool elsewhere =
      first.converged() && !at_search_bound(first.x[0]) && !at_search_bound(first.x[1]) &&
      !(relative_gap_in_counts(first.x, reference.solve.x) <= options.reference_tolerance);
  if (first.converged() && !elsewhere) return first;
  SolveResult again = minimize(StartedAt(problem, reference.solve.x), options);
  if (!again.converged()) return first;
  if (!elsewhere) {
    again.message = "restarted from the 1-D reduction's point: " + again.message;
    return again;
  }
  // The first start stopped at another point that passes the KKT check: a local optimum where
  // the problem is not convex (an RL gain steeper than linear near r = 0 makes "no RL" one), or
  // a point of an optimum so flat along a constraint that the KKT tolerance leaves it ~1e-7
  // from the true one. The better of the two is the answer, and of two equal to rounding
  // (1e-12 relative) the one the reference agrees with; a worse one stays a disagreement for the
  // caller to report.
  const double rounding = 1e-12 * std::max(1.0, std::fabs(first.objective));
  const bool agrees =
      relative_gap_in_counts(again.x, reference.solve.x) <= options.reference_tolerance;
  if (!(again.objective < first.objective ||
        (agrees && again.objective <= first.objective + rounding))) {
    return first;
  }
  std::ostringstream message;
  message.precision(3);
  message << "restarted from the independent reference's point: the first start stopped "
          << relative_gap_in_counts(first.x, reference.solve.x) << " away at "
          << (again.objective < first.objective - rounding
                  ? "another local optimum, worse by "
                  : "a point as good to rounding (a flat optimum), objective difference ")
          << first.objective - again.objective << "; " << again.message;
  again.message = message.str();
  again.evaluations += first.evaluations;
  return again;
}

}  // namespace scaleopt
