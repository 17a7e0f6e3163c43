#pragma once
// One unconstrained L-BFGS run (NLopt LD_LBFGS, analytic gradients) from a given start, for
// multi-start fits that run thousands of these in parallel.
//
// Why not solver/minimize: minimize() is built for the constrained allocation problems. Its
// Newton polish builds a Hessian by finite differences of the gradient and its KKT check
// fits multipliers by least squares; both cost more than the L-BFGS run itself for a 5-variable
// unconstrained fit, and the polish assumes a smooth Hessian, which the Huber objective of a
// scaling-law fit lacks (its curvature jumps wherever a residual crosses +-delta). Here the
// caller verifies a point by its gradient norm, which is all first-order optimality means
// without constraints. The exception handling is the same as minimize's: an exception thrown
// inside the problem stops NLopt and is rethrown unchanged.

#include <string_view>
#include <vector>

#include "scaleopt/solver/problem.hpp"
#include "scaleopt/solver/stop.hpp"

namespace scaleopt {

struct LbfgsOptions {
  // NLopt ftol_rel: stop when one step changes f by less than this times |f|. The default
  // stops a scaling-law fit with a gradient ~1e-10 of its largest possible value (measured
  // on Epoch's Chinchilla data); tighter settings cost evaluations without moving the
  // optimum in its 10th digit.
  double relative_f_tolerance = 1e-12;

  // NLopt xtol_rel on the variables; 0 disables the test (the f test above decides).
  double relative_x_tolerance = 0.0;

  // Upper bound on objective evaluations (with gradient) for the run. The grid starts of a
  // scaling-law fit need ~70 on average and a few hundred at most.
  int max_evaluations = 3000;

  // Asked before each objective evaluation; once it says true, the run throws Interrupted
  // (solver/stop.hpp). Empty: never stops.
  StopCheck stop{};

  // Throws InputError naming the field and its bad value ("lbfgs.max_evaluations must be
  // positive, got 0").
  void validate() const;
};

struct LbfgsOutcome {
  std::vector<double> x;           // the last (best) point
  double objective = 0.0;          // f(x)
  std::vector<double> gradient;    // grad f(x), evaluated after NLopt stopped
  int evaluations = 0;             // objective evaluations, the final one included
  std::string_view nlopt_outcome;  // "ftol reached", "roundoff limited", ... (static text)
};

// Runs LD_LBFGS from `start` within the problem's bounds. Never throws for a failed run (the
// caller judges the gradient); rethrows any exception the problem's objective threw.
LbfgsOutcome minimize_lbfgs(const Problem& problem, std::vector<double> start,
                            const LbfgsOptions& options = {});

}  // namespace scaleopt
