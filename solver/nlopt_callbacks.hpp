#pragma once
// The bridge from NLopt's C callbacks to a Problem, shared by every NLopt front end here.
// NLopt's core cannot carry a C++ exception through its C frames, and its C++ wrapper would
// replace one by a bare "nlopt failure" (docs/model.md, How the optimiser solves them): the
// trampolines catch it, keep the first one, stop the optimiser, and the caller rethrows it after
// optimize() returns.

#include <exception>
#include <nlopt.hpp>
#include <span>
#include <string_view>

#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/stop.hpp"

namespace scaleopt {

struct NloptCallbacks {
  const Problem* problem;
  nlopt::opt* optimizer;
  std::exception_ptr error;  // the first exception a callback threw
  int evaluations = 0;       // objective evaluations
  // Asked before each objective evaluation: once it says true, the objective throws
  // Interrupted (solver/stop.hpp), which stops NLopt and is rethrown as any other exception.
  const StopCheck* stop = nullptr;
};

// One constraint of a problem, as NLopt's `data` pointer for the constraint trampolines.
struct NloptConstraint {
  NloptCallbacks* callbacks;
  std::size_t index;
};

// Pass with a NloptCallbacks* as data.
double nlopt_objective(unsigned n, const double* x, double* gradient, void* data);
// Pass with a NloptConstraint* as data.
double nlopt_equality(unsigned n, const double* x, double* gradient, void* data);
double nlopt_inequality(unsigned n, const double* x, double* gradient, void* data);

// "xtol reached", "roundoff limited", ... (static text).
std::string_view describe(nlopt::result result);

}  // namespace scaleopt
