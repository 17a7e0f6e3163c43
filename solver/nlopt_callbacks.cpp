#include "scaleopt/solver/nlopt_callbacks.hpp"

#include <limits>

namespace scaleopt {
namespace {

std::span<double> gradient_span(double* gradient, unsigned n) {
  return gradient ? std::span<double>(gradient, n) : std::span<double>();
}

double stop_with_current_exception(NloptCallbacks& callbacks) {
  if (!callbacks.error) callbacks.error = std::current_exception();
  callbacks.optimizer->force_stop();
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double nlopt_objective(unsigned n, const double* x, double* gradient, void* data) {
  auto* callbacks = static_cast<NloptCallbacks*>(data);
  try {
    if (callbacks->stop) throw_if_stopped(*callbacks->stop);
    ++callbacks->evaluations;
    return callbacks->problem->objective({x, n}, gradient_span(gradient, n));
  } catch (...) {
    return stop_with_current_exception(*callbacks);
  }
}

double nlopt_equality(unsigned n, const double* x, double* gradient, void* data) {
  auto* constraint = static_cast<NloptConstraint*>(data);
  try {
    return constraint->callbacks->problem->equality(constraint->index, {x, n},
                                                    gradient_span(gradient, n));
  } catch (...) {
    return stop_with_current_exception(*constraint->callbacks);
  }
}

double nlopt_inequality(unsigned n, const double* x, double* gradient, void* data) {
  auto* constraint = static_cast<NloptConstraint*>(data);
  try {
    return constraint->callbacks->problem->inequality(constraint->index, {x, n},
                                                      gradient_span(gradient, n));
  } catch (...) {
    return stop_with_current_exception(*constraint->callbacks);
  }
}

std::string_view describe(nlopt::result result) {
  switch (result) {
    case nlopt::SUCCESS:
      return "success";
    case nlopt::STOPVAL_REACHED:
      return "stopval reached";
    case nlopt::FTOL_REACHED:
      return "ftol reached";
    case nlopt::XTOL_REACHED:
      return "xtol reached";
    case nlopt::MAXEVAL_REACHED:
      return "maximum evaluations reached";
    case nlopt::MAXTIME_REACHED:
      return "maximum time reached";
    case nlopt::ROUNDOFF_LIMITED:
      return "roundoff limited";
    case nlopt::FORCED_STOP:
      return "forced stop";
    default:
      return "failure";
  }
}

}  // namespace scaleopt
