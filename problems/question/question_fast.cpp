#include "scaleopt/problems/question/question_fast.hpp"

#include <cmath>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_newton.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/lifecycle/fast_path.hpp"

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

// The lifetime cost of (N, D): the roofline's closed form when the model has one (the
// functions of N it stands for solve the serving plan by root finding, ~20x slower).
LifetimeCost cost_of(const LifetimeCostModel& model, double params, double tokens) {
  return model.closed_form() ? roofline_lifetime_cost(model, params, tokens)
                             : model.cost(params, tokens);
}

AnswerSummary light_answer(const QuestionSetup& setup, const NewtonPlan& plan, SolvePath path) {
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
  a.cost = cost_of(setup.model, n, d);
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
  a.kkt_residual = plan.kkt_residual;
  a.constraint_violation = plan.constraint_violation;
  return a;
}

}  // namespace

std::optional<QuestionSummary> solve_question_fast(const QuestionSetup& setup,
                                                   const SolverOptions& options) {
  const Accelerator accelerator = fast_path_for(setup.loss, setup.model, setup.unit).accelerator;
  if (accelerator == Accelerator::none) return std::nullopt;
  const bool roofline = accelerator == Accelerator::roofline_newton;
  const std::optional<LinearCost> cost = setup.model.linear(setup.unit);
  QuestionSummary summary;
  summary.kind = setup.kind;
  summary.unit = setup.unit;
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
  }
  // NLopt answers what the fast path cannot verify (and the roofline's, when Newton stalls).
  accept_if_verified(plan, options);
  if (plan.use_general || (roofline && plan.status == Status::not_converged)) return std::nullopt;
  if (setup.kind != ProblemKind::equal_cost) {
    summary.answer = light_answer(setup, plan, SolvePath::newton);
    settle_answers(summary);
    return summary;
  }
  NewtonPlan heuristic;
  heuristic.status = Status::converged;
  heuristic.params = setup.heuristic_params;
  heuristic.pretrain_tokens = setup.heuristic.pretrain_tokens;
  summary.answer = light_answer(setup, heuristic, SolvePath::closed_form);
  summary.has_optimum = true;
  summary.optimum = light_answer(setup, plan, SolvePath::newton);
  if (plan.status == Status::converged) {
    summary.heuristic_overpay = in_unit(setup.unit, summary.answer.cost.total()) /
                                    in_unit(setup.unit, summary.optimum.cost.total()) -
                                1.0;
  }
  settle_answers(summary);
  return summary;
}

QuestionSummary solve_question_summary(const QuestionSetup& setup, const SolverOptions& options,
                                       SolveMethod method) {
  if (method == SolveMethod::automatic) {
    if (auto fast = solve_question_fast(setup, options)) return *fast;
  }
  return summarize(solve_question(setup, options));
}

}  // namespace scaleopt
