#pragma once
// The last polish after SLSQP and the Newton steps of kkt_polish.hpp, for an answer with one
// degree of freedom: two variables and one active constraint (the lifetime problems: a loss
// target or a budget), or one variable and no active constraint. The optimum is then
// a root of the objective's derivative along the constraint curve, which TOMS 748 brackets and
// finds whatever the curvature. Newton's quadratic model fails where the derivative changes
// fast: at a corner of a piecewise-smooth cost (where the serving batch changes bound; the
// cost model smooths the corner over 2e-6 in ln N), and on objectives so flat that SLSQP's
// line search stops early. The point still has to pass check_kkt to be called converged.
//
// Along the curve, one free variable x_p is the parameter t and the other, x_q (the one the
// constraint depends on most), follows from c(x) = 0 by Newton's method; the derivative is
//   d f / d t = df/dx_p + df/dx_q dx_q/dt,  dx_q/dt = -(dc/dx_p) / (dc/dx_q).

#include <optional>
#include <span>
#include <vector>

#include "scaleopt/solver/problem.hpp"

namespace scaleopt {

struct CurvePolishOptions {
  double active_tolerance = 1e-8;  // as in check_kkt: inequalities this close bind
  double first_step = 1e-9;        // half-width of the first bracket tried, in t (log space)
  double largest_step = 64.0;      // the bracket grows by 4x up to this far from x
  // minimum_along_curve: how far on each side of x the slope is checked, relative to
  // max(1, |t|); 1e-10 pins ln N to ~3e-9 (|ln N| < 30).
  double certificate_step = 1e-10;
};

// The root of df/dt bracketed downhill of x, or nothing when the problem does not have exactly
// one degree of freedom at x (n variables, n - 1 active constraints; bounds do not count, as
// SLSQP may stop at one whose multiplier has the wrong sign), the curve cannot be followed
// (Newton fails, a bound is met) or no sign change is found. Evaluates the problem only
// within its bounds.
std::optional<std::vector<double>> polish_along_curve(const Problem& problem,
                                                      std::span<const double> x,
                                                      const CurvePolishOptions& options = {});

// Whether x minimises the objective along the curve to within the certificate step: df/dt <= 0
// just below and >= 0 just above (a side beyond a bound passes). This certifies a corner of a
// piecewise-smooth objective, where no single gradient satisfies the KKT conditions (the
// slopes on the two sides straddle zero), as well as a smooth minimum. False when the problem
// does not have one degree of freedom at x.
bool minimum_along_curve(const Problem& problem, std::span<const double> x,
                         const CurvePolishOptions& options = {});

// For a problem whose one constraint is an inequality that x leaves slack (SLSQP may stop
// there, e.g. at a bound): the point where the path of steepest descent from x (bounds kept)
// meets it, from which polish_along_curve can start. Nothing when the problem has another
// shape, x is not slack, or the path does not meet the constraint.
std::optional<std::vector<double>> onto_inequality(const Problem& problem,
                                                   std::span<const double> x,
                                                   const CurvePolishOptions& options = {});

}  // namespace scaleopt
