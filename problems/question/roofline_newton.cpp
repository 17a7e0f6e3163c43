#include "scaleopt/problems/question/roofline_newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifetime/roofline_pricing.hpp"

namespace scaleopt {
namespace {

constexpr int kMaxNewtonSteps = 200;
// Newton stops once a step is below this, relative to max(1, |u|): convergence is quadratic,
// so the step taken leaves an error of order (f'' / 2 f') step^2, far below rounding.
constexpr double kStepTolerance = 1e-13;
// Largest batch the serving plan searches (serving_plan.cpp): beyond, it reports no plan.
constexpr double kMaxBatch = 1e15;
// What the fast path accepts as verified: SolverOptions' KKT tolerance, and a constraint met
// to a few roundings of the loss or the budget.
constexpr double kKktTolerance = 1e-7;
constexpr double kConstraintTolerance = 1e-12;
// Two terms of a maximum within this of each other (relative) meet at a corner: a few
// roundings of sums of three numbers.
constexpr double kCornerMatch = 1e-13;

// The maxima of the pricing by index, as PieceChoice orders them.
const MaxOfTerms& group(const RooflinePricing& p, int g) {
  switch (g) {
    case 0:
      return p.inference.output;
    case 1:
      return p.inference.input;
    case 2:
      return p.rl.output;
    default:
      return p.rl.input;
  }
}

struct Slope {
  double d1;  // d objective / du on the piece
  double d2;
};

// The minimiser of a convex function of u on [lo, hi] whose derivative changes sign inside:
// slope(u, piece) gives its derivatives on a piece, `relevant` the maxima that count (a
// maximum with no weight never makes a corner).
struct ConvexMinimum {
  bool found = false;
  double u = 0.0;
  PieceChoice left{}, right{};  // the pieces on each side (equal unless at a corner)
  int iterations = 0;
};

// A root of the smooth d(u) in [lo, hi] with d(lo) and d(hi) of opposite signs (or zero):
// Newton kept inside the bracket, bisection when it leaves it.
template <class F>
double bracketed_root(F f, double lo, double hi, int& iterations) {
  Slope at_lo = f(lo);
  if (at_lo.d1 == 0.0) return lo;
  const bool rising = at_lo.d1 < 0.0;
  double u = 0.5 * (lo + hi);
  for (int i = 0; i < kMaxNewtonSteps; ++i) {
    ++iterations;
    const Slope s = f(u);
    if (s.d1 == 0.0) return u;
    ((s.d1 < 0.0) == rising ? lo : hi) = u;
    const double step = s.d2 != 0.0 ? -s.d1 / s.d2 : std::numeric_limits<double>::infinity();
    const double tolerance = kStepTolerance * std::max(1.0, std::fabs(u));
    // Newton's last step below the tolerance is taken (it may round to u itself); a bracket
    // that narrow is the root as well.
    if (std::fabs(step) <= tolerance) return std::clamp(u + step, lo, hi);
    if (hi - lo <= tolerance) return 0.5 * (lo + hi);
    double next = u + step;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    u = next;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

template <class SlopeOn>
ConvexMinimum convex_minimum(const RooflinePricing& pricing, const std::array<bool, 4>& relevant,
                             SlopeOn slope_on, double lo, double hi, double start) {
  auto piece = [&](double u) {
    PieceChoice choice = piece_at(pricing, std::exp(u));
    for (int g = 0; g < 4; ++g) {
      if (!relevant[static_cast<std::size_t>(g)]) choice[static_cast<std::size_t>(g)] = 0;
    }
    return choice;
  };
  ConvexMinimum result;
  PieceChoice piece_lo = piece(lo), piece_hi = piece(hi);
  double u = start > lo && start < hi ? start : 0.5 * (lo + hi);
  for (int i = 0; i < kMaxNewtonSteps; ++i) {
    ++result.iterations;
    if (piece_lo != piece_hi) {
      // A corner lies between: where the terms of the first maximum that differs are equal.
      std::size_t g = 0;
      while (piece_lo[g] == piece_hi[g]) ++g;
      const MaxOfTerms& terms = group(pricing, static_cast<int>(g));
      const SecondsTerm& a = terms.terms[static_cast<std::size_t>(piece_lo[g])];
      const SecondsTerm& b = terms.terms[static_cast<std::size_t>(piece_hi[g])];
      auto gap = [&](double x) {
        const TermValue va = evaluate(a, std::exp(x)), vb = evaluate(b, std::exp(x));
        return Slope{(va.value - vb.value) / (va.value + vb.value), 0.0};
      };
      auto gap_newton = [&](double x) {
        const TermValue va = evaluate(a, std::exp(x)), vb = evaluate(b, std::exp(x));
        return Slope{va.value - vb.value, va.d1 - vb.d1};
      };
      const double at_lo = gap(lo).d1, at_hi = gap(hi).d1;
      double corner = 0.5 * (lo + hi);
      bool is_corner = at_lo >= 0.0 && at_hi <= 0.0;
      if (is_corner) {
        corner = bracketed_root(gap_newton, lo, hi, result.iterations);
        if (!std::isfinite(corner)) return result;
      }
      // Every maximum that changes between the ends and whose two terms meet here, and are
      // its largest, switches at this corner (the RL context is often the serving context:
      // both switch together). Where a third term is larger, the point is no corner of these
      // two: it is tested as any other point below.
      PieceChoice left = piece(corner), right = left;
      const double at = std::exp(corner);
      auto largest = [&](const MaxOfTerms& terms) {
        double value = 0.0;
        for (int t = 0; t < terms.count; ++t) {
          value = std::max(value, evaluate(terms.terms[static_cast<std::size_t>(t)], at).value);
        }
        return value;
      };
      for (std::size_t h = 0; h < 4 && is_corner; ++h) {
        if (piece_lo[h] == piece_hi[h]) continue;
        const MaxOfTerms& group_h = group(pricing, static_cast<int>(h));
        const double x = evaluate(group_h.terms[static_cast<std::size_t>(piece_lo[h])], at).value;
        const double y = evaluate(group_h.terms[static_cast<std::size_t>(piece_hi[h])], at).value;
        const bool meet = std::fabs(x - y) <= kCornerMatch * (x + y) &&
                          std::min(x, y) >= largest(group_h) * (1.0 - kCornerMatch);
        if (meet) {
          left[h] = piece_lo[h];
          right[h] = piece_hi[h];
        } else if (h == g) {
          is_corner = false;
        }
      }
      if (is_corner) {
        const double slope_left = slope_on(corner, left).d1;
        const double slope_right = slope_on(corner, right).d1;
        if (slope_left <= 0.0 && slope_right >= 0.0) {
          result = {true, corner, left, right, result.iterations};
          return result;
        }
        if (slope_right < 0.0) {
          lo = corner;
          piece_lo = right;
        } else {
          hi = corner;
          piece_hi = left;
        }
        if (!(hi > lo)) return result;
        u = 0.5 * (lo + hi);
        continue;
      }
      u = corner > lo && corner < hi ? corner : 0.5 * (lo + hi);
    }
    const PieceChoice here = piece(u);
    const Slope s = slope_on(u, here);
    if (s.d1 == 0.0) {
      result = {true, u, here, here, result.iterations};
      return result;
    }
    if (s.d1 < 0.0) {
      lo = u;
      piece_lo = here;
    } else {
      hi = u;
      piece_hi = here;
    }
    const double step = s.d2 > 0.0 ? -s.d1 / s.d2 : std::numeric_limits<double>::infinity();
    const double tolerance = kStepTolerance * std::max(1.0, std::fabs(u));
    // Converged: Newton's last step is below the tolerance (taken, kept within the bracket),
    // or the bracket is.
    if (piece_lo == piece_hi && (std::fabs(step) <= tolerance || hi - lo <= tolerance)) {
      const double root = std::clamp(u + (std::isfinite(step) ? step : 0.0), lo, hi);
      const PieceChoice at = piece(root);
      result = {true, root, at, at, result.iterations};
      return result;
    }
    double next = u + step;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    u = next;
  }
  return result;
}

// Whether the replica's plan exists at N for the maxima that count: a batch below the limit
// the serving plan searches.
bool plan_exists(const RooflinePricing& p, double params, bool inference, bool rl) {
  return (!inference || p.inference.batch_at(params) <= kMaxBatch) &&
         (!rl || p.rl.batch_at(params) <= kMaxBatch);
}

// The maxima with weight: inference demand, and RL on rollout tokens.
std::array<bool, 4> relevant_maxima(const RooflinePricing& p, const LifetimeCostModel& model,
                                    CostUnit unit) {
  if (unit == CostUnit::flops) return {false, false, false, false};
  const bool rl = model.rl_tokens > 0.0;
  return {p.output_tokens > 0.0, p.input_tokens > 0.0, rl, rl && p.rl_extra_passes > 0.0};
}

// The KKT residual from the one-sided slopes along the curve: zero when they straddle zero (a
// corner, or a smooth minimum), else the smaller of the two residuals.
double corner_residual(double left, double right, double residual_left, double residual_right) {
  if (left <= 0.0 && right >= 0.0) return 0.0;
  return std::min(residual_left, residual_right);
}

NewtonPlan verified(NewtonPlan plan) {
  if (!(plan.kkt_residual <= kKktTolerance && plan.constraint_violation <= kConstraintTolerance)) {
    plan.status = Status::not_converged;
    plan.use_general = true;
    return plan;
  }
  plan.status = Status::converged;
  return plan;
}

}  // namespace

NewtonPlan min_cost_at_loss_roofline(const LossLaw& law, double target_loss,
                                     const LifetimeCostModel& model, CostUnit unit) {
  NewtonPlan plan;
  const RooflinePricing& pricing = *model.roofline;
  // Chinchilla's plan for the target must exist within 1e30 (as min_cost_at_loss_newton).
  const std::optional<ChinchillaAtLoss> chinchilla = chinchilla_at_loss(law, target_loss);
  if (!chinchilla) {
    plan.status = Status::infeasible;
    return plan;
  }
  const double R = target_loss - law.E;
  const double a = law.alpha, b = law.beta;
  // The range of ln N along the constraint (lifetime_at_loss.cpp): above N_min and where D
  // reaches 1e30, below the largest model served, 1e30 and where D falls to one token.
  const double log_min_params = std::log(law.A / R) / a;
  const double at_most_tokens = std::log(law.A / (R - law.B * std::exp(-b * kLogUpperBound))) / a;
  const double lo = std::max(
      {kLogLowerBound, std::nextafter(log_min_params, std::numeric_limits<double>::infinity()),
       at_most_tokens});
  const double served = std::min(kLogUpperBound, std::log(model.max_params));
  double hi = served;
  if (R > law.B) hi = std::min(hi, std::log(law.A / (R - law.B)) / a);
  if (!(lo < hi)) {
    plan.status = Status::infeasible;
    return plan;
  }
  const double k = in_unit(unit, model.pretraining(1.0, 1.0));
  const double rl_tokens = model.rl_tokens;
  const std::array<bool, 4> relevant = relevant_maxima(pricing, model, unit);
  // d cost / du and its derivative along the constraint: pretraining P = k N D(u) with
  // d ln D / du = -s, s = alpha p / (beta r), so P' = P (1 - s) and
  // P'' = P ((1 - s)^2 + (alpha^2 / beta) p R / r^2); serving from the closed form.
  struct Along {
    double cost, slope, curvature, pretrain, tokens;
  };
  auto along = [&](double u, const PieceChoice& piece) {
    const double n = std::exp(u);
    const double p = law.A * std::exp(-a * u), r = R - p;
    const double tokens = std::pow(law.B / r, 1.0 / b);
    const double P = k * n * tokens, s = a * p / (b * r);
    const ServingCost g = serving_cost(pricing, unit, rl_tokens, n, piece);
    return Along{P + g.value, P * (1.0 - s) + g.d1,
                 P * ((1.0 - s) * (1.0 - s) + a * a / b * p * R / (r * r)) + g.d2, P, tokens};
  };
  auto slope_on = [&](double u, const PieceChoice& piece) {
    const Along at = along(u, piece);
    return Slope{at.slope / at.cost, at.curvature / at.cost};
  };
  const PieceChoice at_lo = piece_at(pricing, std::exp(lo));
  if (slope_on(lo, at_lo).d1 >= 0.0) {
    plan.use_general = true;  // at 1e30 tokens (or N = 1): the bounds of the general problem
    return plan;
  }
  ConvexMinimum minimum;
  const PieceChoice at_hi = piece_at(pricing, std::exp(hi));
  if (slope_on(hi, at_hi).d1 <= 0.0) {
    if (hi != served) {
      plan.use_general = true;  // D at one token
      return plan;
    }
    minimum = {true, hi, at_hi, at_hi, 0};
  } else {
    // From Chinchilla's N for the target: serving costs only move the optimum down from it.
    minimum = convex_minimum(pricing, relevant, slope_on, lo, hi, chinchilla->log_params);
    if (!minimum.found) return plan;  // not converged
  }
  plan.iterations = minimum.iterations;
  const double u = minimum.u;
  plan.params = std::exp(u);
  const bool at_bound = u == served;
  const Along left = along(u, minimum.left), right = along(u, minimum.right);
  plan.pretrain_tokens = std::clamp(left.tokens, 1.0, std::exp(kLogUpperBound));
  if (!plan_exists(pricing, plan.params, relevant[0] || relevant[1], relevant[2] || relevant[3])) {
    plan.use_general = true;
    return plan;
  }
  // Verified afresh in (ln N, ln D): the loss constraint, and the KKT residual of ln cost
  // against the constraint's gradient with each side's slope of the serving cost.
  const LossInLogSpace l = loss_in_log_space(law, u, std::log(plan.pretrain_tokens));
  plan.constraint_violation = std::fabs(l.loss - target_loss) / R;
  const double c[2] = {l.d_log_params / R, l.d_log_tokens / R};
  auto residual_of = [&](const Along& side) {
    // d cost / d ln N at fixed D: pretraining P plus the serving slope (side.slope less the
    // pretraining's part along the curve, P (1 - s)).
    const double p = law.params_term(plan.params), r = R - p, s = a * p / (b * r);
    const double serving_slope = side.slope - side.pretrain * (1.0 - s);
    const double g[2] = {(side.pretrain + serving_slope) / side.cost, side.pretrain / side.cost};
    return kkt_residual_2d(g, c, false);
  };
  if (at_bound) {
    // The loss and N <= the largest served fit exactly; the bound's multiplier must be >= 0:
    // the cost falls toward the bound.
    plan.kkt_residual = std::max(0.0, left.slope / left.cost);
  } else {
    plan.kkt_residual =
        corner_residual(left.slope, right.slope, residual_of(left), residual_of(right));
  }
  return verified(plan);
}

NewtonPlan max_quality_at_budget_roofline(const LossLaw& law, const LifetimeCostModel& model,
                                          CostUnit unit, double budget, double min_params) {
  NewtonPlan plan;
  const RooflinePricing& pricing = *model.roofline;
  const double k = in_unit(unit, model.pretraining(1.0, 1.0));
  const double rl_tokens = model.rl_tokens;
  const std::array<bool, 4> relevant = relevant_maxima(pricing, model, unit);
  const double a = law.alpha, b = law.beta;
  auto serving = [&](double u, const PieceChoice& piece) {
    return serving_cost(pricing, unit, rl_tokens, std::exp(u), piece);
  };
  auto serving_at = [&](double u) { return serving(u, piece_at(pricing, std::exp(u))); };
  // The budget left after serving and one token per parameter, as a fraction of the budget:
  // positive while D >= 1 is affordable (quality_at_budget.cpp).
  auto room = [&](double u) { return (budget - serving_at(u).value - k * std::exp(u)) / budget; };
  const double lo = std::log(min_params);
  const double served = std::min(kLogUpperBound, std::log(model.max_params));
  if (!(room(lo) > 0.0) || !(lo < served)) {
    plan.status = Status::infeasible;
    return plan;
  }
  double hi = served;
  if (!(room(hi) > 0.0)) {
    // Where D reaches one token: room falls with N (costs rise with N).
    int iterations = 0;
    hi = bracketed_root(
        [&](double u) {
          const ServingCost g = serving_at(u);
          const double n = std::exp(u);
          return Slope{(budget - g.value - k * n) / budget, -(g.d1 + k * n) / budget};
        },
        lo, hi, iterations);
    if (!std::isfinite(hi)) return plan;
    for (int step = 0; step < 64 && !(room(hi) > 0.0) && hi > lo; ++step) {
      hi = std::nextafter(hi, lo);
    }
  }
  // dL/du along the budget: h = ln D = ln(budget - g) - ln k - u, h' = -g' / left - 1,
  // h'' = -(g'' left + g'^2) / left^2; L' = -alpha p - beta q h',
  // L'' = alpha^2 p + beta^2 q h'^2 - beta q h''.
  struct Along {
    double slope, curvature, tokens, p, q, spend, serving_slope;
  };
  auto along = [&](double u, const PieceChoice& piece) {
    const ServingCost g = serving(u, piece);
    const double left = budget - g.value, n = std::exp(u);
    const double tokens = left / (k * n);
    const double h1 = -g.d1 / left - 1.0, h2 = -(g.d2 * left + g.d1 * g.d1) / (left * left);
    const double p = law.params_term(n), q = law.data_term(tokens);
    return Along{-a * p - b * q * h1,
                 a * a * p + b * b * q * h1 * h1 - b * q * h2,
                 tokens,
                 p,
                 q,
                 g.value + k * n * tokens,
                 g.d1};
  };
  auto slope_on = [&](double u, const PieceChoice& piece) {
    const Along at = along(u, piece);
    return Slope{at.slope, at.curvature};
  };
  const PieceChoice at_lo = piece_at(pricing, std::exp(lo));
  const PieceChoice at_hi = piece_at(pricing, std::exp(hi));
  if (along(lo, at_lo).tokens > std::exp(kLogUpperBound) ||
      along(hi, at_hi).tokens > std::exp(kLogUpperBound)) {
    plan.use_general = true;  // 1e30 tokens: the bound of the general problem
    return plan;
  }
  ConvexMinimum minimum;
  if (slope_on(lo, at_lo).d1 >= 0.0) {
    minimum = {true, lo, at_lo, at_lo, 0};
    plan.at_min_params = true;
  } else if (slope_on(hi, at_hi).d1 <= 0.0) {
    if (hi != served) {
      plan.use_general = true;  // D at one token
      return plan;
    }
    minimum = {true, hi, at_hi, at_hi, 0};
  } else {
    // From the split Chinchilla's rule of thumb gives pretraining (half the budget at 20
    // tokens per parameter, as QualityAtBudgetProblem starts).
    minimum = convex_minimum(pricing, relevant, slope_on, lo, hi,
                             0.5 * (std::log(budget) - std::log(40.0 * k)));
    if (!minimum.found) return plan;
  }
  plan.iterations = minimum.iterations;
  const double u = minimum.u;
  plan.params = plan.at_min_params ? min_params : std::exp(u);
  const Along left = along(u, minimum.left), right = along(u, minimum.right);
  plan.pretrain_tokens = left.tokens;
  if (!within_general_bounds(plan.params, plan.pretrain_tokens) ||
      !plan_exists(pricing, plan.params, relevant[0] || relevant[1], relevant[2] || relevant[3])) {
    plan.use_general = true;
    return plan;
  }
  plan.constraint_violation = std::max(0.0, std::log(left.spend / budget));
  auto residual_of = [&](const Along& side) {
    const double pretrain_cost = k * plan.params * side.tokens;
    const double g[2] = {-a * side.p, -b * side.q};
    const double budget_gradient[2] = {(pretrain_cost + side.serving_slope) / side.spend,
                                       pretrain_cost / side.spend};
    return kkt_residual_2d(g, budget_gradient, true);
  };
  if (plan.at_min_params) {
    // Budget and N >= min_params fit exactly: the bound's multiplier must be >= 0, the loss
    // rising away from it.
    plan.kkt_residual = std::max(0.0, -right.slope / (a * right.p));
  } else if (u == served) {
    plan.kkt_residual = std::max(0.0, left.slope / (a * left.p));
  } else {
    plan.kkt_residual =
        corner_residual(left.slope, right.slope, residual_of(left), residual_of(right));
  }
  return verified(plan);
}

}  // namespace scaleopt
