#include "scaleopt/solver/solver_options.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/solver/limits.hpp"

namespace scaleopt {
namespace {

void require_solver(bool ok, const char* field, const char* expectation, double value) {
  if (ok) return;
  std::ostringstream message;
  message << "solver." << field << " must be " << expectation << ", got " << value;
  throw InputError(message.str());
}

}  // namespace

void SolverOptions::validate() const {
  require_solver(std::isfinite(relative_x_tolerance) && relative_x_tolerance >= 0.0,
                 "relative_x_tolerance", "finite and >= 0", relative_x_tolerance);
  require_solver(std::isfinite(relative_f_tolerance) && relative_f_tolerance >= 0.0,
                 "relative_f_tolerance", "finite and >= 0", relative_f_tolerance);
  kEvaluationsLimit.check(max_evaluations);
  require_solver(std::isfinite(constraint_tolerance) && constraint_tolerance > 0.0,
                 "constraint_tolerance", "finite and positive", constraint_tolerance);
  require_solver(std::isfinite(kkt_tolerance) && kkt_tolerance > 0.0, "kkt_tolerance",
                 "finite and positive", kkt_tolerance);
  kStartsLimit.check(starts);
  kFallbackStartsLimit.check(fallback_starts);
  require_solver(std::isfinite(reference_tolerance) && reference_tolerance > 0.0,
                 "reference_tolerance", "finite and positive", reference_tolerance);
}

}  // namespace scaleopt
