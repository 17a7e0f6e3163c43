#include "scaleopt/solver/curve_polish.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNewtonTolerance = 1e-13;

// The active constraint, if any: an equality, or an inequality within the tolerance.
struct Constraint {
  bool equality;
  std::size_t index;
};

double constraint_at(const Problem& problem, const Constraint& c, std::span<const double> x,
                     std::span<double> gradient) {
  return c.equality ? problem.equality(c.index, x, gradient)
                    : problem.inequality(c.index, x, gradient);
}

// The problem restricted to the curve: t -> x(t), and df/dt there.
class Curve {
 public:
  Curve(const Problem& problem, std::vector<double> x, std::size_t p, std::optional<std::size_t> q,
        std::optional<Constraint> constraint)
      : problem_(problem),
        x_(std::move(x)),
        p_(p),
        q_(q),
        constraint_(constraint),
        lower_(problem.lower_bounds()),
        upper_(problem.upper_bounds()) {}

  double parameter() const { return x_[p_]; }
  double lower() const { return lower_[p_]; }
  double upper() const { return upper_[p_]; }

  // The point at t (x_q by Newton on the constraint from the last point followed), or nothing.
  std::optional<std::vector<double>> point(double t) {
    std::vector<double> x = x_;
    x[p_] = t;
    if (!q_) return x;
    const std::size_t q = *q_;
    std::vector<double> gradient(x.size());
    // Newton's method, kept within the bounds: a step beyond one stops at it (a steep
    // constraint, such as a cost near a full replica, makes Newton overshoot).
    int at_bound = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      const double c = constraint_at(problem_, *constraint_, x, gradient);
      if (!std::isfinite(c) || !(gradient[q] != 0.0)) return std::nullopt;
      const double wanted = x[q] - c / gradient[q];
      const double next = std::clamp(wanted, lower_[q], upper_[q]);
      at_bound = next != wanted ? at_bound + 1 : 0;
      if (at_bound == 2) return std::nullopt;  // the curve leaves the bounds here
      const double step = next - x[q];
      x[q] = next;
      // 1e-13 relative: a few hundred ulps, above the rounding floor of a constraint scaled by
      // a small reducible loss (where Newton's steps stop shrinking), far below what the
      // answers resolve (the certificate steps 1e-10).
      if (std::fabs(step) <= kNewtonTolerance * std::max(1.0, std::fabs(x[q]))) {
        x_ = x;  // the next point starts from here
        return x;
      }
    }
    return std::nullopt;
  }

  // df/dt at t; NaN where the curve cannot be followed.
  double slope(double t) {
    const auto x = point(t);
    if (!x) return kNaN;
    const std::size_t n = x->size();
    std::vector<double> df(n);
    problem_.objective(*x, df);
    if (!q_) return df[p_];
    std::vector<double> dc(n);
    constraint_at(problem_, *constraint_, *x, dc);
    return df[p_] - df[*q_] * dc[p_] / dc[*q_];
  }

 private:
  const Problem& problem_;
  std::vector<double> x_;
  std::size_t p_;
  std::optional<std::size_t> q_;
  std::optional<Constraint> constraint_;
  std::vector<double> lower_, upper_;
};

}  // namespace

namespace {

// The curve through x: one variable the parameter, the other following the one active
// constraint; nothing unless the problem has one degree of freedom at x (bounds aside).
std::optional<Curve> curve_through(const Problem& problem, std::span<const double> x_in,
                                   double active_tolerance) {
  std::vector<double> x(x_in.begin(), x_in.end());
  const std::size_t n = x.size();
  // Bounds do not count: a variable SLSQP left at a bound is followed too (the curve stops
  // at the bound), since its multiplier may have the wrong sign there.
  std::vector<Constraint> active;
  for (std::size_t i = 0; i < problem.equality_count(); ++i) active.push_back({true, i});
  for (std::size_t j = 0; j < problem.inequality_count(); ++j) {
    if (problem.inequality(j, x, {}) > -active_tolerance) active.push_back({false, j});
  }
  if (n != active.size() + 1 || active.size() > 1) return std::nullopt;
  if (active.empty()) return Curve(problem, x, 0, std::nullopt, std::nullopt);
  // Follow the constraint with the variable it depends on most.
  std::vector<double> dc(n);
  constraint_at(problem, active[0], x, dc);
  const std::size_t q = std::fabs(dc[0]) >= std::fabs(dc[1]) ? 0 : 1;
  return Curve(problem, x, 1 - q, q, active[0]);
}

}  // namespace

std::optional<std::vector<double>> polish_along_curve(const Problem& problem,
                                                      std::span<const double> x,
                                                      const CurvePolishOptions& options) {
  std::optional<Curve> curve = curve_through(problem, x, options.active_tolerance);
  if (!curve) return std::nullopt;
  const double t0 = curve->parameter();
  const double s0 = curve->slope(t0);
  if (!std::isfinite(s0)) return std::nullopt;
  if (s0 == 0.0) return curve->point(t0);
  // Downhill until the slope changes sign.
  const double direction = s0 > 0.0 ? -1.0 : 1.0;
  double inner = t0;
  for (double step = options.first_step; step <= options.largest_step; step *= 4.0) {
    double t = std::clamp(t0 + direction * step, curve->lower(), curve->upper());
    double s = curve->slope(t);
    // Where the curve leaves the bounds (the other variable would cross one), close in on the
    // last point it can be followed to.
    for (int halving = 0; halving < 60 && !std::isfinite(s); ++halving) {
      t = 0.5 * (inner + t);
      s = curve->slope(t);
    }
    if (!std::isfinite(s)) return std::nullopt;
    if ((s > 0.0) != (s0 > 0.0) || s == 0.0) {
      auto slope = [&](double u) { return curve->slope(u); };
      const RootResult root = find_root_in_bracket(slope, std::min(inner, t), std::max(inner, t));
      if (root.status == Status::converged) return curve->point(root.x);
      // A jump of the slope (a corner), or a wall so steep that Newton's curve points carry
      // rounding into it, can stall TOMS 748's interpolation: bisect on the sign instead.
      double same = inner, other = t;  // slope of s0's sign at `same`, of the other at `other`
      for (int k = 0; k < 200 && same != other; ++k) {
        const double middle = 0.5 * (same + other);
        if (middle == same || middle == other) break;
        const double value = slope(middle);
        if (!std::isfinite(value)) return std::nullopt;
        if ((value > 0.0) == (s0 > 0.0) && value != 0.0) {
          same = middle;
        } else {
          other = middle;
        }
      }
      return curve->point(other);
    }
    if (t == curve->lower() || t == curve->upper()) return std::nullopt;
    inner = t;
  }
  return std::nullopt;
}

bool minimum_along_curve(const Problem& problem, std::span<const double> x,
                         const CurvePolishOptions& options) {
  std::optional<Curve> curve = curve_through(problem, x, options.active_tolerance);
  if (!curve) return false;
  const double t0 = curve->parameter();
  const double delta = options.certificate_step * std::max(1.0, std::fabs(t0));
  // A side beyond a bound cannot be entered: nothing to check there.
  const bool below = t0 - delta < curve->lower() || curve->slope(t0 - delta) <= 0.0;
  const bool above = t0 + delta > curve->upper() || curve->slope(t0 + delta) >= 0.0;
  return below && above;
}

std::optional<std::vector<double>> onto_inequality(const Problem& problem,
                                                   std::span<const double> x_in,
                                                   const CurvePolishOptions& options) {
  if (problem.equality_count() != 0 || problem.inequality_count() != 1) return std::nullopt;
  std::vector<double> x(x_in.begin(), x_in.end());
  const std::size_t n = x.size();
  const double g0 = problem.inequality(0, x, {});
  if (!(g0 < -options.active_tolerance)) return std::nullopt;
  // Steepest descent, without the components that would leave a bound.
  const auto lower = problem.lower_bounds();
  const auto upper = problem.upper_bounds();
  std::vector<double> direction(n);
  problem.objective(x, direction);
  double length = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    direction[k] = -direction[k];
    if ((direction[k] < 0.0 && x[k] <= lower[k]) || (direction[k] > 0.0 && x[k] >= upper[k])) {
      direction[k] = 0.0;
    }
    length = std::max(length, std::fabs(direction[k]));
  }
  if (!(length > 0.0) || !std::isfinite(length)) return std::nullopt;
  auto at = [&](double step) {
    std::vector<double> y(n);
    for (std::size_t k = 0; k < n; ++k) {
      y[k] = std::clamp(x[k] + step * direction[k] / length, lower[k], upper[k]);
    }
    return y;
  };
  auto g = [&](double step) { return problem.inequality(0, at(step), {}); };
  double inner = 0.0;
  for (double step = options.first_step; step <= options.largest_step; step *= 4.0) {
    const double value = g(step);
    if (!std::isfinite(value)) return std::nullopt;
    if (value >= 0.0) {
      const RootResult root = find_root_in_bracket(g, inner, step);
      if (root.status != Status::converged) return std::nullopt;
      // The root is the middle of a tiny bracket: take its feasible end.
      double feasible = root.x;
      for (int k = 0; k < 64 && g(feasible) > 0.0; ++k) feasible = std::nextafter(feasible, inner);
      return at(feasible);
    }
    inner = step;
  }
  return std::nullopt;
}

}  // namespace scaleopt
