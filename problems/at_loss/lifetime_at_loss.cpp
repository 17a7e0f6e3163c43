#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

void check_inputs(const LossLaw& law, double target_loss, const LifetimeCostModel& model) {
  law.validate();
  model.validate();
  if (!std::isfinite(target_loss) || target_loss <= 0.0) {
    std::ostringstream message;
    message << "target loss must be finite and positive, got " << target_loss;
    throw InputError(message.str());
  }
}

// Infeasible targets, with the reason, before any solver runs: at or below E, beyond 1e30
// parameters or tokens, or reached only by models larger than the setup serves.
}  // namespace

bool infeasible_at_loss(const LossLaw& law, double target_loss, const LifetimeCostModel& model,
                        LifetimePlan& plan) {
  check_inputs(law, target_loss, model);
  std::ostringstream message;
  message.precision(15);  // a target within 1e-12 of E must not print as E
  // The loss of the smallest plan considered, one parameter trained on one token.
  const double highest_loss = law.E + law.A + law.B;
  if (target_loss <= law.E) {
    message << "target loss " << target_loss << " is at or below the irreducible loss E = " << law.E
            << " of law " << law.name
            << ": no model reaches it; the lowest reachable loss is just above E = " << law.E;
  } else if (target_loss >= highest_loss) {
    message << "target loss " << target_loss
            << " is at or above L(1 parameter, 1 token) = E + A + B"
            << " = " << highest_loss << " under law " << law.name
            << ": every model reaches it, so there is nothing to optimise; ask for a lower loss";
  } else {
    const auto c = coefficients_of<double>(law);
    const auto frontier = compute_optimal_allocation(c, compute_for_loss(c, target_loss));
    if (!(frontier.params < 1e30 && frontier.tokens < 1e30)) {
      message << "target loss " << target_loss
              << " needs more than 1e30 parameters or tokens under law " << law.name
              << " (E = " << law.E << ")";
    } else if (const LogParamsRange range =
                   log_params_range_at_loss(law, target_loss, model.max_params);
               !(range.lowest < range.highest)) {
      message << "target loss " << target_loss << " needs more than "
              << format_quantity(std::exp(range.lowest), Unit::count)
              << " parameters, but the setup serves at most "
              << format_quantity(model.max_params, Unit::count) << " (" << model.max_params_reason
              << ")";
    } else {
      return false;
    }
  }
  plan.solve.status = Status::infeasible;
  plan.solve.message = message.str();
  plan.loss = law.E;
  return true;
}

// lowest: D(N) falls from infinity at N_min = (A / (target - E))^(1/alpha) (below it no D
// reaches the target); the smallest N is where D = 1e30 tokens (NLopt's bound on D), and above
// N_min in any case. No wider margin: when inference dominates, the optimum is that smallest N,
// where D is so sensitive to N that a margin of 1e-9 in ln N moved D by 38% (found by
// fuzz_scenario). highest: the setup's (or 1e30), and where D falls to one token when the
// target is so high (target - E > B) that one token reaches it.
LogParamsRange log_params_range_at_loss(const LossLaw& law, double target_loss, double max_params) {
  const double reducible = target_loss - law.E;
  const double log_min_params = std::log(law.A / reducible) / law.alpha;
  const double data_term_at_most_tokens = law.B * std::exp(-law.beta * kLogUpperBound);
  const double log_params_at_most_tokens =
      std::log(law.A / (reducible - data_term_at_most_tokens)) / law.alpha;
  LogParamsRange range;
  range.lowest = std::max({kLogLowerBound,
                           std::nextafter(log_min_params, std::numeric_limits<double>::infinity()),
                           log_params_at_most_tokens});
  range.highest = std::min(kLogUpperBound, std::log(max_params));
  if (reducible > law.B) {
    range.highest = std::min(range.highest, std::log(law.A / (reducible - law.B)) / law.alpha);
  }
  return range;
}

double tokens_for_loss(const LossLaw& law, double target_loss, double params) {
  const double data_term = target_loss - law.E - law.params_term(params);
  if (!(data_term > 0.0)) return std::nan("");
  return std::pow(law.B / data_term, 1.0 / law.beta);
}

LifetimePlan min_lifetime_cost_at_loss_reduced(const LossLaw& law, double target_loss,
                                               const LifetimeCostModel& model, CostUnit unit) {
  LifetimePlan plan;
  plan.unit = unit;
  if (infeasible_at_loss(law, target_loss, model, plan)) return plan;

  const double reducible = target_loss - law.E;
  // d ln cost / d ln N along the constraint. With p = A N^-alpha and r = target - E - p,
  // d ln D / d ln N = -(alpha p) / (beta r); the pretraining term scales as N D, the others
  // by their own slopes. Tends to -inf as N -> N_min and is positive for large N.
  auto slope = [&](double log_params) {
    const double params = std::exp(log_params);
    const double p = law.params_term(params);
    const double r = reducible - p;
    const double tokens = std::pow(law.B / r, 1.0 / law.beta);
    if (!std::isfinite(tokens)) return -1.0;  // so close to N_min that D overflows
    const auto total = model.total(unit, params, tokens);
    const double d_log_tokens = -(law.alpha * p) / (law.beta * r);
    return (total.d_log_params + total.d_log_tokens * d_log_tokens) / total.value;
  };
  const LogParamsRange range = log_params_range_at_loss(law, target_loss, model.max_params);
  const double lower = range.lowest, upper = range.highest;  // infeasible_at_loss checked
  double log_params = upper;
  std::string how = "at the largest model considered (the setup's, or 1e30; its bound binds)";
  int evaluations = 0;
  if (slope(lower) >= 0.0) {
    log_params = lower;
    how = "at 1e30 pretraining tokens, the most considered (its bound binds)";
  } else if (slope(upper) > 0.0) {
    const RootResult root = find_root_in_bracket(slope, lower, upper);
    if (root.status != Status::converged) {
      plan.solve.status = Status::not_converged;
      plan.solve.message = "1-D reduction: " + root.message;
      return plan;
    }
    log_params = root.x;
    evaluations = static_cast<int>(root.iterations);
    how = "converged (1-D reduction, TOMS 748, " + std::to_string(root.iterations) + " iterations)";
  }
  const double params = std::exp(log_params);
  plan =
      plan_at(law, model, unit, params,
              std::clamp(tokens_for_loss(law, target_loss, params), 1.0, std::exp(kLogUpperBound)));
  plan.solve.status = Status::converged;
  plan.solve.algorithm = "1-D reduction, TOMS 748";
  plan.solve.message = how;
  plan.solve.x = {log_params, std::log(plan.pretrain_tokens)};
  plan.solve.evaluations = evaluations;
  plan.solve.constraint_violation = 0.0;
  return plan;
}

}  // namespace scaleopt
