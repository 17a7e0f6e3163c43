#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/costmodel/law_reach.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifecycle/accelerators/closed_form_fleet.hpp"
#include "scaleopt/problems/lifecycle/accelerators/experts_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/replica_floor.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/lifecycle/discrete_choice.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/lifecycle/fast_path.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/answer_fields.hpp"
#include "scaleopt/problems/question/question_replica_choice.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"

namespace scaleopt {
namespace {

// The equal-quality Chinchilla-style model (N, D) for `loss`; NaN when there is none within
// 1e30 (as optimal_for_loss, which the NLopt path uses).
ParamsTokens<double> equal_quality_model(const AllocationRule& rule, double loss) {
  const LossLaw& law = rule.law;
  ParamsTokens<double> model{std::nan(""), std::nan("")};
  if (!(loss > law.E)) return model;
  if (rule.tokens_per_param) {
    const double params = params_on_ray_for_loss(law, *rule.tokens_per_param, loss);
    model = {params, *rule.tokens_per_param * params};
  } else {
    const auto c = coefficients_of<double>(law);
    model = compute_optimal_allocation(c, compute_for_loss(c, loss));
  }
  if (!(model.params < 1e30 && model.tokens < 1e30)) model = {std::nan(""), std::nan("")};
  return model;
}

// The lifetime cost of (N, D): the roofline's closed form when the model has one and it is
// exact at N (the functions of N it stands for solve the serving plan by root finding, ~20x
// slower; where one replica's floor binds the closed form is only a lower bound).
// With a replica given, the fleet's cost is the closed form's floored by one replica wherever
// the replica serves N (no plan to make, the fleet planned nowhere).
LifetimeCost cost_of(const LifetimeCostModel& model, double params, double tokens) {
  const RooflinePricing* form = model.closed_form();
  if (form != nullptr && model.replica_floor_chip_hours > 0.0 && form->inference.serves(params) &&
      (model.rl_tokens == 0.0 || form->rl.serves(params))) {
    return floored_lifetime_cost(model, params, tokens, model.replica_floor_chip_hours);
  }
  return form && model.closed_form_exact_at(params) ? roofline_lifetime_cost(model, params, tokens)
                                                    : model.cost(params, tokens);
}

// An answer's N with the fleet that serves it, planned once (in closed form where the replica is
// given and more than one serves the peak): the fleet decides whether the closed form is exact
// there and gives the answer's replica figures.
struct FleetAt {
  double params = 0.0;
  std::optional<FleetPlan> fleet;  // nullopt: no fleet is planned (or none serves N)
  bool closed_form_exact = true;
};

FleetAt fleet_with_exactness(const QuestionSetup& setup, double params) {
  FleetAt at;
  at.params = params;
  // A given replica above one replica's floor: the fleet in closed form, as plan_fleet gives it,
  // and so the closed form's cost, exact.
  if (is_priced(setup.kind)) at.fleet = closed_form_fleet(setup.model, params);
  if (at.fleet) return at;
  at.fleet = fleet_at(setup, params);
  const LifetimeCostModel& model = setup.model;
  if (model.closed_form_lower_bound) {
    at.closed_form_exact = at.fleet ? model.closed_form_exact_given(params, *at.fleet)
                                    : model.closed_form_exact_at(params);
  }
  return at;
}

// The same with the fleet at N planned already: where the closed form is only a lower bound
// there (one replica's floor binds, or a chosen size above the cheapest per token), serving is
// the fleet's own bill and the rest the closed form's, as exact as where it is exact.
LifetimeCost cost_of(const LifetimeCostModel& model, const FleetAt& at, double tokens) {
  if (!model.closed_form()) return model.cost(at.params, tokens);
  LifetimeCost cost = roofline_lifetime_cost(model, at.params, tokens);
  if (at.closed_form_exact) return cost;
  if (!at.fleet || at.fleet->plan.status != Status::converged) return model.cost(at.params, tokens);
  cost.inference.gpu_hours = at.fleet->chip_hours;
  cost.inference.usd = at.fleet->usd;
  return cost;
}

AnswerSummary light_answer(const QuestionSetup& setup, const NewtonPlan& plan, SolvePath path,
                           const FleetAt& at) {
  AnswerSummary a;
  a.status = plan.status;
  a.path = path;
  a.rl_tokens = setup.model.rl_tokens;
  a.inference_tokens = setup.inference_tokens;
  if (plan.status != Status::converged) return a;
  const double n = plan.params, d = plan.pretrain_tokens;
  a.active_params = n;
  a.params = n * setup.total_to_active;
  a.pretrain_tokens = d;
  a.loss = setup.law().loss(n, d);
  a.cost = cost_of(setup.model, at, d);
  a.shares = cost_shares(a.cost, setup.unit);
  a.chinchilla_tokens = rule_tokens(setup.rule, n);
  a.over_chinchilla = d / a.chinchilla_tokens;
  const ParamsTokens<double> chinchilla = equal_quality_model(setup.rule, a.loss);
  // As compare_with_chinchilla: no comparison with a model larger than the setup serves.
  if (std::isfinite(chinchilla.params) && chinchilla.params <= setup.model.max_params) {
    a.chinchilla_params = chinchilla.params;
    a.chinchilla_pretrain_tokens = chinchilla.tokens;
    a.vs_params = n / chinchilla.params;
    a.vs_tokens = d / chinchilla.tokens;
    a.vs_cost =
        in_unit(setup.unit, a.cost.total()) /
        in_unit(setup.unit, cost_of(setup.model, chinchilla.params, chinchilla.tokens).total());
  }
  const TrainingRunAnswer run = training_run_at(a.cost.pretrain.flops, setup);
  a.training_chips = run.chips;
  a.training_days = run.days;
  const PowerAnswer power =
      power_answer(a.cost, true, run.chips, setup.power, is_priced(setup.kind));
  a.training_power_mw = power.training_mw;
  a.serving_power_mw = power.serving_mw;
  a.energy_mwh = power.energy_mwh;
  a.energy_usd = power.energy_usd;
  a.power_max_chips = power.max_chips;
  a.law_extrapolation = law_extrapolation(setup.law(), n, d, n * setup.total_to_active);
  set_fleet_figures(a, at.fleet);
  a.kkt_residual = plan.kkt_residual;
  a.constraint_violation = plan.constraint_violation;
  return a;
}

AnswerSummary light_answer(const QuestionSetup& setup, const NewtonPlan& plan, SolvePath path) {
  return light_answer(setup, plan, path, fleet_with_exactness(setup, plan.params));
}

// The accelerator's plan for the setup's optimum, the fleet at it, and what the solve message
// adds (a floor that binds, the sizes a chosen replica took).
struct FastOptimum {
  NewtonPlan plan;
  FleetAt at;
  std::string note;
};

std::optional<FastOptimum> fast_plan(const QuestionSetup& setup, const SolverOptions& options);

// One replica's chip-hours over the serving duration when the setup's fleet pays for them: a
// replica given, roofline-priced, with a duration and not elastic (the closed form is then a
// lower bound).
std::optional<double> floor_chip_hours(const QuestionSetup& setup) {
  if (!(setup.model.replica_floor_chip_hours > 0.0)) return std::nullopt;
  return setup.model.replica_floor_chip_hours;
}

// Whether the fleet at N pays what the floored form says: the larger of the floor and the
// closed form's chip-hours (to 1e-9, as closed_form_exact_given).
bool floored_form_exact(const QuestionSetup& setup, const FleetAt& at, double floor_hours) {
  if (!at.fleet || at.fleet->plan.status != Status::converged) return false;
  const double closed = std::max(
      floor_hours, roofline_lifetime_cost(setup.model, at.params, 0.0).inference.gpu_hours);
  return std::fabs(at.fleet->chip_hours - closed) <= 1e-9 * closed;
}

// A replica given whose floor binds at the closed form's optimum `unfloored`: the floored
// problem's answer (problems/lifecycle/accelerators/replica_floor.hpp), held to the fleet.
std::optional<FastOptimum> floored_optimum(const QuestionSetup& setup, const SolverOptions& options,
                                           double floor_hours, const NewtonPlan& unfloored) {
  const LossLaw& law = setup.law();
  NewtonPlan plan = minimises_loss(setup.kind)
                        ? max_quality_at_budget_floored(law, setup.model, setup.unit, setup.budget,
                                                        setup.min_params, floor_hours, unfloored)
                        : min_cost_at_loss_floored(law, setup.target_loss, setup.model, setup.unit,
                                                   floor_hours, unfloored);
  accept_if_verified(plan, options);
  if (plan.use_general || plan.status == Status::not_converged) return std::nullopt;
  FastOptimum optimum{plan,
                      {},
                      "; one replica's floor binds (the fleet is paid for a replica "
                      "all the serving time)"};
  if (plan.status == Status::converged) {
    optimum.at = fleet_with_exactness(setup, plan.params);
    if (!floored_form_exact(setup, optimum.at, floor_hours)) return std::nullopt;
  }
  return optimum;
}

// What the question minimises at a converged plan of `setup`: the cost in its unit or the loss.
double objective_of(const QuestionSetup& setup, const FastOptimum& optimum) {
  const double n = optimum.plan.params, d = optimum.plan.pretrain_tokens;
  if (minimises_loss(setup.kind)) return setup.law().loss(n, d);
  return in_unit(setup.unit, cost_of(setup.model, optimum.at, d).total());
}

// The objective of a plan of the chosen replica's own closed form (the largest size's, the
// cheapest per token) with serving paid at least `floor_hours`: the cost in the unit, or the
// loss.
double floored_objective(const QuestionSetup& setup, const NewtonPlan& plan, double floor_hours) {
  const double n = plan.params, d = plan.pretrain_tokens;
  if (minimises_loss(setup.kind)) return setup.law().loss(n, d);
  return in_unit(setup.unit, floored_lifetime_cost(setup.model, n, d, floor_hours).total());
}

// A chosen replica whose floor binds at the closed form's optimum `unfloored`: every whole-node
// size given in turn (setup_at_replica_size) and answered by the fast path, the best kept as
// solve_question_plan keeps NLopt's (ties to 1e-9 to the smallest). Sizes go in ascending
// order, and a size's answer is bounded below by the floored problem on the question's own
// closed form with that size's floor (no size serves a token cheaper than the largest; the
// floor rises with the size): once that bound reaches the best so far, neither this size nor
// any larger one can win. Any size the fast path declines sends the question to NLopt.
std::optional<FastOptimum> best_size_optimum(const QuestionSetup& setup,
                                             const SolverOptions& options,
                                             const NewtonPlan& unfloored) {
  const LifetimeInputs& inputs = setup.model.fleet->inputs();
  if (!inputs.demand.duration_seconds || setup.unit == CostUnit::flops) return std::nullopt;
  const double seconds = *inputs.demand.duration_seconds;
  const double unfloored_serving_hours =
      roofline_lifetime_cost(setup.model, unfloored.params, 0.0).inference.gpu_hours;
  // The lower bound of a size's objective; nullopt where none is verified (then it is solved).
  auto lower_bound = [&](double floor_hours) -> std::optional<double> {
    if (unfloored_serving_hours >= floor_hours) return floored_objective(setup, unfloored, 0.0);
    const LossLaw& law = setup.law();
    NewtonPlan bound =
        minimises_loss(setup.kind)
            ? max_quality_at_budget_floored(law, setup.model, setup.unit, setup.budget,
                                            setup.min_params, floor_hours, unfloored)
            : min_cost_at_loss_floored(law, setup.target_loss, setup.model, setup.unit, floor_hours,
                                       unfloored);
    accept_if_verified(bound, options);
    if (bound.status == Status::infeasible) return std::numeric_limits<double>::infinity();
    if (bound.status != Status::converged) return std::nullopt;
    return floored_objective(setup, bound, floor_hours);
  };
  const double tie = DiscreteChoiceOptions{}.tie_relative;
  const std::vector<double> sizes = whole_node_replica_sizes(inputs.serving);
  std::optional<FastOptimum> best;
  double best_objective = 0.0, best_chips = 0.0;
  std::size_t solved = 0;
  for (const double chips : sizes) {
    if (best) {
      const std::optional<double> bound = lower_bound(chips * seconds / kSecondsPerHour);
      if (bound && *bound >= best_objective - tie * std::fabs(best_objective)) break;
    }
    const std::optional<QuestionSetup> at_size = setup_at_replica_size(setup, chips);
    if (!at_size) continue;  // its HBM holds no model with one sequence
    const std::optional<FastOptimum> sized = fast_plan(*at_size, options);
    ++solved;
    if (!sized) return std::nullopt;
    if (sized->plan.status != Status::converged) continue;  // infeasible at this size
    const double objective = objective_of(*at_size, *sized);
    if (!best || objective < best_objective - tie * std::fabs(best_objective)) {
      best = *sized;
      best_objective = objective;
      best_chips = chips;
    }
  }
  if (!best) return std::nullopt;  // no size answers: NLopt says why
  FastOptimum optimum = *best;
  // The answer's fleet is the question's: its choice at N must be the size that won.
  optimum.at = fleet_with_exactness(setup, optimum.plan.params);
  if (!optimum.at.fleet || optimum.at.fleet->replica_chips != best_chips) return std::nullopt;
  optimum.note = "; replica chosen among " + std::to_string(sizes.size()) +
                 " whole-node sizes (one replica's floor binds; " + std::to_string(solved) +
                 " solved by the fast path, the rest bounded out)";
  return optimum;
}

// The accelerator's plan for the setup's optimum, or nullopt when NLopt must answer.
std::optional<FastOptimum> fast_plan(const QuestionSetup& setup, const SolverOptions& options) {
  const Accelerator accelerator = setup.fast_path().accelerator;
  if (accelerator == Accelerator::none) return std::nullopt;
  const bool roofline = accelerator == Accelerator::roofline_newton;
  const std::optional<LinearCost> cost = setup.model.linear(setup.unit);
  const LossLaw& law = setup.law();
  NewtonPlan plan;
  switch (setup.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
    case ProblemKind::equal_cost:
      plan = roofline ? min_cost_at_loss_roofline(law, setup.target_loss, setup.model, setup.unit)
                      : min_cost_at_loss_newton(law, setup.target_loss, *cost);
      break;
    case ProblemKind::max_quality:
      plan = roofline ? max_quality_at_budget_roofline(law, setup.model, setup.unit, setup.budget,
                                                       setup.min_params)
                      : max_quality_at_budget_newton(law, *cost, setup.budget, setup.min_params);
      break;
    case ProblemKind::best_at_pretraining_budget:
      return std::nullopt;  // its budget caps the FLOPs: fast_path() said none above
  }
  // NLopt answers what the fast path cannot verify (and the roofline's, when Newton stalls).
  accept_if_verified(plan, options);
  if (plan.use_general || (roofline && plan.status == Status::not_converged)) return std::nullopt;
  // The closed form minimised a lower bound of the fleet's cost (no floor of one replica): its
  // optimum is the fleet's only where the two agree (problems/serving/fleet_plan.hpp). Where
  // one replica's floor binds, the floored problem answers, for the given replica or for each
  // size of a chosen one.
  FastOptimum optimum{plan, {}, {}};
  if (plan.status == Status::converged) {
    optimum.at = fleet_with_exactness(setup, plan.params);
    if (roofline && !optimum.at.closed_form_exact) {
      if (chooses_replica(setup)) return best_size_optimum(setup, options, plan);
      const std::optional<double> floor = floor_chip_hours(setup);
      if (!floor || !optimum.at.fleet || !optimum.at.fleet->demand_bound) return std::nullopt;
      return floored_optimum(setup, options, *floor, plan);
    }
  }
  return optimum;
}

// The full plan of an accelerator's answer: costs, loss, and how it was found.
LifetimePlan full_plan(const QuestionSetup& setup, const NewtonPlan& newton,
                       const std::string& note) {
  LifetimePlan plan;
  plan.unit = setup.unit;
  plan.rl_tokens = setup.model.rl_tokens;
  plan.solve.status = newton.status;
  plan.solve.algorithm = std::string(algorithm_name(SolvePath::newton, ""));
  plan.reference_message =
      "the fast path's answer is verified by its KKT check, not cross-checked (--method nlopt "
      "cross-checks it against the 1-D reduction)";
  if (newton.status == Status::infeasible) {
    plan.solve.message =
        "infeasible: no plan reaches the target or fits the budget (--method "
        "nlopt says why)";
    plan.loss = setup.law().E;
    return plan;
  }
  if (newton.status != Status::converged) {
    plan.solve.message = "1-D Newton did not converge";
    return plan;
  }
  plan.params = newton.params;
  plan.pretrain_tokens = newton.pretrain_tokens;
  plan.loss = setup.law().loss(newton.params, newton.pretrain_tokens);
  plan.cost = cost_of(setup.model, newton.params, newton.pretrain_tokens);
  plan.solve.x = {std::log(newton.params), std::log(newton.pretrain_tokens)};
  plan.solve.evaluations = newton.iterations;
  plan.solve.kkt_residual = newton.kkt_residual;
  plan.solve.constraint_violation = newton.constraint_violation;
  std::ostringstream message;
  message.precision(2);
  message << "converged (1-D Newton on the reduction, " << newton.iterations
          << " iterations; KKT residual " << newton.kkt_residual << ", constraint violation "
          << newton.constraint_violation << ")" << note;
  plan.solve.message = message.str();
  return plan;
}

// The full answer of a plan, set beside the equal-quality Chinchilla-style model by closed forms
// (as light_answer), so that `solve` on the fast path gives the numbers sweeps give.
QuestionAnswer full_answer(const QuestionSetup& setup, const LifetimePlan& plan) {
  QuestionAnswer answer = answer_sizes(plan, setup);
  if (plan.solve.status != Status::converged) return answer;
  answer.shares = cost_shares(plan.cost, setup.unit);
  answer.chinchilla_tokens = rule_tokens(setup.rule, plan.params);
  answer.over_chinchilla = plan.pretrain_tokens / answer.chinchilla_tokens;
  ChinchillaComparison& vs = answer.vs_chinchilla;
  LifetimePlan& chinchilla = vs.chinchilla;
  chinchilla.unit = setup.unit;
  const ParamsTokens<double> model = equal_quality_model(setup.rule, plan.loss);
  if (!std::isfinite(model.params)) {
    chinchilla.solve.status = Status::infeasible;
    chinchilla.solve.message =
        "the rule reaches the plan's loss only beyond 1e30 parameters or tokens";
    return answer;
  }
  if (!chinchilla_servable(vs, model.params, setup.model.max_params)) return answer;
  chinchilla.params = model.params;
  chinchilla.pretrain_tokens = model.tokens;
  chinchilla.loss = plan.loss;
  chinchilla.cost = cost_of(setup.model, model.params, model.tokens);
  chinchilla.solve.status = Status::converged;
  chinchilla.solve.algorithm = "closed form";
  set_chinchilla_ratios(vs, plan);
  return answer;
}

// The setup of the same question with E fixed at `experts`: the law reduced there (in place:
// name, source, range and joint law kept), costs priced at its expansion. What an answer at
// that E is read against, as answer_for reads NLopt's.
QuestionSetup setup_at_experts(const QuestionSetup& setup, double experts, double expansion) {
  QuestionSetup at = setup;
  set_coefficients_at_experts(at.rule.law, *setup.law().joint, experts);
  at.model = cost_model_at_experts(setup.model, expansion);
  at.total_to_active = expansion;
  at.experts.reset();
  return at;
}

// The experts chosen with costs linear in N_active (fixed MFUs, or FLOPs): the search over ln E
// of fixed-E Newton solves (problems/lifecycle/accelerators/experts_newton.hpp), its answer
// read at its E. nullopt (NLopt answers) for the roofline, RL tokens chosen, limited data or
// capped training, a plan the replica's HBM cannot hold, or any answer the search declines.
std::optional<QuestionSummary> experts_fast_summary(const QuestionSetup& setup,
                                                    const SolverOptions& options) {
  if (!chooses_size(setup.kind) || setup.chooses_rl_tokens() || setup.limits_data() ||
      setup.caps_training() || !setup.law().joint) {
    return std::nullopt;
  }
  const std::optional<LinearCost> cost = setup.model.linear(setup.unit);
  if (!cost) return std::nullopt;
  ExpertsNewtonPlan found = minimises_loss(setup.kind)
                                ? max_quality_choosing_experts(setup.law(), *setup.experts, *cost,
                                                               setup.budget, setup.min_params)
                                : min_cost_at_loss_choosing_experts(setup.law(), *setup.experts,
                                                                    setup.target_loss, *cost);
  NewtonPlan& plan = found.plan;
  accept_if_verified(plan, options);
  if (plan.use_general || plan.status == Status::not_converged) return std::nullopt;
  QuestionSummary summary;
  summary.kind = setup.kind;
  summary.unit = setup.unit;
  if (plan.status == Status::infeasible) {
    summary.answer = light_answer(setup, plan, SolvePath::newton, FleetAt{});
    settle_answers(summary);
    return summary;
  }
  // The bounds NLopt's problem adds (max_total_params, the active count the replica serves)
  // must not bind: the unbounded optimum is then the bounded one.
  const double total = plan.params * found.expansion;
  if (total > setup.model.max_total_params || plan.params > setup.model.max_active_params) {
    return std::nullopt;
  }
  const QuestionSetup at = setup_at_experts(setup, found.experts, found.expansion);
  FleetAt fleet;
  fleet.params = plan.params;
  fleet.fleet = fleet_at(setup, plan.params, total);
  summary.answer = light_answer(at, plan, SolvePath::newton, fleet);
  summary.answer.experts = found.experts;
  settle_answers(summary);
  return summary;
}

}  // namespace

std::optional<QuestionSummary> solve_question_fast(const QuestionSetup& setup,
                                                   const SolverOptions& options) {
  if (setup.experts) return experts_fast_summary(setup, options);
  const std::optional<FastOptimum> found = fast_plan(setup, options);
  if (!found) return std::nullopt;
  const NewtonPlan& plan = found->plan;
  QuestionSummary summary;
  summary.kind = setup.kind;
  summary.unit = setup.unit;
  if (setup.kind != ProblemKind::equal_cost) {
    summary.answer = light_answer(setup, plan, SolvePath::newton, found->at);
    settle_answers(summary);
    return summary;
  }
  NewtonPlan heuristic;
  heuristic.status = Status::converged;
  heuristic.params = setup.heuristic_params;
  heuristic.pretrain_tokens = setup.heuristic.pretrain_tokens;
  summary.answer = light_answer(setup, heuristic, SolvePath::closed_form);
  summary.has_optimum = true;
  summary.optimum = light_answer(setup, plan, SolvePath::newton, found->at);
  if (plan.status == Status::converged) {
    summary.heuristic_overpay = in_unit(setup.unit, summary.answer.cost.total()) /
                                    in_unit(setup.unit, summary.optimum.cost.total()) -
                                1.0;
  }
  settle_answers(summary);
  return summary;
}

std::optional<QuestionSolution> solve_question_fast_solution(const QuestionSetup& setup,
                                                             const SolverOptions& options) {
  const std::optional<FastOptimum> found = fast_plan(setup, options);
  if (!found) return std::nullopt;
  QuestionSolution solution;
  solution.kind = setup.kind;
  solution.unit = setup.unit;
  const LifetimePlan plan = full_plan(setup, found->plan, found->note);
  if (setup.kind == ProblemKind::equal_cost) {
    const LifetimePlan heuristic = heuristic_plan(setup);
    solution.target_loss = setup.target_loss;
    solution.answer = full_answer(setup, heuristic);
    solution.answer.path = SolvePath::closed_form;
    solution.optimum = full_answer(setup, plan);
    solution.optimum->path = SolvePath::newton;
    if (plan.solve.converged()) {
      solution.heuristic_overpay =
          in_unit(setup.unit, heuristic.cost.total()) / in_unit(setup.unit, plan.cost.total()) -
          1.0;
    }
  } else {
    solution.target_loss = minimises_loss(setup.kind) ? plan.loss : setup.target_loss;
    solution.answer = full_answer(setup, plan);
    solution.answer.path = SolvePath::newton;
  }
  settle_answers(solution);
  return solution;
}

QuestionSolution solve_question(const QuestionSetup& setup, const SolverOptions& options,
                                SolveMethod method) {
  if (method == SolveMethod::automatic) {
    // An infeasible question is told apart before NLopt runs, with the reason: that path says it.
    auto fast = solve_question_fast_solution(setup, options);
    if (fast && fast->status() != Status::infeasible) return *fast;
  }
  return solve_question(setup, options);
}

QuestionSummary solve_question_summary(const QuestionSetup& setup, const SolverOptions& options,
                                       SolveMethod method) {
  if (method == SolveMethod::automatic) {
    if (auto fast = solve_question_fast(setup, options)) return *fast;
  }
  return summarize(solve_question(setup, options));
}

}  // namespace scaleopt
