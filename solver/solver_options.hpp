#pragma once
// Options of the NLopt front end, in the manner of Ceres' Solver::Options: every field has
// its default in-class and validate() names the field that is wrong.

#include <string>

#include "scaleopt/solver/stop.hpp"

namespace scaleopt {

struct SolverOptions {
  // NLopt algorithm by its NLopt name. LD_SLSQP (default) is a quasi-Newton SQP method that
  // takes equality and inequality constraints with analytic gradients (docs/model.md, How the
  // optimiser solves them). Also accepted: LD_MMA and LD_CCSAQ (inequality constraints only),
  // LN_COBYLA (derivative-free), LD_LBFGS (no constraints).
  std::string algorithm = "LD_SLSQP";

  // NLopt xtol_rel on the log-space variables. The objectives are flat at the optimum
  // (a change of 1e-9 in ln N moves the loss by ~1e-20), so the stop is on x, not on f; the
  // KKT polish below does the last digits.
  double relative_x_tolerance = 1e-10;

  // NLopt ftol_rel; 0 disables the test (see above).
  double relative_f_tolerance = 0.0;

  // After NLopt stops, take Newton steps on the KKT conditions (solver/kkt_polish.hpp):
  // SLSQP alone stalls ~1e-8 from a flat optimum; the polish reaches ~1e-15.
  bool polish = true;

  // Upper bound on objective evaluations per start.
  int max_evaluations = 1000;

  // Largest accepted violation of any constraint, in the constraint's own (documented,
  // dimensionless) scaling.
  double constraint_tolerance = 1e-9;

  // Largest accepted KKT residual ||grad f + J^T lambda|| relative to the size of the
  // terms it balances (see solver/kkt.hpp).
  double kkt_tolerance = 1e-7;

  // Largest relative difference (in each decision variable) between the solver's answer and an
  // independent method's, where the question has one (the 1-D reductions, the RL separation):
  // beyond it the two disagree and the answer is not converged, whichever is wrong. The stress
  // run (docs/reliability.md) holds the two to the same bound and finds at most ~6e-11 over
  // 10^5 random instances.
  double reference_tolerance = 1e-8;

  // Number of start points: the problem's own start, then starts displaced by a factor e
  // in each log variable in turn. The best verified answer wins.
  int starts = 1;

  // Further starts (displaced as above, continuing the sequence) tried one at a time only while
  // no start has verified. SLSQP sometimes stops early on a correct path ("roundoff limited"
  // after a few evaluations) or stalls at a corner of a piecewise-smooth cost (the roofline's
  // batch bounds); a fresh start resets its quasi-Newton model. The stress run
  // (docs/reliability.md) meets this in about one instance in 2,000; a verified first start
  // costs nothing more.
  int fallback_starts = 2;

  // Asked before each start and each objective evaluation, on the thread that runs the solve;
  // once it says true, the solve throws Interrupted (solver/stop.hpp). The analyses that solve
  // many times (Monte Carlo, sensitivities, sweeps) ask it between their solves too. Empty:
  // never stops.
  StopCheck stop{};

  // Throws InputError naming the field and its bad value; the counts (starts, fallback_starts,
  // max_evaluations) are checked against solver/limits.hpp.
  void validate() const;
};

}  // namespace scaleopt
