#include "scaleopt/solver/lbfgs.hpp"

#include <cmath>
#include <exception>
#include <limits>
#include <nlopt.hpp>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/nlopt_callbacks.hpp"

namespace scaleopt {
namespace {

void require_lbfgs(bool ok, const char* field, const char* expectation, double value) {
  if (ok) return;
  std::ostringstream message;
  message << "lbfgs." << field << " must be " << expectation << ", got " << value;
  throw InputError(message.str());
}

}  // namespace

void LbfgsOptions::validate() const {
  require_lbfgs(std::isfinite(relative_f_tolerance) && relative_f_tolerance >= 0.0,
                "relative_f_tolerance", "finite and >= 0", relative_f_tolerance);
  require_lbfgs(std::isfinite(relative_x_tolerance) && relative_x_tolerance >= 0.0,
                "relative_x_tolerance", "finite and >= 0", relative_x_tolerance);
  require_lbfgs(relative_f_tolerance > 0.0 || relative_x_tolerance > 0.0, "relative_f_tolerance",
                "positive when relative_x_tolerance is 0 (NLopt needs a stopping test)",
                relative_f_tolerance);
  require_lbfgs(max_evaluations > 0, "max_evaluations", "positive", max_evaluations);
}

LbfgsOutcome minimize_lbfgs(const Problem& problem, std::vector<double> start,
                            const LbfgsOptions& options) {
  const std::size_t n = problem.dimension();
  nlopt::opt optimizer(nlopt::LD_LBFGS, static_cast<unsigned>(n));
  NloptCallbacks callbacks{&problem, &optimizer, nullptr, 0, &options.stop};
  optimizer.set_lower_bounds(problem.lower_bounds());
  optimizer.set_upper_bounds(problem.upper_bounds());
  optimizer.set_min_objective(nlopt_objective, &callbacks);
  if (options.relative_f_tolerance > 0.0) optimizer.set_ftol_rel(options.relative_f_tolerance);
  if (options.relative_x_tolerance > 0.0) optimizer.set_xtol_rel(options.relative_x_tolerance);
  optimizer.set_maxeval(options.max_evaluations);

  LbfgsOutcome outcome;
  double objective = std::numeric_limits<double>::quiet_NaN();
  try {
    outcome.nlopt_outcome = describe(optimizer.optimize(start, objective));
  } catch (const nlopt::roundoff_limited&) {
    // Frequent at a correct optimum (docs/model.md, How the optimiser solves them): `start` holds
    // the best point.
    outcome.nlopt_outcome = describe(nlopt::ROUNDOFF_LIMITED);
  } catch (const nlopt::forced_stop&) {
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    outcome.nlopt_outcome = describe(nlopt::FORCED_STOP);
  } catch (const std::invalid_argument&) {
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    outcome.nlopt_outcome = "invalid arguments";
  } catch (const std::runtime_error&) {
    if (callbacks.error) std::rethrow_exception(callbacks.error);
    outcome.nlopt_outcome = describe(nlopt::FAILURE);
  }
  if (callbacks.error) std::rethrow_exception(callbacks.error);

  // Judge the point NLopt returns by its own gradient, not by NLopt's return code.
  outcome.gradient.assign(n, 0.0);
  outcome.objective = problem.objective(start, outcome.gradient);
  outcome.evaluations = callbacks.evaluations + 1;
  outcome.x = std::move(start);
  return outcome;
}

}  // namespace scaleopt
