#include "scaleopt/solver/minimize.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <nlopt.hpp>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/curve_polish.hpp"
#include "scaleopt/solver/kkt.hpp"
#include "scaleopt/solver/kkt_polish.hpp"
#include "scaleopt/solver/nlopt_callbacks.hpp"

namespace scaleopt {
namespace {

struct AlgorithmInfo {
  const char* name;
  nlopt::algorithm algorithm;
  bool equalities;
  bool inequalities;
};

constexpr AlgorithmInfo kAlgorithms[] = {
    {"LD_SLSQP", nlopt::LD_SLSQP, true, true},   {"LD_MMA", nlopt::LD_MMA, false, true},
    {"LD_CCSAQ", nlopt::LD_CCSAQ, false, true},  {"LN_COBYLA", nlopt::LN_COBYLA, true, true},
    {"LD_LBFGS", nlopt::LD_LBFGS, false, false},
};

const AlgorithmInfo& find_algorithm(const std::string& name) {
  for (const AlgorithmInfo& info : kAlgorithms) {
    if (name == info.name) return info;
  }
  throw InputError("solver.algorithm: unknown NLopt algorithm '" + name +
                   "': expected LD_SLSQP, LD_MMA, LD_CCSAQ, LN_COBYLA or LD_LBFGS");
}

struct StartOutcome {
  std::vector<double> x;
  double objective;
  std::string nlopt_outcome;
  KktCheck kkt;
  bool corner = false;  // KKT fails, but x minimises along the constraint (minimum_along_curve)
};

StartOutcome run_start(const Problem& problem, const SolverOptions& options,
                       const AlgorithmInfo& info, std::vector<double> x, int& evaluations) {
  const std::size_t n = problem.dimension();
  nlopt::opt optimizer(info.algorithm, static_cast<unsigned>(n));
  NloptCallbacks callbacks{&problem, &optimizer, nullptr, 0, &options.stop};
  std::vector<NloptConstraint> equalities, inequalities;
  equalities.reserve(problem.equality_count());
  inequalities.reserve(problem.inequality_count());

  optimizer.set_lower_bounds(problem.lower_bounds());
  optimizer.set_upper_bounds(problem.upper_bounds());
  optimizer.set_min_objective(nlopt_objective, &callbacks);
  for (std::size_t i = 0; i < problem.equality_count(); ++i) {
    equalities.push_back({&callbacks, i});
    optimizer.add_equality_constraint(nlopt_equality, &equalities.back(),
                                      options.constraint_tolerance * 1e-3);
  }
  for (std::size_t j = 0; j < problem.inequality_count(); ++j) {
    inequalities.push_back({&callbacks, j});
    optimizer.add_inequality_constraint(nlopt_inequality, &inequalities.back(),
                                        options.constraint_tolerance * 1e-3);
  }
  optimizer.set_xtol_rel(options.relative_x_tolerance);
  if (options.relative_f_tolerance > 0.0) optimizer.set_ftol_rel(options.relative_f_tolerance);
  optimizer.set_maxeval(options.max_evaluations);

  double objective = std::numeric_limits<double>::quiet_NaN();
  std::string outcome;
  try {
    outcome = std::string(describe(optimizer.optimize(x, objective)));
  } catch (const nlopt::roundoff_limited&) {
    // Frequent at a correct optimum: x holds the best point; the KKT check decides.
    outcome = std::string(describe(nlopt::ROUNDOFF_LIMITED));
  } catch (const nlopt::forced_stop&) {
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    outcome = std::string(describe(nlopt::FORCED_STOP));
  } catch (const std::invalid_argument& e) {
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    outcome = std::string("invalid arguments (") + e.what() + ")";
  } catch (const std::runtime_error& e) {
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    outcome = std::string("failure (") + e.what() + ")";
  }
  if (callbacks.error) std::rethrow_exception(callbacks.error);
  evaluations += callbacks.evaluations;
  if (options.polish) {
    const std::vector<double> stopped = x;  // where NLopt stopped
    x = polish_kkt(
        problem, x,
        {.active_tolerance = 1e-8, .constraint_tolerance = options.constraint_tolerance});
    // Newton's model fails at a corner, near a steep wall of the cost, or on a very flat
    // objective: bracket the root of the derivative along the active constraint instead (from
    // Newton's point, else from NLopt's; onto the constraint first when it was left slack).
    const KktCheck newton = check_kkt(problem, x);
    if (!(newton.residual <= options.kkt_tolerance)) {
      for (const std::vector<double>& from : {x, stopped}) {
        std::optional<std::vector<double>> along = polish_along_curve(problem, from);
        if (!along) {
          if (const auto onto = onto_inequality(problem, from)) {
            along = polish_along_curve(problem, *onto);
          }
        }
        if (!along) continue;
        const KktCheck bracketed = check_kkt(problem, *along);
        // At a corner the residual may grow: the certificate of minimum_along_curve decides.
        const bool better =
            bracketed.residual < newton.residual || minimum_along_curve(problem, *along);
        if (better && bracketed.constraint_violation <=
                          std::max(options.constraint_tolerance, newton.constraint_violation)) {
          x = std::move(*along);
          outcome += "; bracketed along the constraint";
          break;
        }
      }
    }
  }
  objective = problem.objective(x, {});
  StartOutcome result{x, objective, outcome, check_kkt(problem, x)};
  // A corner of a piecewise-smooth objective (the roofline's batch bounds) has no gradient
  // that balances the constraints: it is verified by the slopes on its two sides instead.
  result.corner = options.polish && !(result.kkt.residual <= options.kkt_tolerance) &&
                  minimum_along_curve(problem, x);
  return result;
}

std::vector<double> displaced_start(const Problem& problem, int start_index) {
  std::vector<double> x = problem.start();
  // NLopt refuses a start outside the bounds (a problem's rule of thumb may land there, e.g.
  // 20 tokens per parameter for a compute that puts N above 1e30).
  const auto lower = problem.lower_bounds();
  const auto upper = problem.upper_bounds();
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = std::clamp(x[k], lower[k], upper[k]);
  if (start_index == 0) return x;
  // Start k > 0 moves variable (k-1) mod n by +1 or -1 (a factor e in a log variable).
  const std::size_t n = x.size();
  const std::size_t k = static_cast<std::size_t>(start_index - 1);
  const double step = (k / n) % 2 == 0 ? 1.0 : -1.0;
  x[k % n] += step * static_cast<double>(1 + k / (2 * n));
  x[k % n] = std::clamp(x[k % n], lower[k % n], upper[k % n]);
  return x;
}

bool verified(const StartOutcome& outcome, const SolverOptions& options) {
  return std::isfinite(outcome.objective) &&
         outcome.kkt.constraint_violation <= options.constraint_tolerance &&
         (outcome.kkt.residual <= options.kkt_tolerance || outcome.corner);
}

}  // namespace

SolveResult minimize(const Problem& problem, const SolverOptions& options) {
  options.validate();
  const AlgorithmInfo& info = find_algorithm(options.algorithm);
  if (problem.equality_count() > 0 && !info.equalities) {
    throw InputError("solver.algorithm: " + options.algorithm +
                     " does not take equality constraints; use LD_SLSQP or LN_COBYLA");
  }
  if (problem.inequality_count() > 0 && !info.inequalities) {
    throw InputError("solver.algorithm: " + options.algorithm +
                     " does not take inequality constraints; use LD_SLSQP");
  }

  SolveResult result;
  result.algorithm = info.name;
  StartOutcome best;
  bool have_best = false, best_verified = false;
  for (int s = 0; s < options.starts + options.fallback_starts; ++s) {
    if (s >= options.starts && best_verified) break;  // fallbacks only while none verified
    throw_if_stopped(options.stop);
    StartOutcome outcome =
        run_start(problem, options, info, displaced_start(problem, s), result.evaluations);
    if (s > 0) outcome.nlopt_outcome += "; start " + std::to_string(s + 1);
    const bool ok = verified(outcome, options);
    const bool better = !have_best || (ok && !best_verified) ||
                        (ok == best_verified && outcome.objective < best.objective);
    if (better) {
      best = std::move(outcome);
      have_best = true;
      best_verified = ok;
    }
  }

  result.x = best.x;
  result.objective = best.objective;
  result.kkt_residual = best.kkt.residual;
  result.constraint_violation = best.kkt.constraint_violation;
  result.equality_multipliers = best.kkt.equality_multipliers;
  result.inequality_multipliers = best.kkt.inequality_multipliers;
  std::ostringstream message;
  message.precision(2);
  if (best_verified) {
    result.status = Status::converged;
    message << "converged (" << info.name << (options.polish ? " + KKT polish" : "") << ", "
            << best.nlopt_outcome << "; KKT residual " << best.kkt.residual
            << ", constraint violation " << best.kkt.constraint_violation << ")";
    if (best.corner) {
      message << " at a corner of the objective: the slopes along the constraint on either side "
                 "straddle zero";
    }
  } else {
    result.status = Status::not_converged;
    message << "not converged: " << info.name << " stopped (" << best.nlopt_outcome
            << ") with KKT residual " << best.kkt.residual << " (tolerance "
            << options.kkt_tolerance << ") and constraint violation "
            << best.kkt.constraint_violation << " (tolerance " << options.constraint_tolerance
            << ") after " << result.evaluations << " evaluations";
  }
  result.message = message.str();
  return result;
}

}  // namespace scaleopt
