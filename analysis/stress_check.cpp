#include "scaleopt/analysis/stress_check.hpp"

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <sstream>
#include <vector>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/data_repetition.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifecycle/discrete_choice.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_problem.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"
#include "scaleopt/solver/high_precision.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/minimize.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

// The range of N and D every problem optimises over (problems/compute_optimal/compute_optimal.hpp).
constexpr double kLargestCount = 1e30;

StressCheck failed(const std::string& message) {
  return {StressOutcome::failed, std::numeric_limits<double>::quiet_NaN(), message};
}

StressCheck disagreed(const std::string& message,
                      double difference = std::numeric_limits<double>::quiet_NaN()) {
  return {StressOutcome::disagreed, difference, message};
}

StressCheck infeasible() {
  return {StressOutcome::infeasible, std::numeric_limits<double>::quiet_NaN(), ""};
}

double relative_gap(double value, double reference) {
  return std::fabs(value / reference - 1.0);
}

// Agreement of (N, D) with the reference, to the tolerance.
StressCheck compare(double params, double tokens, double reference_params, double reference_tokens,
                    const StressCheckOptions& options, const std::string& what,
                    const char* solver = "NLopt") {
  const double difference =
      std::max(relative_gap(params, reference_params), relative_gap(tokens, reference_tokens));
  if (difference <= options.tolerance) return {StressOutcome::agreed, difference, ""};
  std::ostringstream message;
  message.precision(17);
  message << what << ": " << solver << " N " << params << ", D " << tokens << "; reference N "
          << reference_params << ", D " << reference_tokens << " (relative difference "
          << difference << ")";
  return disagreed(message.str(), difference);
}

// Agreement of (N, D) with a closed form evaluated in 50 digits.
StressCheck compare_exact(const Allocation& answer, const ParamsTokens<Real50>& exact,
                          const StressCheckOptions& options, const std::string& what) {
  const double difference = std::max(relative_difference(answer.params, exact.params),
                                     relative_difference(answer.tokens, exact.tokens));
  if (difference <= options.tolerance) return {StressOutcome::agreed, difference, ""};
  StressCheck check = compare(answer.params, answer.tokens, exact.params.convert_to<double>(),
                              exact.tokens.convert_to<double>(), options, what);
  check.outcome = StressOutcome::disagreed;  // even if the doubles happen to round together
  check.difference = difference;
  return check;
}

// Hoffmann's frontier in 50 digits: the least-compute (N, D) reaching `target` (> E).
ParamsTokens<Real50> exact_frontier_for_loss(const LossLaw& law, double target) {
  const auto c = coefficients_of<Real50>(law);
  return compute_optimal_allocation(c, compute_for_loss(c, Real50(target)));
}

// Whether the tool answers for `target`: above E, with the law's least-compute point within
// the 1e30 parameters and tokens the problems range over (docs/model.md: beyond, the target is
// reported infeasible).
bool reachable(const LossLaw& law, double target) {
  if (!(target > law.E)) return false;
  const auto exact = exact_frontier_for_loss(law, target);
  return exact.params < kLargestCount && exact.tokens < kLargestCount;
}

StressCheck check_compute_at_budget(const StressInstance& instance,
                                    const StressCheckOptions& options) {
  const Allocation answer =
      optimal_for_compute({instance.law, std::nullopt}, instance.compute_flops, options.solver);
  if (!answer.solve.converged()) return failed("NLopt: " + answer.solve.message);
  const auto exact = compute_optimal_allocation(coefficients_of<Real50>(instance.law),
                                                Real50(instance.compute_flops));
  return compare_exact(answer, exact, options, "Hoffmann Eq. 4 in 50 digits");
}

StressCheck check_compute_at_loss(const StressInstance& instance,
                                  const StressCheckOptions& options) {
  const Allocation answer =
      optimal_for_loss({instance.law, std::nullopt}, instance.target_loss, options.solver);
  if (!reachable(instance.law, instance.target_loss)) {
    if (answer.solve.status == Status::infeasible) return infeasible();
    return disagreed("the target is unreachable, but NLopt reports " +
                     std::string(to_string(answer.solve.status)) + ": " + answer.solve.message);
  }
  if (!answer.solve.converged()) return failed("NLopt: " + answer.solve.message);
  return compare_exact(answer, exact_frontier_for_loss(instance.law, instance.target_loss), options,
                       "least compute in 50 digits");
}

// Every figure `scaleopt solve` prints for an answer: empty when all are finite, else the
// first that is not.
std::string non_finite_field(const QuestionAnswer& a) {
  const LifetimePlan& p = a.plan;
  const std::pair<const char*, double> fields[] = {
      {"params", a.total_params},
      {"active_params", a.active_params},
      {"pretrain_tokens", p.pretrain_tokens},
      {"rl_tokens", a.rl_tokens},
      {"inference_tokens", a.inference_tokens},
      {"loss", p.loss},
      {"cost.total.flops", p.cost.total().flops},
      {"cost.total.gpu_hours", p.cost.total().gpu_hours},
      {"cost.total.usd", p.cost.total().usd},
      {"cost_shares.pretrain", a.shares.pretrain},
      {"cost_shares.rl", a.shares.rl},
      {"cost_shares.inference", a.shares.inference},
      {"chinchilla_tokens", a.chinchilla_tokens},
      {"over_chinchilla", a.over_chinchilla},
      {"vs_chinchilla.params", a.vs_chinchilla.params_ratio},
      {"vs_chinchilla.tokens", a.vs_chinchilla.tokens_ratio},
      {"vs_chinchilla.cost", a.vs_chinchilla.cost_ratio}};
  for (const auto& [name, value] : fields) {
    if (!std::isfinite(value)) return name;
  }
  return "";
}

// Whether a plan sits on a bound of the search no user sets (N or D at 1 or 1e30): no optimum
// of the question, which every method must report infeasible
// (problems/question/question_summary.hpp).
bool on_search_bound(const LifetimePlan& plan) {
  constexpr double kNearOne = 1.0 + 1e-9, kNearLargest = kLargestCount * (1.0 - 1e-9);
  return plan.params <= kNearOne || plan.pretrain_tokens <= kNearOne ||
         plan.params >= kNearLargest || plan.pretrain_tokens >= kNearLargest;
}

// A converged answer of solve_question against the reference plan of the 1-D reduction.
StressCheck compare_plans(const QuestionAnswer& answer, const LifetimePlan& reference,
                          const StressCheckOptions& options) {
  if (reference.solve.converged() && on_search_bound(reference)) {
    if (answer.plan.solve.status == Status::infeasible) return infeasible();
    return disagreed(
        "the reference's optimum lies on a bound of the search (N or D at 1 or "
        "1e30), but NLopt reports " +
        std::string(to_string(answer.plan.solve.status)));
  }
  if (!answer.plan.solve.converged()) return failed("NLopt: " + answer.plan.solve.message);
  if (!reference.solve.converged()) {
    return failed("the 1-D reduction reports " + std::string(to_string(reference.solve.status)) +
                  ": " + reference.solve.message);
  }
  if (const std::string field = non_finite_field(answer); !field.empty()) {
    return failed("the answer's " + field + " is not finite");
  }
  return compare(answer.plan.params, answer.plan.pretrain_tokens, reference.params,
                 reference.pretrain_tokens, options, "1-D reduction");
}

// The fast path (Newton on the 1-D reduction: sweeps, tornado tables and Monte Carlo use it
// where the costs are linear in N) held to the same verdict and the same reference as NLopt.
// `nlopt` is NLopt's check; `answer` picks the plan compared (equal-cost: the optimum).
StressCheck with_fast_path(StressCheck nlopt, const QuestionSetup& setup,
                           const LifetimePlan& reference, bool feasible,
                           const StressCheckOptions& options,
                           const AnswerSummary& (*answer)(const QuestionSummary&)) {
  if (nlopt.outcome != StressOutcome::agreed && nlopt.outcome != StressOutcome::infeasible) {
    return nlopt;
  }
  const std::optional<QuestionSummary> fast = solve_question_fast(setup);
  if (!fast) return nlopt;
  nlopt.fast_path_checked = true;
  const AnswerSummary& plan = answer(*fast);
  if (!feasible || nlopt.outcome == StressOutcome::infeasible) {
    if (plan.status == Status::infeasible) return nlopt;
    return disagreed("infeasible, but the fast path reports " +
                     std::string(to_string(plan.status)));
  }
  if (plan.status != Status::converged) {
    return failed("the fast path reports " + std::string(to_string(plan.status)) +
                  " on a feasible instance");
  }
  StressCheck check = compare(plan.active_params, plan.pretrain_tokens, reference.params,
                              reference.pretrain_tokens, options, "1-D reduction", "fast path");
  if (check.outcome != StressOutcome::agreed) return check;
  nlopt.difference = std::max(nlopt.difference, check.difference);
  return nlopt;
}

const AnswerSummary& main_answer(const QuestionSummary& summary) {
  return summary.answer;
}
const AnswerSummary& optimum_answer(const QuestionSummary& summary) {
  return summary.optimum;
}

StressCheck check_min_lifetime(const StressInstance& instance, const StressCheckOptions& options) {
  const ProblemSpec& spec = instance.problem;
  const QuestionSetup setup = question_setup(instance.inputs, instance.law, spec);
  const CostUnit unit = setup.unit;
  const LifetimeCostModel& model = setup.model;
  const double target = *spec.target_loss;
  // `scaleopt solve` solves the same setup (solve_question builds it, then solves it).
  const QuestionSolution solution = solve_question(setup, options.solver);
  const LifetimePlan reference =
      min_lifetime_cost_at_loss_reduced(instance.law, target, model, unit);
  // Reachable within the range, and by a model the replica can serve: the smallest N reaching
  // the target with at most 1e30 tokens, A N^-alpha = target - E - B 1e30^-beta, must be
  // below the largest the replica holds.
  bool feasible = reachable(instance.law, target);
  if (feasible) {
    const LossLaw& law = instance.law;
    const double room = target - law.E - law.B * std::pow(kLargestCount, -law.beta);
    feasible = std::pow(law.A / room, 1.0 / law.alpha) < model.max_params;
  }
  if (!feasible) {
    if (solution.status() == Status::infeasible && reference.solve.status == Status::infeasible) {
      return with_fast_path(infeasible(), setup, reference, false, options, main_answer);
    }
    return disagreed("infeasible, but NLopt reports " + std::string(to_string(solution.status())) +
                     " (" + solution.message() + ") and the 1-D reduction " +
                     std::string(to_string(reference.solve.status)) + " (" +
                     reference.solve.message + ")");
  }
  return with_fast_path(compare_plans(solution.answer, reference, options), setup, reference, true,
                        options, main_answer);
}

StressCheck check_max_quality(const StressInstance& instance, const StressCheckOptions& options) {
  const ProblemSpec& spec = instance.problem;
  const QuestionSetup setup = question_setup(instance.inputs, instance.law, spec);
  const CostUnit unit = setup.unit;
  const double budget = setup.budget;
  const LifetimeCostModel& model = setup.model;
  const QuestionSolution solution = solve_question(setup, options.solver);
  const LifetimePlan reference =
      max_quality_at_budget_reduced(instance.law, model, unit, budget, {spec.min_params});
  // The cheapest plan there is: the smallest model considered, one pretraining token (the
  // lower bounds), demand and RL served. Costs rise with N and D.
  const bool feasible =
      spec.min_params <= model.max_params && model.total(unit, spec.min_params, 1.0).value < budget;
  if (!feasible) {
    // max_quality_at_budget returns the reduction's verdict on infeasible budgets; NLopt is
    // asked on its own here, and must not find a point within the budget.
    const SolveResult nlopt = minimize(
        LifecycleProblem(lifecycle_terms(LossTerm(instance.law), model, unit, spec.min_params),
                         LifecycleQuestion::within_budget(budget)),
        options.solver);
    if (solution.status() == Status::infeasible && reference.solve.status == Status::infeasible &&
        !nlopt.converged()) {
      return with_fast_path(infeasible(), setup, reference, false, options, main_answer);
    }
    return disagreed("infeasible budget, but solve reports " +
                     std::string(to_string(solution.status())) + ", the 1-D reduction " +
                     std::string(to_string(reference.solve.status)) + " and NLopt alone " +
                     std::string(to_string(nlopt.status)));
  }
  return with_fast_path(compare_plans(solution.answer, reference, options), setup, reference, true,
                        options, main_answer);
}

StressCheck check_equal_cost(const StressInstance& instance, const StressCheckOptions& options) {
  const ProblemSpec& spec = instance.problem;
  const CostUnit unit = spec.shares_unit;
  const QuestionSolution solution =
      solve_question(instance.inputs, instance.law, spec, options.solver);
  const LifetimePlan& heuristic = solution.answer.plan;
  // The closed form, re-costed: N as given, the loss of (N, D), and the shares asked for.
  const CostShares shares = cost_shares(heuristic.cost, unit);
  const double share_gap = std::max({std::fabs(shares.pretrain - spec.shares.pretrain),
                                     std::fabs(shares.rl - spec.shares.rl),
                                     std::fabs(shares.inference - spec.shares.inference)});
  if (heuristic.params != *spec.params || !(share_gap <= options.shares_tolerance) ||
      heuristic.loss != instance.law.loss(heuristic.params, heuristic.pretrain_tokens)) {
    std::ostringstream message;
    message.precision(17);
    message << "the heuristic's plan does not cost what its shares say: shares " << shares.pretrain
            << ", " << shares.rl << ", " << shares.inference << " for " << spec.shares.pretrain
            << ", " << spec.shares.rl << ", " << spec.shares.inference;
    return disagreed(message.str());
  }
  if (const std::string field = non_finite_field(solution.answer); !field.empty()) {
    return failed("the heuristic's " + field + " is not finite");
  }
  if (!solution.optimum) return failed("solve returned no optimum for equal-cost");
  LifetimeCostModel with_rl = lifetime_cost_model(instance.inputs, true);
  with_rl.rl_tokens = solution.answer.rl_tokens;
  const LifetimePlan reference =
      min_lifetime_cost_at_loss_reduced(instance.law, heuristic.loss, with_rl, unit);
  return with_fast_path(compare_plans(*solution.optimum, reference, options),
                        question_setup(instance.inputs, instance.law, spec), reference, true,
                        options, optimum_answer);
}

// A lifecycle class's instance solved by NLopt beside the independent reference of its terms.
struct SolvedBesideReference {
  QuestionSetup setup;
  QuestionSolution solution;
  LifetimePlan reference;
};

SolvedBesideReference solve_beside_reference(const StressInstance& instance,
                                             const StressCheckOptions& options) {
  SolvedBesideReference solved{
      question_setup(instance.inputs, instance.law, instance.problem), {}, {}};
  solved.solution = solve_question(solved.setup, options.solver);
  solved.reference = lifecycle_reference(solved.setup.terms(), solved.setup.question());
  return solved;
}

// The verdicts these classes share before the plans are compared: an instance infeasible on
// its own test must be reported infeasible; a feasible one needs NLopt's and the reference's
// answers converged and every figure of the answer finite. nullopt: go on and compare.
std::optional<StressCheck> verdict_before_comparing(bool feasible,
                                                    const SolvedBesideReference& solved,
                                                    const std::string& reference_name) {
  const QuestionSolution& solution = solved.solution;
  if (!feasible) {
    if (solution.status() == Status::infeasible) return infeasible();
    return disagreed("infeasible, but NLopt reports " + std::string(to_string(solution.status())) +
                     " (" + solution.message() + ")");
  }
  const QuestionAnswer& answer = solution.answer;
  if (!answer.plan.solve.converged()) return failed("NLopt: " + answer.plan.solve.message);
  const LifetimePlan& reference = solved.reference;
  if (!reference.solve.converged()) {
    return failed("the " + reference_name + " reports " +
                  std::string(to_string(reference.solve.status)) + ": " + reference.solve.message);
  }
  if (const std::string field = non_finite_field(answer); !field.empty()) {
    return failed("the answer's " + field + " is not finite");
  }
  return std::nullopt;
}

// RL tokens chosen: NLopt's (N, D, D_RL) against the separation of problems/rl_returns/ (r* by
// TOMS 748, then the 1-D reduction without RL), which needs costs linear in N and r* above its
// bound; the instances are drawn inside that domain, and one outside it is a failure.
StressCheck check_rl_returns(const StressInstance& instance, const StressCheckOptions& options) {
  const SolvedBesideReference solved = solve_beside_reference(instance, options);
  const QuestionSetup& setup = solved.setup;
  const LifetimeCostModel& model = setup.model;
  // Feasible: a reachable target (the gain changes D, not what N must reach), or a budget that
  // pays for the cheapest plan there is (the smallest model, one token of pretraining and RL).
  const bool at_loss = !minimises_loss(setup.kind);
  const bool feasible = at_loss
                            ? reachable(instance.law, setup.target_loss)
                            : setup.min_params <= model.max_params &&
                                  model.total(setup.unit, setup.min_params, 1.0).value +
                                          rl_cost_per_token(model, setup.unit, setup.min_params) <
                                      setup.budget;
  if (auto verdict = verdict_before_comparing(feasible, solved, "RL reduction")) return *verdict;
  const QuestionAnswer& answer = solved.solution.answer;
  const LifetimePlan& reference = solved.reference;
  StressCheck check = compare(answer.plan.params, answer.plan.pretrain_tokens, reference.params,
                              reference.pretrain_tokens, options, "RL reduction");
  const double rl_gap = relative_gap(answer.rl_tokens, reference.rl_tokens);
  if (check.outcome == StressOutcome::agreed && !(rl_gap <= options.tolerance)) {
    std::ostringstream message;
    message.precision(17);
    message << "RL reduction: NLopt D_RL " << answer.rl_tokens << "; reference D_RL "
            << reference.rl_tokens << " (relative difference " << rl_gap << ")";
    return disagreed(message.str(), rl_gap);
  }
  if (check.outcome == StressOutcome::agreed) check.difference = std::max(check.difference, rl_gap);
  return check;
}

// Limited data: NLopt's (N, D) against the 1-D reduction of problems/data_limit/; feasibility
// from the README's formula on its own (costmodel/data_repetition.hpp): a target is reachable
// when the loss at the largest N and D allowed (D at the cap, if any) lies below it.
StressCheck check_data_limit(const StressInstance& instance, const StressCheckOptions& options) {
  const SolvedBesideReference solved = solve_beside_reference(instance, options);
  const QuestionSetup& setup = solved.setup;
  const LifetimeCostModel& model = setup.model;
  const bool at_loss = !minimises_loss(setup.kind);
  bool feasible = false;
  if (at_loss) {
    const double largest_params = std::min(kLargestCount, model.max_params);
    const double largest_tokens =
        std::min(kLargestCount, instance.problem.max_pretrain_tokens.value_or(kLargestCount));
    feasible = reachable(instance.law, setup.target_loss) &&
               data_constrained_loss(instance.law, largest_params, largest_tokens,
                                     *instance.inputs.data.unique_tokens) < setup.target_loss;
  } else {
    feasible = setup.min_params <= model.max_params &&
               model.total(setup.unit, setup.min_params, 1.0).value < setup.budget;
  }
  if (auto verdict = verdict_before_comparing(feasible, solved, "data-limit reduction")) {
    return *verdict;
  }
  const QuestionAnswer& answer = solved.solution.answer;
  const LifetimePlan& reference = solved.reference;
  return compare(answer.plan.params, answer.plan.pretrain_tokens, reference.params,
                 reference.pretrain_tokens, options, "data-limit reduction");
}

// The fleet class's reference: the choice of replica taken outside the solver. Each whole-node
// size the setup allows is given in turn (as inference.chips would), its question answered by
// the 1-D reduction (a given size's cost has no kink but its floor's), and the best converged
// plan is kept: the least cost at a loss, the least loss within a budget.
struct GivenSizeReference {
  LifetimePlan plan;
  double objective = std::numeric_limits<double>::infinity();  // cost in the unit, or loss
  double replica_chips = 0.0;
};

GivenSizeReference best_given_size(const StressInstance& instance, CostUnit unit,
                                   LifecycleObjective objective) {
  const bool at_loss = objective == LifecycleObjective::cost;
  const ProblemSpec& spec = instance.problem;
  GivenSizeReference best;
  best.plan.solve.status = Status::infeasible;
  best.plan.solve.message = "no replica size answers the question";
  for (const double chips : whole_node_replica_sizes(instance.inputs.serving)) {
    LifetimeInputs given = instance.inputs;
    given.serving.replica_chosen = false;
    given.serving.chips = chips;
    LifetimePlan plan;
    try {
      const QuestionSetup setup = question_setup(given, instance.law, spec);
      plan = at_loss ? min_lifetime_cost_at_loss_reduced(instance.law, *spec.target_loss,
                                                         setup.model, unit)
                     : max_quality_at_budget_reduced(instance.law, setup.model, unit, setup.budget,
                                                     {spec.min_params});
    } catch (const InputError&) {
      // This size serves no model the question needs (its weights and one sequence's cache,
      // or the latency target at batch 1): not a candidate.
      continue;
    }
    if (!plan.solve.converged()) continue;
    const double value = plan_objective(plan, objective);
    if (value < best.objective) best = {plan, value, given.serving.chips};
  }
  return best;
}

StressCheck check_fleet(const StressInstance& instance, const StressCheckOptions& options) {
  const ProblemSpec& spec = instance.problem;
  const QuestionSetup setup = question_setup(instance.inputs, instance.law, spec);
  const CostUnit unit = setup.unit;
  const LifetimeCostModel& model = setup.model;
  const bool at_loss = !minimises_loss(setup.kind);
  const QuestionSolution solution = solve_question(setup, options.solver);
  const LifecycleObjective objective = setup.question().objective;
  const GivenSizeReference reference = best_given_size(instance, unit, objective);
  // Feasibility on its own, as the fixed-size classes decide it: a reachable target the largest
  // replica serves, or a budget that pays for the smallest model on the cheapest size.
  bool feasible = false;
  if (at_loss) {
    const LossLaw& law = instance.law;
    feasible = reachable(law, setup.target_loss);
    if (feasible) {
      const double room = setup.target_loss - law.E - law.B * std::pow(kLargestCount, -law.beta);
      feasible = std::pow(law.A / room, 1.0 / law.alpha) < model.max_params;
    }
  } else {
    feasible = spec.min_params <= model.max_params &&
               model.total(unit, spec.min_params, 1.0).value < setup.budget;
  }
  if (!feasible) {
    if (solution.status() == Status::infeasible &&
        reference.plan.solve.status == Status::infeasible) {
      return with_fast_path(infeasible(), setup, reference.plan, false, options, main_answer);
    }
    return disagreed("infeasible, but NLopt reports " + std::string(to_string(solution.status())) +
                     " and the sizes given in turn " +
                     std::string(to_string(reference.plan.solve.status)));
  }
  StressCheck check = compare_plans(solution.answer, reference.plan, options);
  if (check.outcome == StressOutcome::disagreed && solution.answer.plan.solve.converged()) {
    // Two sizes within a hair of each other may put the optimum at different N: the answer
    // agrees when its objective is the best size's (1e-9 relative, the fleet's tie rule).
    const double answer_objective = plan_objective(solution.answer.plan, objective);
    if (std::fabs(answer_objective / reference.objective - 1.0) <= 1e-9) {
      check = {StressOutcome::agreed, 0.0, ""};
    } else {
      std::ostringstream message;
      message.precision(17);
      message << check.message << "; objective " << answer_objective << " against the best size's "
              << reference.objective << " (" << reference.replica_chips << " chips; NLopt's "
              << (solution.answer.fleet ? solution.answer.fleet->replica_chips : 0.0) << ")";
      check.message = message.str();
    }
  }
  return with_fast_path(check, setup, reference.plan, true, options, main_answer);
}

// The objective of the fixed-E question at ln E, by its own 1-D reduction: ln cost at a target,
// the loss within a budget; +infinity where no plan exists (or only one on a bound of the
// search, which is no answer), NaN where the reduction gives none.
double fixed_experts_objective(const LifecycleTerms& terms, const LifecycleQuestion& question,
                               double log_experts, std::string& unanswered) {
  LifetimePlan plan;
  try {
    plan = lifecycle_reference(terms_at_experts(terms, std::exp(log_experts)), question);
  } catch (const InputError&) {
    // The serving setup refuses this total at every N (a latency target even the smallest
    // model's weights miss): no plan at this E.
    return HUGE_VAL;
  }
  if (plan.solve.status == Status::infeasible) return HUGE_VAL;
  if (!plan.solve.converged()) {
    unanswered = plan.solve.message;
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (on_search_bound(plan)) return HUGE_VAL;
  return question.objective == LifecycleObjective::loss
             ? plan.loss
             : std::log(in_unit(terms.unit, plan.cost.total()));
}

// The experts chosen: NLopt's objective against the fixed-E reductions minimised over ln E by a
// grid of 65 points, Brent's method between the best one's neighbours, then ternary steps that
// compare values only (they locate a corner of the profile to rounding, where Brent's stops at
// ~1.5e-8 in ln E). Agreement in the objective: relative in cost, relative to the reducible
// part in loss (E is located only to the objective's flatness).
StressCheck check_experts(const StressInstance& instance, const StressCheckOptions& options) {
  const QuestionSetup setup = question_setup(instance.inputs, instance.law, instance.problem);
  const QuestionSolution solution = solve_question(setup, options.solver);
  const LifecycleTerms terms = setup.terms();
  const LifecycleQuestion question = setup.question();
  std::string unanswered;
  const auto objective = [&](double log_experts) {
    const double value = fixed_experts_objective(terms, question, log_experts, unanswered);
    return std::isnan(value) ? HUGE_VAL : value;
  };
  constexpr int kGrid = 65;
  const double lo = std::log(terms.experts->min_experts);
  const double hi = std::log(terms.experts->max_experts);
  const int points = hi > lo ? kGrid : 1;
  std::vector<double> grid(static_cast<std::size_t>(points));
  int best = 0;
  double best_value = HUGE_VAL;
  for (int k = 0; k < points; ++k) {
    grid[static_cast<std::size_t>(k)] = points == 1 ? lo : lo + (hi - lo) * k / (points - 1);
    const double value = objective(grid[static_cast<std::size_t>(k)]);
    if (value < best_value) best_value = value, best = k;
  }
  if (!unanswered.empty()) return failed("the fixed-E reduction gives no answer: " + unanswered);
  // The fast path (experts_newton.hpp) where it answers: the same verdict, and its objective
  // held to the reference as NLopt's is.
  const std::optional<QuestionSummary> fast = solve_question_fast(setup);
  if (!(best_value < HUGE_VAL)) {
    if (solution.status() != Status::infeasible) {
      return disagreed("no fixed E admits a plan, but NLopt reports " +
                       std::string(to_string(solution.status())) + " (" + solution.message() + ")");
    }
    StressCheck verdict = infeasible();
    if (!fast) return verdict;
    if (fast->answer.status != Status::infeasible) {
      return disagreed("no fixed E admits a plan, but the fast path reports " +
                       std::string(to_string(fast->answer.status)));
    }
    verdict.fast_path_checked = true;
    return verdict;
  }
  double log_experts = grid[static_cast<std::size_t>(best)];
  if (points > 1) {
    const double left = grid[static_cast<std::size_t>(std::max(best - 1, 0))];
    const double right = grid[static_cast<std::size_t>(std::min(best + 1, points - 1))];
    std::uintmax_t iterations = 200;
    const auto [x, value] = boost::math::tools::brent_find_minima(
        objective, left, right, std::numeric_limits<double>::digits / 2, iterations);
    if (value < best_value) best_value = value, log_experts = x;
    double a = std::max(left, log_experts - 5e-7), b = std::min(right, log_experts + 5e-7);
    for (int step = 0; step < 60; ++step) {
      const double third = (b - a) / 3.0;
      if (objective(a + third) <= objective(b - third)) {
        b -= third;
      } else {
        a += third;
      }
    }
    const double middle = objective(0.5 * (a + b));
    if (middle < best_value) best_value = middle, log_experts = 0.5 * (a + b);
  }
  const QuestionAnswer& answer = solution.answer;
  if (!answer.plan.solve.converged()) return failed("NLopt: " + answer.plan.solve.message);
  if (const std::string field = non_finite_field(answer); !field.empty()) {
    return failed("the answer's " + field + " is not finite");
  }
  const bool loss = question.objective == LifecycleObjective::loss;
  const auto objective_of = [&](double plan_loss, const LifetimeCost& cost) {
    return loss ? plan_loss : std::log(in_unit(setup.unit, cost.total()));
  };
  const auto difference_of = [&](double value) {
    return loss ? std::fabs(value - best_value) / (best_value - instance.law.E)
                : std::fabs(std::expm1(value - best_value));
  };
  const auto disagreement = [&](const char* who, double value, double experts) {
    const double difference = difference_of(value);
    std::ostringstream message;
    message.precision(17);
    message << "fixed-E reductions over ln E: " << who << " objective " << value << " at E "
            << experts << "; reference " << best_value << " at E " << std::exp(log_experts)
            << " (relative difference " << difference << ")";
    return disagreed(message.str(), difference);
  };
  const double ours = objective_of(answer.plan.loss, answer.plan.cost);
  const double difference = difference_of(ours);
  if (!(difference <= options.tolerance)) {
    return disagreement("NLopt's", ours, answer.experts.value_or(std::nan("")));
  }
  StressCheck verdict{StressOutcome::agreed, difference, ""};
  if (!fast) return verdict;
  const AnswerSummary& quick = fast->answer;
  if (quick.status != Status::converged) {
    return failed("the fast path reports " + std::string(to_string(quick.status)) +
                  " on a feasible instance");
  }
  const double theirs = objective_of(quick.loss, quick.cost);
  if (!(difference_of(theirs) <= options.tolerance)) {
    return disagreement("the fast path's", theirs, quick.experts);
  }
  verdict.fast_path_checked = true;
  verdict.difference = std::max(difference, difference_of(theirs));
  return verdict;
}

StressCheck check(const StressInstance& instance, const StressCheckOptions& options) {
  switch (instance.kind) {
    case StressClass::compute_at_budget:
      return check_compute_at_budget(instance, options);
    case StressClass::compute_at_loss:
      return check_compute_at_loss(instance, options);
    case StressClass::min_lifetime:
    case StressClass::roofline_min_lifetime:
      return check_min_lifetime(instance, options);
    case StressClass::max_quality:
    case StressClass::roofline_max_quality:
      return check_max_quality(instance, options);
    case StressClass::equal_cost:
    case StressClass::roofline_equal_cost:
      return check_equal_cost(instance, options);
    case StressClass::rl_returns:
      return check_rl_returns(instance, options);
    case StressClass::data_limit:
      return check_data_limit(instance, options);
    case StressClass::fleet:
      return check_fleet(instance, options);
    case StressClass::experts:
      return check_experts(instance, options);
  }
  return failed("unknown class");
}

}  // namespace

std::string_view to_string(StressOutcome outcome) {
  switch (outcome) {
    case StressOutcome::agreed:
      return "agreed";
    case StressOutcome::infeasible:
      return "infeasible";
    case StressOutcome::disagreed:
      return "disagreed";
    case StressOutcome::failed:
      return "failed";
  }
  return "failed";
}

void StressCheckOptions::validate() const {
  if (!(tolerance > 0.0 && tolerance < 1.0)) {
    throw InputError("tolerance must be in (0, 1), got " + std::to_string(tolerance));
  }
  if (!(shares_tolerance > 0.0 && shares_tolerance < 1.0)) {
    throw InputError("shares_tolerance must be in (0, 1), got " + std::to_string(shares_tolerance));
  }
  solver.validate();
}

void StressRunOptions::validate() const {
  kInstancesLimit.check(static_cast<double>(instances));
  kFailuresKeptLimit.check(static_cast<double>(failures_kept));
  kThreadsLimit.check(threads);
  check.validate();
}

StressCheck check_stress_instance(const StressInstance& instance,
                                  const StressCheckOptions& options) {
  try {
    return check(instance, options);
  } catch (const Interrupted&) {
    throw;  // not the instance's failure: the run was asked to stop
  } catch (const InputError& e) {
    return failed(std::string("input error on a valid instance: ") + e.what());
  } catch (const std::exception& e) {
    return failed(std::string("exception: ") + e.what());
  }
}

void StressSummary::add(std::uint64_t index, const StressCheck& c, std::uint64_t failures_kept) {
  const StressClass kind = stress_class(index);
  StressClassSummary& class_summary = by_class[static_cast<std::size_t>(kind)];
  ++instances;
  ++counts[static_cast<std::size_t>(c.outcome)];
  ++class_summary.counts[static_cast<std::size_t>(c.outcome)];
  if (c.fast_path_checked) {
    ++class_summary.fast_path_checked;
    ++fast_path_checked;
  }
  if (c.outcome == StressOutcome::agreed) {
    class_summary.largest_difference = std::max(class_summary.largest_difference, c.difference);
    largest_difference = std::max(largest_difference, c.difference);
  }
  if ((c.outcome == StressOutcome::disagreed || c.outcome == StressOutcome::failed) &&
      failures.size() < failures_kept) {
    failures.push_back({index, kind, c.outcome, c.message});
  }
}

StressSummary run_stress(const StressRunOptions& options) {
  options.validate();
  // Instances are checked a block at a time and folded into the summary in index order, so
  // memory is one block's checks whatever the count. A block is large enough that the threads
  // rarely wait for the slowest instance of one (costs vary ~10x between instances).
  const std::uint64_t block = 256 * std::uint64_t{resolve_thread_count(options.threads, 1 << 20)};
  std::vector<StressCheck> checks;
  StressSummary summary;
  summary.seed = options.seed;
  for (std::uint64_t first = 0; first < options.instances; first += block) {
    const std::uint64_t size = std::min(block, options.instances - first);
    checks.assign(size, StressCheck{});
    parallel_for(size, options.threads, [&](std::size_t i) {
      throw_if_stopped(options.check.solver.stop);
      checks[i] = check_stress_instance(stress_instance(options.seed, first + i), options.check);
    });
    for (std::uint64_t i = 0; i < size; ++i) {
      summary.add(first + i, checks[i], options.failures_kept);
    }
    if (options.stop && options.stop(summary.instances)) break;
  }
  return summary;
}

}  // namespace scaleopt
