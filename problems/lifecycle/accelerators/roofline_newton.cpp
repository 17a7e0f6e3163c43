#include "scaleopt/problems/lifecycle/accelerators/roofline_newton.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifecycle/accelerators/newton_root.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"

namespace scaleopt {
namespace {

constexpr int kMaxNewtonSteps = 200;
// Where D reaches one token (ln spend against w = -ln(served - u), rising and nearly linear in
// w): Newton stops once a step is below 2^-33 of w (~1-35: 4e-9 at most); with
// |f'' / 2 f'| < 1 the error left is below 1e-17, under the rounding of w itself.
constexpr int kRootDigits = 34;
// Newton stops once a step is below this, relative to max(1, |u|) (u = ln N ~ 20-30: 3e-9 at
// most). Convergence is quadratic, so the step taken leaves an error of order
// |f'' / 2 f'| step^2: the slopes Newton runs on are nearly linear (|f'' / 2 f'| ~ 1), so under
// 1e-17, below the rounding of u. A tighter test costs one more evaluation for nothing.
constexpr double kStepTolerance = 1e-10;
// ...and the slope Newton runs on below this: the slopes are relative (a log ratio, or C' / C),
// and a point where the step is small but the slope is not is no root (a steep slope far from
// it); there the next steps tell.
constexpr double kSlopeTolerance = 1e-6;
// The log form of the min-cost slope is taken where s - 1 is at least this (see slope_of).
constexpr double kLogFormMinimum = 0.25;
// Two terms of a maximum within this of each other (relative) meet at a corner: a few
// roundings of sums of three numbers.
constexpr double kCornerMatch = 1e-13;
// ...plus this many roundings of the corner's u times the terms' difference in log slope.
constexpr double kCornerUlps = 4.0;

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

// What Newton runs on, on a piece: a function with the sign of d objective / du (the
// derivative itself, or the log ratio of the two marginal costs it balances) and its
// derivative in u.
struct Slope {
  double d1;
  double d2;
};

// The minimiser of a convex function of u on [lo, hi] whose derivative changes sign inside:
// slope_on(u, piece) gives its derivatives on a piece, slope_here(u, piece) on the piece at u
// (which it stores in `piece`, as it gives piece_lo and piece_hi), `relevant` the maxima that
// count (a maximum with no weight never makes a corner).
struct ConvexMinimum {
  bool found = false;
  double u = 0.0;
  PieceChoice left{}, right{};  // the pieces on each side (equal unless at a corner)
  int iterations = 0;
};

// A root of the smooth f(u) in [lo, hi] where f(lo) >= 0 >= f(hi), from `start`: Newton kept
// inside the bracket, bisection when a step leaves it. Not Boost's newton_raphson_iterate
// (newton_root): Boost narrows its bracket by the sign of the step f / f', which assumes f
// monotone, and the gap between two terms of a maximum need not be: the same two terms can meet
// twice (the HBM term is largest at small and at large N, compute-bound between), and Boost then
// returns the meeting at the wrong end. Here the bracket is narrowed by the sign of f itself.
template <class F>
double bracketed_root(F f, double lo, double hi, double start, int& iterations) {
  double u = start > lo && start < hi ? start : 0.5 * (lo + hi);
  for (int i = 0; i < kMaxNewtonSteps; ++i) {
    ++iterations;
    const auto [value, slope] = f(u);
    if (value == 0.0) return u;
    (value > 0.0 ? lo : hi) = u;
    const double step = slope != 0.0 ? -value / slope : std::numeric_limits<double>::infinity();
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

template <class SlopeOn, class SlopeHere>
ConvexMinimum convex_minimum(const RooflinePricing& pricing, const std::array<bool, 4>& relevant,
                             SlopeOn slope_on, SlopeHere slope_here, double lo, double hi,
                             PieceChoice piece_lo, PieceChoice piece_hi, double start,
                             double pole) {
  // Newton's step from u, in t = ln(u - pole) above a pole (the slope is then nearly linear in
  // t), else in u: the step in u, +infinity without curvature.
  auto newton_step = [pole](double u, const Slope& s) {
    if (!(s.d2 > 0.0)) return std::numeric_limits<double>::infinity();
    const double x = u - pole;
    if (std::isfinite(pole) && x > 0.0) return x * std::expm1(-s.d1 / (s.d2 * x));
    return -s.d1 / s.d2;
  };
  auto piece = [&](double u) {
    PieceChoice choice = piece_at(pricing, std::exp(u));
    for (int g = 0; g < 4; ++g) {
      if (!relevant[static_cast<std::size_t>(g)]) choice[static_cast<std::size_t>(g)] = 0;
    }
    return choice;
  };
  ConvexMinimum result;
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
      // ln a - ln b: both terms are close to powers of N, so their log ratio is nearly linear
      // in u and Newton finds its root in a few steps.
      auto gap = [&](double x) {
        const double n = std::exp(x);
        const TermValue va = evaluate(a, n), vb = evaluate(b, n);
        return std::pair<double, double>(std::log(va.value) - std::log(vb.value),
                                         va.d1 / va.value - vb.d1 / vb.value);
      };
      const double at_lo = gap(lo).first, at_hi = gap(hi).first;
      double corner = 0.5 * (lo + hi);
      bool is_corner = at_lo >= 0.0 && at_hi <= 0.0;
      if (is_corner) {
        // From the closed form (a root of a quadratic), polished by Newton (a step or two): the
        // closed form loses digits to cancellation where the terms nearly agree in slope.
        const double start = std::log(meeting_point(a, b, std::exp(lo), std::exp(hi)));
        corner = bracketed_root(gap, lo, hi, start, result.iterations);
        if (!std::isfinite(corner)) return result;
      }
      // Every maximum that changes between the ends and whose two terms meet here, and are
      // its largest, switches at this corner (the RL context is often the serving context:
      // both switch together). Where a third term is larger, the point is no corner of these
      // two: it is tested as any other point below.
      PieceChoice left = piece(corner), right = left;
      const double at = std::exp(corner);
      auto largest = [at](const MaxOfTerms& terms) {
        int index = 0;
        return terms.largest_value(at, index).value;
      };
      for (std::size_t h = 0; h < 4 && is_corner; ++h) {
        if (piece_lo[h] == piece_hi[h]) continue;
        const MaxOfTerms& group_h = group(pricing, static_cast<int>(h));
        const TermValue tx = evaluate(group_h.terms[static_cast<std::size_t>(piece_lo[h])], at);
        const TermValue ty = evaluate(group_h.terms[static_cast<std::size_t>(piece_hi[h])], at);
        const double x = tx.value, y = ty.value;
        // The corner is known to a rounding of u, which moves the ratio of the two terms by
        // the difference of their log slopes times it: large near a pole (the HBM term's is
        // q / (q - N)).
        const double match = kCornerMatch + kCornerUlps * std::numeric_limits<double>::epsilon() *
                                                std::fabs(corner) *
                                                std::fabs(tx.d1 / x - ty.d1 / y);
        const bool meet = std::fabs(x - y) <= match * (x + y) &&
                          std::min(x, y) >= largest(group_h) * (1.0 - match);
        if (meet) {
          left[h] = piece_lo[h];
          right[h] = piece_hi[h];
        } else if (h == g) {
          is_corner = false;
        }
      }
      if (is_corner) {
        const Slope slope_left = slope_on(corner, left);
        const Slope slope_right = slope_on(corner, right);
        if (slope_left.d1 <= 0.0 && slope_right.d1 >= 0.0) {
          result = {true, corner, left, right, result.iterations};
          return result;
        }
        // The minimum is on one side: Newton's step from the corner on that side's piece.
        const Slope& side = slope_right.d1 < 0.0 ? slope_right : slope_left;
        if (slope_right.d1 < 0.0) {
          lo = corner;
          piece_lo = right;
        } else {
          hi = corner;
          piece_hi = left;
        }
        if (!(hi > lo)) return result;
        u = corner + newton_step(corner, side);
        if (!(u > lo && u < hi)) u = 0.5 * (lo + hi);
        continue;
      }
      u = corner > lo && corner < hi ? corner : 0.5 * (lo + hi);
    }
    PieceChoice here;
    const Slope s = slope_here(u, here);
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
    const double step = newton_step(u, s);
    const double tolerance = kStepTolerance * std::max(1.0, std::fabs(u));
    // Converged: Newton's last step is below the tolerance (taken, kept within the bracket)
    // where the slope is near zero too (a steep slope far from its root also makes a small
    // step), or the bracket is below the tolerance.
    const bool small_step = std::fabs(step) <= tolerance && std::fabs(s.d1) <= kSlopeTolerance;
    if (piece_lo == piece_hi && (small_step || hi - lo <= tolerance)) {
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
  return (!inference || p.inference.batch_at(params) <= kMaxServingBatch) &&
         (!rl || p.rl.batch_at(params) <= kMaxServingBatch);
}

// The maxima with weight: inference demand, and RL on rollout tokens.
std::array<bool, 4> relevant_maxima(const RooflinePricing& p, const LifetimeCostModel& model,
                                    CostUnit unit) {
  if (unit == CostUnit::flops) return {false, false, false, false};
  const bool rl = model.rl_tokens > 0.0;
  return {p.output_tokens > 0.0, p.input_tokens > 0.0, rl, rl && p.rl_extra_passes > 0.0};
}

}  // namespace

double corner_residual(double left, double right, double residual_left, double residual_right) {
  if (left <= 0.0 && right >= 0.0) return 0.0;
  return std::min(residual_left, residual_right);
}

NewtonPlan min_cost_at_loss_roofline(const LossLaw& law, double target_loss,
                                     const LifetimeCostModel& model, CostUnit unit) {
  return min_cost_at_loss_roofline(law, target_loss, model, unit, *model.closed_form());
}

NewtonPlan min_cost_at_loss_roofline(const LossLaw& law, double target_loss,
                                     const LifetimeCostModel& model, CostUnit unit,
                                     const RooflinePricing& pricing) {
  NewtonPlan plan;
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
  // Pretraining's shape along the constraint at u: p, r, s and P'' / P.
  struct Shape {
    double p, r, s, curvature;
  };
  auto shape_at = [&](double u) {
    const double p = law.A * std::exp(-a * u), r = R - p, s = a * p / (b * r);
    return Shape{p, r, s, (1.0 - s) * (1.0 - s) + a * a / b * p * R / (r * r)};
  };
  struct Along {
    double cost, slope, curvature, pretrain, tokens;
  };
  auto along_with = [&](double u, const Shape& shape, const ServingCost& g) {
    const double tokens = std::pow(law.B / shape.r, 1.0 / b);
    const double P = k * std::exp(u) * tokens;
    return Along{P + g.value, P * (1.0 - shape.s) + g.d1, P * shape.curvature + g.d2, P, tokens};
  };
  auto along = [&](double u, const PieceChoice& piece) {
    return along_with(u, shape_at(u), serving_cost(pricing, unit, rl_tokens, std::exp(u), piece));
  };
  // What Newton runs on. C' = g' - P (s - 1): the optimum is where serving's marginal cost g'
  // equals pretraining's marginal saving P (s - 1). Where both are positive, the difference of
  // their logarithms has C''s sign and is nearly linear in u (each side is close to a power of
  // N; P grows like a power of 1 / r as D nears its pole, which defeats Newton on C' itself):
  //   psi  = ln g' - ln P - ln(s - 1),  ln P = ln k + u + (ln B - ln r) / beta,
  //   psi' = g'' / g' + P'' / (P (s - 1)),  P'' / P = (1 - s)^2 + (alpha^2 / beta) p R / r^2,
  // with no power of D to compute. Elsewhere C' / C, from `along`.
  const double log_k = std::log(k), log_B = std::log(law.B);
  auto slope_of = [&](double u, const ServingCost& g) {
    const Shape shape = shape_at(u);
    const double excess = a * shape.p - b * shape.r;
    // Not near s = 1 (Chinchilla's N), where ln(s - 1) has a pole that makes psi steep: C' is
    // then ~g', and C' / C well behaved.
    if (g.d1 > 0.0 && excess > kLogFormMinimum * b * shape.r) {
      const double s_minus_one = excess / (b * shape.r);
      const double psi = std::log(g.d1 / s_minus_one) - log_k - u - (log_B - std::log(shape.r)) / b;
      return Slope{psi, g.d2 / g.d1 + shape.curvature / s_minus_one};
    }
    const Along at = along_with(u, shape, g);
    return Slope{at.slope / at.cost, at.curvature / at.cost};
  };
  auto slope_on = [&](double u, const PieceChoice& piece) {
    return slope_of(u, serving_cost(pricing, unit, rl_tokens, std::exp(u), piece));
  };
  auto slope_here = [&](double u, PieceChoice& piece) {
    return slope_of(u, serving_cost_at(pricing, unit, rl_tokens, std::exp(u), relevant, piece));
  };
  PieceChoice at_lo, at_hi;
  if (slope_here(lo, at_lo).d1 >= 0.0) {
    plan.use_general = true;  // at 1e30 tokens (or N = 1): the bounds of the general problem
    return plan;
  }
  ConvexMinimum minimum;
  if (slope_here(hi, at_hi).d1 <= 0.0) {
    if (hi != served) {
      plan.use_general = true;  // D at one token
      return plan;
    }
    minimum = {true, hi, at_hi, at_hi, 0};
  } else {
    // From Chinchilla's N for the target: serving costs only move the optimum down from it.
    minimum = convex_minimum(pricing, relevant, slope_on, slope_here, lo, hi, at_lo, at_hi,
                             chinchilla->log_params, log_min_params);
    if (!minimum.found) return plan;  // not converged
  }
  plan.iterations = minimum.iterations;
  const double u = minimum.u;
  plan.params = std::exp(u);
  const bool at_bound = u == served;
  const Along left = along(u, minimum.left);
  const Along right = minimum.right == minimum.left ? left : along(u, minimum.right);
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
  const double p = law.params_term(plan.params), r = R - p, s = a * p / (b * r);
  auto residual_of = [&](const Along& side) {
    // d cost / d ln N at fixed D: pretraining P plus the serving slope (side.slope less the
    // pretraining's part along the curve, P (1 - s)).
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
  plan.status = Status::converged;
  return plan;
}

NewtonPlan max_quality_at_budget_roofline(const LossLaw& law, const LifetimeCostModel& model,
                                          CostUnit unit, double budget, double min_params) {
  return max_quality_at_budget_roofline(law, model, unit, budget, min_params, *model.closed_form());
}

NewtonPlan max_quality_at_budget_roofline(const LossLaw& law, const LifetimeCostModel& model,
                                          CostUnit unit, double budget, double min_params,
                                          const RooflinePricing& pricing) {
  NewtonPlan plan;
  const double k = in_unit(unit, model.pretraining(1.0, 1.0));
  const double rl_tokens = model.rl_tokens;
  const std::array<bool, 4> relevant = relevant_maxima(pricing, model, unit);
  const double a = law.alpha, b = law.beta;
  auto serving = [&](double u, const PieceChoice& piece) {
    return serving_cost(pricing, unit, rl_tokens, std::exp(u), piece);
  };
  auto serving_at = [&](double u) {
    PieceChoice piece;
    return serving_cost_at(pricing, unit, rl_tokens, std::exp(u), relevant, piece);
  };
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
    // Where D reaches one token: serving and one token per parameter spend the budget. The
    // spend rises with N (costs rise with N), usually to a pole at the largest model served
    // (its weights fill HBM), where the root then lies within a few roundings. Newton runs on
    // ln(spend / budget) against w = -ln(served - u), the log of the distance to that end:
    // near the pole ln spend ~ w, far from it ~ u, nearly linear both ways (on u itself it took
    // ~18 steps to walk up to the pole; on w ~5).
    int iterations = 0;
    const double log_budget = std::log(budget);
    const double w = newton_root(
        [&](double w) {
          const double gap = std::exp(-w), u = served - gap;
          const ServingCost g = serving_at(u);
          const double one_token = k * std::exp(u), spend = g.value + one_token;
          return std::pair<double, double>(std::log(spend) - log_budget,
                                           (g.d1 + one_token) / spend * gap);
        },
        -std::log(0.5 * (served - lo)), -std::log(served - lo),
        -std::log(served * std::numeric_limits<double>::epsilon()), kRootDigits, iterations);
    hi = served - std::exp(-w);
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
  auto along_with = [&](double u, const ServingCost& g) {
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
  auto along = [&](double u, const PieceChoice& piece) { return along_with(u, serving(u, piece)); };
  // What Newton runs on: L' = beta q (-h') - alpha p, the data term's loss against the
  // parameters'. While D > 0 both are positive and the difference of their logarithms, nearly
  // linear in u, has L''s sign:
  //   psi  = ln(beta B / (alpha A)) - beta ln D + ln(-h') + alpha u,
  //   psi' = alpha - beta h' + h'' / h',
  // with no power of D to compute. Elsewhere L', from `along`.
  const double log_k = std::log(k), log_ratio = std::log(b * law.B / (a * law.A));
  auto slope_of = [&](double u, const ServingCost& g) {
    const double left = budget - g.value;
    if (left > 0.0) {
      const double h1 = -g.d1 / left - 1.0, h2 = -(g.d2 * left + g.d1 * g.d1) / (left * left);
      const double log_tokens = std::log(left) - log_k - u;
      return Slope{log_ratio - b * log_tokens + std::log(-h1) + a * u, a - b * h1 + h2 / h1};
    }
    const Along at = along_with(u, g);
    return Slope{at.slope, at.curvature};
  };
  auto slope_on = [&](double u, const PieceChoice& piece) {
    return slope_of(u, serving(u, piece));
  };
  auto slope_here = [&](double u, PieceChoice& piece) {
    return slope_of(u, serving_cost_at(pricing, unit, rl_tokens, std::exp(u), relevant, piece));
  };
  PieceChoice at_lo, at_hi;
  const ServingCost serving_lo =
      serving_cost_at(pricing, unit, rl_tokens, std::exp(lo), relevant, at_lo);
  const ServingCost serving_hi =
      serving_cost_at(pricing, unit, rl_tokens, std::exp(hi), relevant, at_hi);
  if (along_with(lo, serving_lo).tokens > std::exp(kLogUpperBound) ||
      along_with(hi, serving_hi).tokens > std::exp(kLogUpperBound)) {
    plan.use_general = true;  // 1e30 tokens: the bound of the general problem
    return plan;
  }
  ConvexMinimum minimum;
  if (slope_of(lo, serving_lo).d1 >= 0.0) {
    minimum = {true, lo, at_lo, at_lo, 0};
    plan.at_min_params = true;
  } else if (slope_of(hi, serving_hi).d1 <= 0.0) {
    if (hi != served) {
      plan.use_general = true;  // D at one token
      return plan;
    }
    minimum = {true, hi, at_hi, at_hi, 0};
  } else {
    // From the split Chinchilla's rule of thumb gives pretraining (half the budget at 20
    // tokens per parameter, as QualityAtBudgetProblem starts).
    minimum = convex_minimum(pricing, relevant, slope_on, slope_here, lo, hi, at_lo, at_hi,
                             0.5 * (std::log(budget) - std::log(40.0 * k)),
                             -std::numeric_limits<double>::infinity());
    if (!minimum.found) return plan;
  }
  plan.iterations = minimum.iterations;
  const double u = minimum.u;
  plan.params = plan.at_min_params ? min_params : std::exp(u);
  const Along left = along(u, minimum.left);
  const Along right = minimum.right == minimum.left ? left : along(u, minimum.right);
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
  plan.status = Status::converged;
  return plan;
}

}  // namespace scaleopt
