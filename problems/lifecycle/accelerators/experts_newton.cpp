#include "scaleopt/problems/lifecycle/accelerators/experts_newton.hpp"

#include <algorithm>
#include <array>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"

namespace scaleopt {

double kkt_residual_3d(const double g[3], const double c[3], bool one_sided, int bound) {
  // ln m drops out of the multiplier when on its bound.
  KktBalance balance = kkt_balance({g, 3}, {c, 3}, bound == 0 ? 3 : 2, one_sided);
  if (bound != 0) {
    // At the upper bound the Lagrangian's slope in ln m must be <= 0 (the bound's multiplier
    // takes it), at the lower >= 0.
    const double slope = g[2] + balance.multiplier * c[2];
    if (bound * slope > 0.0) balance.imbalance = std::max(balance.imbalance, std::fabs(slope));
  }
  return balance.residual();
}

namespace {

constexpr int kGridPoints = 9;  // as the reference over E (experts_solve.cpp)
constexpr double kNoPlan = std::numeric_limits<double>::infinity();
// |h| / max(|dL/d ln N|, |dL/d ln D|) taken as a root: two orders inside the KKT check's 1e-7,
// and ln E then within ~1e-9 / (h' / scale) of the profile's least (h' / scale ~ 0.5 for the
// preset), its objective within ~1e-18.
constexpr double kRootSlope = 1e-9;

// One point of the profile: the fixed-E plan, its objective and h = dL/d ln E there.
struct ProfilePoint {
  double log_experts = 0.0;
  double experts = 1.0;
  double objective = kNoPlan;  // +infinity: no plan at this E
  double slope = 0.0;          // h
  double slope_scale = 0.0;    // max(|dL/d ln N|, |dL/d ln D|): what h is small against
  NewtonPlan plan;
};

// The search over ln E for either question. `inner(law, start_log_tokens)` solves the fixed-E
// reduction (from a nearby ln D); `objective(law, plan)` is what it minimises; `verify(point,
// expansion, bound, plan)` sets the plan's KKT residual in three variables (bound: -1 / +1 the
// lower / upper bound on E active, 0 none, 2 both: E fixed).
template <class Inner, class Objective, class Verify>
ExpertsNewtonPlan choose_experts(const LossLaw& law, const ExpertChoice& choice, Inner inner,
                                 Objective objective, Verify verify) {
  ExpertsNewtonPlan result;
  const JointLossLaw& joint = *law.joint;
  LossLaw at = law;  // reduced in place at each E
  int iterations = 0;
  bool declined = false, infeasible_seen = false, feasible_seen = false;
  // ln D of the last plan found: the next E's Newton starts there (the grid's neighbour, the
  // root search's previous iterate).
  double last_log_tokens = std::numeric_limits<double>::quiet_NaN();
  // `experts` is e^log_experts, or a bound itself (so that an answer there is on it exactly).
  auto evaluate = [&](double log_experts, double experts) {
    ProfilePoint point;
    point.log_experts = log_experts;
    point.experts = experts;
    ++result.reductions;
    try {
      set_coefficients_at_experts(at, joint, experts);
    } catch (const InputError&) {
      infeasible_seen = true;  // the law's exponents leave the domain at this E: no plan
      return point;
    }
    point.plan = inner(at, last_log_tokens);
    iterations += point.plan.iterations;
    if (point.plan.status == Status::infeasible) {
      infeasible_seen = true;
      return point;
    }
    if (point.plan.status != Status::converged || point.plan.use_general) {
      declined = true;
      return point;
    }
    feasible_seen = true;
    last_log_tokens = std::log(point.plan.pretrain_tokens);
    point.objective = objective(at, point.plan);
    const JointLossInLogSpace l = joint_loss_in_log_space(
        joint, std::log(point.plan.params), std::log(point.plan.pretrain_tokens), log_experts);
    point.slope = l.d_log_experts;
    point.slope_scale = std::max(std::fabs(l.d_log_params), std::fabs(l.d_log_tokens));
    return point;
  };
  auto decline = [&]() {
    result.plan = NewtonPlan{};
    result.plan.use_general = true;
    result.plan.iterations = iterations;
    return result;
  };
  auto answer = [&](const ProfilePoint& point, int bound) {
    result.plan = point.plan;
    result.plan.iterations = iterations;
    result.experts = point.experts;
    result.expansion = choice.expansion(result.experts);
    verify(point, result.expansion, bound, result.plan);
    return result;
  };

  const double lo = std::log(choice.min_experts), hi = std::log(choice.max_experts);
  if (!(hi > lo)) {
    const ProfilePoint point = evaluate(lo, choice.min_experts);
    if (declined) return decline();
    if (!feasible_seen) {
      result.plan.status = Status::infeasible;
      return result;
    }
    return answer(point, 2);  // E fixed: both bounds active, ln m drops out
  }
  std::array<ProfilePoint, kGridPoints> grid;
  int best = -1;
  for (int k = 0; k < kGridPoints; ++k) {
    const double x = lo + (hi - lo) * k / (kGridPoints - 1);
    grid[k] = evaluate(x, k == 0                 ? choice.min_experts
                          : k == kGridPoints - 1 ? choice.max_experts
                                                 : std::exp(x));
    if (declined) return decline();
    if (grid[k].objective < kNoPlan && (best < 0 || grid[k].objective < grid[best].objective)) {
      best = k;
    }
  }
  if (best < 0) {
    result.plan.status = Status::infeasible;
    return result;
  }
  // A profile with a hole (no plan at some E, a plan at others) is NLopt's to answer.
  if (infeasible_seen) return decline();
  const ProfilePoint& b = grid[best];
  if (b.slope == 0.0) return answer(b, 0);
  if (best == kGridPoints - 1 && b.slope < 0.0) return answer(b, 1);
  if (best == 0 && b.slope > 0.0) return answer(b, -1);
  const int other = b.slope > 0.0 ? best - 1 : best + 1;
  const ProfilePoint& o = grid[other];
  // h must change sign between the best point and its neighbour on the falling side.
  if (!(o.slope * b.slope < 0.0)) return decline();
  const double left = std::min(b.log_experts, o.log_experts);
  const double right = std::max(b.log_experts, o.log_experts);
  const double h_left = other < best ? o.slope : b.slope;
  const double h_right = other < best ? b.slope : o.slope;
  // The point of smallest |h| the root search evaluated is the answer: no solve again at the
  // bracket's middle.
  ProfilePoint root;
  double smallest_slope = std::numeric_limits<double>::infinity();
  auto h = [&](double log_experts) {
    const ProfilePoint point = evaluate(log_experts, std::exp(log_experts));
    // A point the reduction cannot answer ends the search (declined below).
    if (!(point.objective < kNoPlan)) return std::numeric_limits<double>::quiet_NaN();
    if (std::fabs(point.slope) < smallest_slope)
      smallest_slope = std::fabs(point.slope), root = point;
    // h this small is a root for every purpose (kRootSlope): 0 ends TOMS748 here, where its
    // bracket, shrinking from one side, would take two or three more solves.
    if (std::fabs(point.slope) <= kRootSlope * point.slope_scale) return 0.0;
    return point.slope;
  };
  // ln E to ~2^-32 relative (~1e-9 absolute): h is then zero to ~h' 1e-9, inside the KKT
  // tolerance (1e-7), and the objective within ~f'' 1e-18 of the profile's least.
  std::uintmax_t steps = 40;
  try {
    boost::math::tools::toms748_solve(h, left, right, h_left, h_right,
                                      boost::math::tools::eps_tolerance<double>(32), steps);
  } catch (const std::exception&) {
    return decline();  // a NaN step (Boost's evaluation_error) or no sign change
  }
  if (declined || steps >= 40 || !(root.objective < kNoPlan)) return decline();
  // The root is a minimum of the profile, at most the grid's best (to rounding).
  if (root.objective > b.objective + 1e-12 * (1.0 + std::fabs(b.objective))) return decline();
  return answer(root, 0);
}

}  // namespace

ExpertsNewtonPlan min_cost_at_loss_choosing_experts(const LossLaw& law, const ExpertChoice& choice,
                                                    double target_loss, const LinearCost& cost) {
  const JointLossLaw& joint = *law.joint;
  auto inner = [&](const LossLaw& at, double start_log_tokens) {
    return min_cost_at_loss_newton(at, target_loss, cost, start_log_tokens);
  };
  auto objective = [&](const LossLaw&, const NewtonPlan& plan) {
    return std::log((cost.per_param_token * plan.pretrain_tokens + cost.per_param) * plan.params);
  };
  auto verify = [&](const ProfilePoint& point, double expansion, int bound, NewtonPlan& plan) {
    // ln cost against (L - L*) / R, as min_cost_at_loss_newton checks it, with ln m.
    const double R = target_loss - joint.E;
    const JointLossInLogSpace l = joint_loss_in_log_space(
        joint, std::log(plan.params), std::log(plan.pretrain_tokens), point.log_experts);
    const double pretrain = cost.per_param_token * plan.pretrain_tokens;
    const double g[3] = {1.0, pretrain / (pretrain + cost.per_param), 0.0};
    const double c[3] = {l.d_log_params / R, l.d_log_tokens / R,
                         l.d_log_experts * choice.log_experts_slope(expansion) / R};
    plan.constraint_violation = std::fabs(l.loss - target_loss) / R;
    plan.kkt_residual =
        bound == 2 ? kkt_residual_2d(g, c, false) : kkt_residual_3d(g, c, false, bound);
  };
  return choose_experts(law, choice, inner, objective, verify);
}

ExpertsNewtonPlan max_quality_choosing_experts(const LossLaw& law, const ExpertChoice& choice,
                                               const LinearCost& cost, double budget,
                                               double min_params) {
  const JointLossLaw& joint = *law.joint;
  auto inner = [&](const LossLaw& at, double start_log_tokens) {
    NewtonPlan plan = max_quality_at_budget_newton(at, cost, budget, min_params, start_log_tokens);
    // The smallest model considered: a second active bound, NLopt's to answer.
    if (plan.status == Status::converged && plan.at_min_params) plan.use_general = true;
    return plan;
  };
  auto objective = [&](const LossLaw& at, const NewtonPlan& plan) {
    return at.loss(plan.params, plan.pretrain_tokens);
  };
  auto verify = [&](const ProfilePoint& point, double expansion, int bound, NewtonPlan& plan) {
    // The loss against ln spend - ln budget, as max_quality_at_budget_newton checks it, with
    // ln m.
    const JointLossInLogSpace l = joint_loss_in_log_space(
        joint, std::log(plan.params), std::log(plan.pretrain_tokens), point.log_experts);
    const double k = cost.per_param_token;
    const double share = k * plan.pretrain_tokens / (k * plan.pretrain_tokens + cost.per_param);
    const double g[3] = {l.d_log_params, l.d_log_tokens,
                         l.d_log_experts * choice.log_experts_slope(expansion)};
    const double c[3] = {1.0, share, 0.0};
    plan.kkt_residual =
        bound == 2 ? kkt_residual_2d(g, c, true) : kkt_residual_3d(g, c, true, bound);
  };
  return choose_experts(law, choice, inner, objective, verify);
}

}  // namespace scaleopt
