#include "scaleopt/problems/lifecycle/accelerators/replica_floor.hpp"

#include <cmath>

#include "scaleopt/problems/lifecycle/accelerators/roofline_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

NewtonPlan use_general() {
  NewtonPlan plan;
  plan.use_general = true;
  return plan;
}

// The two pieces' prices: serving by the closed form (g's piece) and RL alone (the floor's).
struct Pieces {
  const RooflinePricing& serving;
  RooflinePricing rl_alone;
  double floor_hours;
  double floor_in_unit;
};

Pieces pieces_of(const LifetimeCostModel& model, CostUnit unit, double floor_chip_hours) {
  const RooflinePricing& pricing = *model.closed_form();
  const double price = unit == CostUnit::usd ? pricing.usd_per_chip_hour : 1.0;
  return {pricing, rl_alone(pricing), floor_chip_hours, floor_chip_hours * price};
}

// g(N): the closed form's serving chip-hours.
double serving_hours(const LifetimeCostModel& model, double params) {
  return roofline_lifetime_cost(model, params, 0.0).inference.gpu_hours;
}

// Whether the floor binds at N: g(N) < K.
bool floor_binds(const LifetimeCostModel& model, const Pieces& pieces, double params) {
  return serving_hours(model, params) < pieces.floor_hours;
}

// The kink between ln N_a and ln N_b: g = K, by TOMS 748 on ln(g / K) in ln N.
RootResult kink_between(const LifetimeCostModel& model, const Pieces& pieces, double params_a,
                        double params_b) {
  return find_root_in_bracket(
      [&](double u) { return std::log(serving_hours(model, std::exp(u)) / pieces.floor_hours); },
      std::log(params_a), std::log(params_b));
}

// Serving on each side of the kink in `unit`, with its slope in ln N: the floor's side pays K
// and RL, g's side the closed form.
struct Sides {
  ServingCost left, right;
};
Sides sides_at(const Pieces& pieces, CostUnit unit, double rl_tokens, double params) {
  ServingCost left =
      serving_cost(pieces.rl_alone, unit, rl_tokens, params, piece_at(pieces.rl_alone, params));
  left.value += pieces.floor_in_unit;
  const ServingCost right =
      serving_cost(pieces.serving, unit, rl_tokens, params, piece_at(pieces.serving, params));
  return {left, right};
}

}  // namespace

RooflinePricing rl_alone(const RooflinePricing& pricing) {
  RooflinePricing alone = pricing;
  alone.input_tokens = 0.0;
  alone.output_tokens = 0.0;
  return alone;
}

LifetimeCost floored_lifetime_cost(const LifetimeCostModel& model, double params,
                                   double pretrain_tokens, double floor_chip_hours) {
  LifetimeCost cost = roofline_lifetime_cost(model, params, pretrain_tokens);
  if (cost.inference.gpu_hours < floor_chip_hours) {
    cost.inference.gpu_hours = floor_chip_hours;
    cost.inference.usd = floor_chip_hours * model.closed_form()->usd_per_chip_hour;
  }
  return cost;
}

NewtonPlan min_cost_at_loss_floored(const LossLaw& law, double target_loss,
                                    const LifetimeCostModel& model, CostUnit unit,
                                    double floor_chip_hours, const NewtonPlan& unfloored) {
  if (unit == CostUnit::flops || unfloored.status != Status::converged) return use_general();
  const Pieces pieces = pieces_of(model, unit, floor_chip_hours);
  if (!floor_binds(model, pieces, unfloored.params)) return use_general();
  const NewtonPlan floor_piece =
      min_cost_at_loss_roofline(law, target_loss, model, unit, pieces.rl_alone);
  if (floor_piece.status != Status::converged || floor_piece.use_general) return floor_piece;
  // The floor's minimum stands where the floor still binds (its KKT residual is the piece's:
  // the constant K moves no gradient).
  if (serving_hours(model, floor_piece.params) <= pieces.floor_hours) return floor_piece;
  const RootResult kink = kink_between(model, pieces, unfloored.params, floor_piece.params);
  if (kink.status != Status::converged) return use_general();
  NewtonPlan plan;
  plan.iterations =
      unfloored.iterations + floor_piece.iterations + static_cast<int>(kink.iterations);
  const double u = kink.x, n = std::exp(u);
  const double R = target_loss - law.E, a = law.alpha, b = law.beta;
  const double p = law.params_term(n), r = R - p, s = a * p / (b * r);
  plan.params = n;
  plan.pretrain_tokens = std::pow(law.B / r, 1.0 / b);
  if (!within_general_bounds(plan.params, plan.pretrain_tokens)) return use_general();
  const LossInLogSpace l = loss_in_log_space(law, u, std::log(plan.pretrain_tokens));
  plan.constraint_violation = std::fabs(l.loss - target_loss) / R;
  // Pretraining P = k N D; along the loss d P / du = P (1 - s). Each side's gradient of the cost
  // in (ln N, ln D) at fixed D, against the loss's.
  const double P = in_unit(unit, model.pretraining(n, plan.pretrain_tokens));
  const Sides sides = sides_at(pieces, unit, model.rl_tokens, n);
  const double c[2] = {l.d_log_params / R, l.d_log_tokens / R};
  auto residual_of = [&](const ServingCost& side) {
    const double cost = P + side.value;
    const double g[2] = {(P + side.d1) / cost, P / cost};
    return kkt_residual_2d(g, c, false);
  };
  plan.kkt_residual = corner_residual(P * (1.0 - s) + sides.left.d1, P * (1.0 - s) + sides.right.d1,
                                      residual_of(sides.left), residual_of(sides.right));
  plan.status = Status::converged;
  return plan;
}

NewtonPlan max_quality_at_budget_floored(const LossLaw& law, const LifetimeCostModel& model,
                                         CostUnit unit, double budget, double min_params,
                                         double floor_chip_hours, const NewtonPlan& unfloored) {
  if (unit == CostUnit::flops || unfloored.status != Status::converged) return use_general();
  const Pieces pieces = pieces_of(model, unit, floor_chip_hours);
  if (!floor_binds(model, pieces, unfloored.params)) return use_general();
  NewtonPlan plan;
  if (!(budget > pieces.floor_in_unit)) {
    plan.status = Status::infeasible;  // one replica for the duration spends the budget
    return plan;
  }
  const NewtonPlan floor_piece = max_quality_at_budget_roofline(
      law, model, unit, budget - pieces.floor_in_unit, min_params, pieces.rl_alone);
  if (floor_piece.status != Status::converged || floor_piece.use_general) return floor_piece;
  if (serving_hours(model, floor_piece.params) <= pieces.floor_hours) return floor_piece;
  const RootResult kink = kink_between(model, pieces, unfloored.params, floor_piece.params);
  if (kink.status != Status::converged) return use_general();
  plan.iterations =
      unfloored.iterations + floor_piece.iterations + static_cast<int>(kink.iterations);
  const double n = std::exp(kink.x);
  const Sides sides = sides_at(pieces, unit, model.rl_tokens, n);
  // The budget left after serving (the two sides agree at the kink; the floor's is the exact
  // one there: K plus RL) buys D = left / (k N).
  const double k = in_unit(unit, model.pretraining(1.0, 1.0));
  const double left = budget - sides.left.value;
  plan.params = n;
  plan.pretrain_tokens = left / (k * n);
  if (!(left > 0.0) || !within_general_bounds(plan.params, plan.pretrain_tokens)) {
    return use_general();
  }
  const double a = law.alpha, b = law.beta;
  const double p = law.params_term(n), q = law.data_term(plan.pretrain_tokens);
  const double pretrain = k * n * plan.pretrain_tokens, spend = pretrain + sides.left.value;
  plan.constraint_violation = std::max(0.0, std::log(spend / budget));
  // dL/du along the budget: -alpha p - beta q h', h' = -S' / left - 1 with S' each side's
  // serving slope; the residual of the loss's gradient against the budget's.
  auto slope_of = [&](const ServingCost& side) { return -a * p - b * q * (-side.d1 / left - 1.0); };
  auto residual_of = [&](const ServingCost& side) {
    const double g[2] = {-a * p, -b * q};
    const double budget_gradient[2] = {(pretrain + side.d1) / spend, pretrain / spend};
    return kkt_residual_2d(g, budget_gradient, true);
  };
  plan.kkt_residual = corner_residual(slope_of(sides.left), slope_of(sides.right),
                                      residual_of(sides.left), residual_of(sides.right));
  plan.status = Status::converged;
  return plan;
}

}  // namespace scaleopt
