#include "scaleopt/problems/question/question_setup.hpp"

#include "scaleopt/costmodel/law_reach.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/costmodel/data_repetition.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/training_budget.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/question_replica_choice.hpp"
#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {
namespace {

CostUnit unit_of(const ProblemSpec& spec) {
  switch (spec.kind) {
    case ProblemKind::min_lifetime_flops:
      return CostUnit::flops;
    case ProblemKind::min_lifetime_cost:
      return CostUnit::usd;
    case ProblemKind::equal_cost:
      return spec.shares_unit;
    case ProblemKind::max_quality:
      return spec.budget_usd ? CostUnit::usd : CostUnit::gpu_hours;
    case ProblemKind::best_at_pretraining_budget:
      return spec.pretraining_budget_usd ? CostUnit::usd : CostUnit::gpu_hours;
  }
  return CostUnit::usd;
}

// The heuristic's plan as counts: N, D and, with the RL gain, its RL tokens (at least one: the
// gain of none is not defined).
std::vector<double> heuristic_counts(const QuestionSetup& setup) {
  std::vector<double> counts{setup.heuristic_params, setup.heuristic.pretrain_tokens};
  if (setup.chooses_rl_tokens()) counts.push_back(std::max(setup.heuristic.rl_tokens, 1.0));
  return counts;
}

// The loss `loss` gives the heuristic's plan, in log space.
double heuristic_loss(const QuestionSetup& setup, const LossTerm& loss) {
  const std::vector<double> counts = heuristic_counts(setup);
  double logs[3];
  for (std::size_t i = 0; i < counts.size(); ++i) logs[i] = std::log(counts[i]);
  return loss
      .at(DecisionLayout::with(setup.chooses_rl_tokens()),
          std::span<const double>(logs, counts.size()))
      .loss;
}

// The multiplier of the inequality called `name` in a converged plan, or NaN.
double multiplier_of(const LifetimePlan& plan, const QuestionSetup& setup, std::string_view name) {
  const int index = setup.question().inequality_index(name);
  const std::vector<double>& multipliers = plan.solve.inequality_multipliers;
  if (!plan.solve.converged() || index < 0 ||
      static_cast<std::size_t>(index) >= multipliers.size()) {
    return std::nan("");
  }
  return multipliers[static_cast<std::size_t>(index)];
}

// The plan's epochs, effective tokens and the cap's worth per token (the penalties against
// unlimited data are solve_question's).
DataLimitAnswer data_limit_of(const LifetimePlan& plan, const QuestionSetup& setup) {
  DataLimitAnswer limit;
  if (const RepetitionTransform* repetition = setup.loss.repetition()) {
    limit.unique_tokens = repetition->unique_tokens();
    if (plan.solve.status == Status::infeasible) return limit;
    limit.epochs = plan.pretrain_tokens / limit.unique_tokens;
    const double log_tokens = std::log(plan.pretrain_tokens);
    limit.effective_tokens =
        std::exp(repeated_count(log_tokens, std::min(log_tokens, std::log(limit.unique_tokens)),
                                setup.law().repeat_decay_tokens)
                     .log_effective);
  }
  const double mu =
      setup.max_pretrain_tokens ? multiplier_of(plan, setup, "max_pretrain_tokens") : std::nan("");
  if (std::isfinite(mu)) {
    // d objective* / d ln D_max = -mu.
    const double per_token = mu / *setup.max_pretrain_tokens;
    limit.token_value =
        minimises_loss(setup.kind) ? per_token : per_token * in_unit(setup.unit, plan.cost.total());
  }
  return limit;
}

}  // namespace

LifecycleTerms QuestionSetup::terms() const {
  const double smallest = kind == ProblemKind::max_quality ? min_params : 1.0;
  if (experts) return lifecycle_terms_choosing_experts(loss, model, unit, *experts, smallest);
  return lifecycle_terms(loss, model, unit, smallest);
}

LifecycleQuestion QuestionSetup::question() const {
  LifecycleQuestion q = kind == ProblemKind::max_quality ? LifecycleQuestion::within_budget(budget)
                        : kind == ProblemKind::best_at_pretraining_budget
                            ? LifecycleQuestion::within_pretraining_compute(
                                  pretraining_budget_flops, pretraining_budget_description)
                            : LifecycleQuestion::at_target_loss(target_loss);
  if (max_pretrain_tokens) q.with_token_cap(*max_pretrain_tokens);
  if (deadline_max_flops) q.with_deadline(*deadline_max_flops, deadline_description);
  return q;
}

namespace {

// Whole nodes of `per_node` chips holding at least `chips`.
double whole_nodes(double chips, double per_node) {
  return std::ceil(chips / per_node * (1.0 - 1e-12)) * per_node;
}

}  // namespace

TrainingRunAnswer training_run_at(double pretrain_flops, const QuestionSetup& setup) {
  TrainingRunAnswer run;
  run.capped = setup.caps_training();
  if (!(pretrain_flops > 0.0)) return run;
  const double chip_seconds = pretrain_flops / setup.training_flop_per_second_per_chip;
  run.cap_description = setup.kind == ProblemKind::best_at_pretraining_budget
                            ? setup.pretraining_budget_description
                            : std::string();
  if (setup.deadline_max_flops) {
    run.cap_description += (run.cap_description.empty() ? "" : "; ") + setup.deadline_description +
                           " = " + format_scientific(*setup.deadline_max_flops, 4) + " FLOPs";
  }
  if (setup.training_chips && !setup.training_chips_capped) {
    run.chips = *setup.training_chips;
    run.chips_source = "training.chips";
  } else if (setup.deadline_seconds) {
    run.chips_source =
        setup.training_chips_capped
            ? "what the deadline needs, whole nodes within " + setup.training_chips_cap
            : "what the deadline needs, whole nodes";
    run.chips =
        std::max(setup.training_node_chips,
                 whole_nodes(chip_seconds / *setup.deadline_seconds, setup.training_node_chips));
    if (setup.training_chips_capped && run.chips >= *setup.training_chips) {
      // The deadline needs all the chips the cap admits: the cap binds.
      run.chips = *setup.training_chips;
      run.chips_source = "the cap binds: " + setup.training_chips_cap;
    }
  }
  if (std::isfinite(run.chips)) run.days = chip_seconds / run.chips / kSecondsPerDay;
  return run;
}

TrainingRunAnswer training_run_of(const LifetimePlan& plan, const QuestionSetup& setup) {
  if (plan.solve.status == Status::infeasible) return training_run_at(0.0, setup);
  TrainingRunAnswer run = training_run_at(plan.cost.pretrain.flops, setup);
  if (setup.deadline_max_flops) {
    // mu = -d objective* / d ln T; per day: mu / T_days (times the cost for ln cost).
    const double mu = multiplier_of(plan, setup, "deadline");
    const double per_day = mu / (*setup.deadline_seconds / kSecondsPerDay);
    run.deadline_value_per_day =
        minimises_loss(setup.kind) ? per_day : per_day * in_unit(setup.unit, plan.cost.total());
  }
  if (setup.kind == ProblemKind::best_at_pretraining_budget) {
    // C_max is proportional to the budget: d L* / d budget = -mu / budget.
    run.budget_value = multiplier_of(plan, setup, "pretraining_budget") / setup.budget;
  }
  return run;
}

QuestionSetup QuestionSetup::unlimited() const {
  QuestionSetup setup = *this;
  setup.max_pretrain_tokens.reset();
  // The equal-cost heuristic spends its whole pretraining share when nothing caps D.
  setup.heuristic.pretrain_tokens = setup.heuristic.share_pretrain_tokens;
  setup.loss = LossTerm(law());
  if (const RlGainTransform* gain = loss.rl_gain()) {
    setup.loss.then(std::make_shared<const RlGainTransform>(*gain));
  }
  return setup;
}

std::optional<FleetPlan> fleet_at(const QuestionSetup& setup, double active_params) {
  return fleet_at(setup, active_params, active_params * setup.total_to_active);
}

std::optional<FleetPlan> fleet_at(const QuestionSetup& setup, double active_params,
                                  double total_params) {
  if (!is_priced(setup.kind) || !setup.model.fleet || !(active_params > 0.0)) return std::nullopt;
  try {
    return setup.experts ? setup.model.fleet->plan_at_total(active_params, total_params)
                         : setup.model.fleet->plan_at(active_params);
  } catch (const InputError&) {
    return std::nullopt;  // no replica serves this N: the plan's own status says so
  }
}

LossLaw law_of_answer(const LossLaw& law, const QuestionAnswer& answer) {
  if (!answer.experts || !law.joint) return law;
  LossLaw at = law;
  reevaluate_at_experts(at, *law.joint, *answer.experts);
  return at;
}

QuestionAnswer answer_sizes(const LifetimePlan& plan, const QuestionSetup& setup) {
  QuestionAnswer answer;
  answer.plan = plan;
  answer.active_params = plan.params;
  answer.total_params = plan.total_params.value_or(plan.params * setup.total_to_active);
  answer.experts = plan.experts;
  answer.rl_tokens = plan.rl_tokens;
  answer.inference_tokens = setup.inference_tokens;
  answer.output_tokens = setup.output_tokens;
  answer.rl_returns = plan.rl_returns;
  if (setup.limits_data()) answer.data_limit = data_limit_of(plan, setup);
  answer.training = training_run_of(plan, setup);
  answer.power = power_answer(plan.cost, plan.solve.status != Status::infeasible,
                              answer.training.chips, setup.power, is_priced(setup.kind));
  answer.law_extrapolation = law_extrapolation(law_of_answer(setup.law(), answer), plan.params,
                                               plan.pretrain_tokens, answer.total_params);
  if (plan.solve.status != Status::infeasible) {
    answer.fleet = fleet_at(setup, plan.params, answer.total_params);
  }
  if (const std::optional<double>& largest = setup.power.serving_max_params) {
    answer.power.serving_max_params = *largest;
    // On the bound to the solver's accuracy in ln N (its bound is exact, its answer within
    // the KKT tolerance of it).
    answer.power.serving_capped = plan.params >= *largest * (1.0 - 1e-9);
  }
  return answer;
}

QuestionAnswer answer_for(const LifetimePlan& plan, const QuestionSetup& setup) {
  QuestionAnswer answer = answer_sizes(plan, setup);
  if (plan.solve.status == Status::infeasible) return answer;
  answer.shares = cost_shares(plan.cost, plan.unit);
  // The experts chosen: the rule's law and the comparison's model at the plan's experts, so
  // that the Chinchilla-style model differs from the plan in its tokens alone.
  AllocationRule rule = setup.rule;
  rule.law = law_of_answer(setup.law(), answer);
  answer.chinchilla_tokens = optimal_for_params(rule, plan.params).tokens;
  answer.over_chinchilla = plan.pretrain_tokens / answer.chinchilla_tokens;
  // The equal-quality model is costed with the plan's RL tokens.
  LifetimeCostModel at_tokens =
      setup.experts ? cost_model_at_experts(setup.model, setup.experts->expansion(*answer.experts))
                    : setup.model;
  at_tokens.rl_tokens = plan.rl_tokens;
  answer.vs_chinchilla = compare_with_chinchilla(rule, plan, at_tokens);
  return answer;
}

namespace {

// The cluster's rate and size, and the deadline's cap on 6 N D where the chips are known: the
// chips given, or their cap, the smaller of training.max_chips and what power.max_mw powers.
void set_training_cluster(const TrainingSetup& training, QuestionSetup& setup) {
  setup.training_flop_per_second_per_chip = training.effective_flop_per_second();
  setup.training_node_chips = training.chip.node_chips;
  const std::optional<double>& site_chips = setup.power.max_chips;
  if (training.cluster_chips > 0.0) {
    setup.training_chips = training.cluster_chips;
    if (site_chips && training.cluster_chips > *site_chips) {
      throw field_error(
          "training.chips",
          format_quantity(training.cluster_chips, Unit::count) + " chips of " + training.chip.id +
              " draw " +
              format_quantity(training.cluster_chips * *setup.power.training_watts_per_chip,
                              Unit::watts) +
              " at the meter, above power.max_mw (" +
              format_quantity(*setup.power.max_mw * kWattsPerMegawatt, Unit::watts) + ": at most " +
              format_quantity(*site_chips, Unit::count) + " chips)");
    }
  } else if (training.max_chips || site_chips) {
    setup.training_chips_capped = true;
    if (site_chips && (!training.max_chips || *site_chips < *training.max_chips)) {
      setup.training_chips = *site_chips;
      setup.training_chips_cap =
          "power.max_mw = " +
          format_quantity(*setup.power.max_mw * kWattsPerMegawatt, Unit::watts) + " at " +
          format_quantity(*setup.power.training_watts_per_chip, Unit::watts, 4) +
          " per chip at the meter";
    } else {
      setup.training_chips = *training.max_chips;
      setup.training_chips_cap = "training.max_chips";
    }
  }
  setup.deadline_seconds = training.deadline_seconds;
  if (!setup.deadline_seconds || !setup.training_chips) return;
  setup.deadline_max_flops =
      *setup.deadline_seconds * *setup.training_chips * setup.training_flop_per_second_per_chip;
  setup.deadline_description =
      "training.deadline = " + format_quantity(*setup.deadline_seconds, Unit::seconds) + " on " +
      format_quantity(*setup.training_chips, Unit::count) + " chips" +
      (setup.training_chips_capped ? " (" + setup.training_chips_cap + ")" : "");
}

// The pretraining budget as FLOPs at the training setup's rate (costmodel/training_budget.hpp).
void set_pretraining_budget(const TrainingSetup& training, const ProblemSpec& spec,
                            QuestionSetup& setup) {
  const TrainingBudget budget =
      spec.pretraining_budget_usd
          ? training_budget_from_usd(*spec.pretraining_budget_usd, training,
                                     "problem.pretraining_budget_usd")
          : training_budget_from_gpu_hours(*spec.pretraining_budget_gpu_hours, training,
                                           "problem.pretraining_budget_gpu_hours");
  setup.budget = spec.pretraining_budget_usd ? budget.usd : budget.gpu_hours;
  setup.pretraining_budget_flops = budget.flops;
  setup.pretraining_budget_description =
      "problem.pretraining_budget: " +
      (spec.pretraining_budget_usd
           ? format_quantity(budget.usd, Unit::usd) + " at " +
                 format_quantity(budget.usd_per_gpu_hour, Unit::usd_per_hour) + " = "
           : std::string()) +
      format_quantity(budget.gpu_hours, Unit::count) + " chip-hours of " + training.chip.id +
      " = " + format_scientific(budget.flops, 4) + " FLOPs";
}

// The experts chosen: only by the questions that choose a size (chooses_size), with a joint
// law.
void set_expert_choice(const Architecture& architecture, const LossLaw& law,
                       const ProblemSpec& spec, QuestionSetup& setup) {
  if (!spec.choose_experts || !chooses_size(spec.kind)) return;
  if (!law.joint) {
    throw InputError(std::string(spec.max_experts ? "problem.max_experts" : "problem.min_experts") +
                     ": choosing the experts needs a joint dense/MoE law (law.preset = "
                     "\"ludziejewski2025\" or a [law.joint] table)");
  }
  ExpertChoice choice;
  const ExpertShare share = expert_share_of(architecture);
  choice.expert_share = share.share;
  choice.min_experts = spec.min_experts.value_or(1.0);
  choice.max_experts = spec.max_experts.value_or(default_max_experts(law, choice.min_experts));
  choice.validate("problem");
  setup.experts = choice;
  setup.expert_share_source = share.source;
  setup.loss.choosing_experts(law.joint, share.share);
}

}  // namespace

QuestionSetup question_setup(const LifetimeInputs& given, const LossLaw& law,
                             const ProblemSpec& spec) {
  spec.validate();
  law.validate("law");
  QuestionSetup setup;
  setup.kind = spec.kind;
  setup.unit = unit_of(spec);
  setup.rule = AllocationRule{law, spec.tokens_per_param};
  const bool priced = spec.kind != ProblemKind::min_lifetime_flops;
  setup.power = site_power(given);
  // Energy at power.usd_per_kwh is in every chip-hour's price from here on.
  const std::optional<LifetimeInputs> energy_priced = with_energy_prices(given, priced);
  const LifetimeInputs& inputs = energy_priced ? *energy_priced : given;
  setup.model = lifetime_cost_model(inputs, priced);
  cap_serving_by_site(setup.power, setup.model, priced);
  setup.total_to_active = total_to_active_ratio(inputs.architecture);
  setup.inference_tokens = inputs.demand.total_tokens();
  setup.output_tokens = setup.inference_tokens > 0.0 ? inputs.demand.output_tokens() : 0.0;
  setup.loss = LossTerm(law);
  setup.max_pretrain_tokens = spec.max_pretrain_tokens;
  set_training_cluster(inputs.training, setup);
  // Repeated data first in the chain: it acts on the tokens themselves, the RL gain on the
  // data they are worth.
  if (inputs.data.unique_tokens) {
    setup.loss.then(std::make_shared<const RepetitionTransform>(law, *inputs.data.unique_tokens));
  }
  if (inputs.rl.returns) {
    // RL tokens become a decision variable, bounded below by the rollout tokens given.
    setup.loss.then(std::make_shared<const RlGainTransform>(
        *inputs.rl.returns, setup.model.rl_flops_per_param_token,
        std::max(1.0, inputs.rl.rollout_tokens)));
    if (spec.kind != ProblemKind::equal_cost) setup.model.rl_tokens = 0.0;
  }
  set_expert_choice(inputs.architecture, law, spec, setup);

  switch (spec.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
      // The loss of the rule's model of target_params parameters (as optimal_for_params).
      setup.target_loss = spec.target_loss ? *spec.target_loss
                                           : law.loss(*spec.target_params,
                                                      rule_tokens(setup.rule, *spec.target_params));
      break;
    case ProblemKind::max_quality:
      setup.budget =
          spec.budget_usd
              ? *spec.budget_usd
              : spec.budget_gpu_hours.value_or(spec.fleet_chips.value_or(0.0) *
                                               spec.fleet_seconds.value_or(0.0) / kSecondsPerHour);
      setup.min_params = spec.min_params;
      break;
    case ProblemKind::best_at_pretraining_budget:
      if (inputs.rl.returns) {
        throw InputError(
            "rl.returns: best-at-pretraining-budget prices pretraining alone, and chosen RL "
            "tokens would need a budget of their own (ask max-quality for a lifetime budget)");
      }
      set_pretraining_budget(inputs.training, spec, setup);
      break;
    case ProblemKind::equal_cost: {
      if (!spec.params && !has_architecture(inputs.architecture)) {
        throw InputError("problem.params: required for equal-cost without an architecture");
      }
      setup.heuristic_params = spec.params.value_or(inputs.architecture.active_param_count());
      setup.shares = spec.shares;
      setup.heuristic = equal_cost_tokens(setup.heuristic_params, setup.model, spec.shares,
                                          setup.unit, spec.max_pretrain_tokens);
      // The true optimum holds the heuristic's RL tokens (without [rl.returns]: the law has no
      // RL term, so RL is held fixed, not traded).
      setup.model.rl_tokens = setup.heuristic.rl_tokens;
      if (setup.loss.has_transforms()) {
        setup.target_loss = heuristic_loss(setup, setup.loss);
      } else {
        setup.target_loss = law.loss(setup.heuristic_params, setup.heuristic.pretrain_tokens);
      }
      break;
    }
  }
  return setup;
}

std::unique_ptr<Problem> optimisation_problem(const QuestionSetup& setup) {
  return std::make_unique<LifecycleProblem>(setup.terms(), setup.question());
}

std::string heuristic_cap_note(const QuestionSetup& setup) {
  if (!setup.heuristic.capped()) return {};
  return "problem.max_pretrain_tokens = " +
         format_quantity(*setup.max_pretrain_tokens, Unit::count) +
         " holds the heuristic's D below the " +
         format_quantity(setup.heuristic.share_pretrain_tokens, Unit::count) +
         " tokens its pretraining share buys: pretraining spends less than its share";
}

LifetimePlan heuristic_plan(const QuestionSetup& setup) {
  LifetimePlan plan = plan_at(setup.terms(), heuristic_counts(setup));
  plan.solve.status = Status::converged;
  plan.solve.algorithm = "closed form (equal-cost heuristic)";
  plan.solve.message = "closed form: shares of the lifetime cost fix the token budgets";
  if (setup.heuristic.capped()) plan.solve.message += "; " + heuristic_cap_note(setup);
  for (const double count : heuristic_counts(setup)) plan.solve.x.push_back(std::log(count));
  plan.solve.kkt_residual = 0.0;
  plan.solve.constraint_violation = 0.0;
  plan.reference_message = "a closed form: there is nothing to cross-check";
  return plan;
}

namespace {

// What the limit costs: the same question solved with unlimited fresh data (no repetition, no
// cap), by NLopt too, its answer against the limited one's in the objective's unit.
void add_data_limit_penalties(const QuestionSetup& setup, const SolverOptions& options,
                              QuestionSolution& solution) {
  if (!solution.answer.data_limit || (solution.optimum && !solution.optimum->data_limit)) return;
  const QuestionSetup free_setup = setup.unlimited();
  const auto cost_of = [&](const LifetimePlan& plan) {
    return in_unit(setup.unit, plan.cost.total());
  };
  const auto unconverged = [](const LifetimePlan& plan) {
    return "with unlimited data the question did not converge: " + plan.solve.message;
  };
  switch (setup.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost: {
      DataLimitAnswer& limit = *solution.answer.data_limit;
      const LifetimePlan free_plan = solve_question_plan(free_setup, options);
      if (!free_plan.solve.converged()) {
        limit.unlimited_message = unconverged(free_plan);
      } else if (solution.answer.plan.solve.converged()) {
        limit.cost = cost_of(solution.answer.plan) - cost_of(free_plan);
      }
      break;
    }
    case ProblemKind::max_quality:
    case ProblemKind::best_at_pretraining_budget: {
      DataLimitAnswer& limit = *solution.answer.data_limit;
      const LifetimePlan free_plan = solve_question_plan(free_setup, options);
      if (!free_plan.solve.converged()) {
        limit.unlimited_message = unconverged(free_plan);
      } else if (solution.answer.plan.solve.converged()) {
        limit.loss = solution.answer.plan.loss - free_plan.loss;
      }
      break;
    }
    case ProblemKind::equal_cost: {
      // The heuristic's plan is fixed by its shares: the limit costs it loss. The optimum at
      // the heuristic's (limited) loss costs more than with unlimited data at that loss.
      // Both losses in log space (LossTerm::at), so that a plan nothing repeats in pays 0.
      solution.answer.data_limit->loss =
          heuristic_loss(setup, setup.loss) - heuristic_loss(free_setup, free_setup.loss);
      DataLimitAnswer& limit = *solution.optimum->data_limit;
      const LifetimePlan free_plan = solve_question_plan(free_setup, options);
      if (!free_plan.solve.converged()) {
        limit.unlimited_message = unconverged(free_plan);
      } else if (solution.optimum->plan.solve.converged()) {
        limit.cost = cost_of(solution.optimum->plan) - cost_of(free_plan);
      }
      break;
    }
  }
}

}  // namespace

namespace {

// The dense model of the answer's loss: the same question at E = 1, asked as the cheapest plan
// reaching that loss in the question's unit (for max-quality too: the budget bought the loss).
void add_dense_alternative(const QuestionSetup& setup, const SolverOptions& options,
                           QuestionSolution& solution) {
  const LifetimePlan& plan = solution.answer.plan;
  if (plan.solve.status == Status::infeasible || !std::isfinite(plan.loss)) return;
  QuestionSetup dense = setup;
  dense.experts->min_experts = 1.0;
  dense.experts->max_experts = 1.0;
  if (dense.kind == ProblemKind::max_quality) dense.kind = ProblemKind::min_lifetime_cost;
  dense.target_loss = plan.loss;
  solution.dense = answer_for(solve_question_plan(dense, options), dense);
}

}  // namespace

QuestionSolution solve_question(const QuestionSetup& setup, const SolverOptions& options) {
  QuestionSolution solution;
  solution.kind = setup.kind;
  solution.unit = setup.unit;
  switch (setup.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
      solution.target_loss = setup.target_loss;
      solution.answer = answer_for(solve_question_plan(setup, options), setup);
      break;
    case ProblemKind::max_quality:
    case ProblemKind::best_at_pretraining_budget: {
      const LifetimePlan plan = solve_question_plan(setup, options);
      solution.target_loss = plan.loss;
      solution.answer = answer_for(plan, setup);
      break;
    }
    case ProblemKind::equal_cost: {
      // The thirds at the heuristic's N (its loss with the gain its RL tokens buy), then the
      // cheapest plan at that loss.
      const LifetimePlan heuristic = heuristic_plan(setup);
      solution.target_loss = setup.target_loss;
      solution.answer = answer_for(heuristic, setup);
      if (solution.answer.data_limit) {
        solution.answer.data_limit->heuristic_cap = heuristic_cap_note(setup);
      }
      solution.answer.path = SolvePath::closed_form;
      const LifetimePlan optimum = solve_question_plan(setup, options);
      solution.optimum = answer_for(optimum, setup);
      if (optimum.solve.converged()) {
        solution.heuristic_overpay = in_unit(setup.unit, heuristic.cost.total()) /
                                         in_unit(setup.unit, optimum.cost.total()) -
                                     1.0;
      }
      break;
    }
  }
  if (setup.limits_data()) add_data_limit_penalties(setup, options, solution);
  if (setup.experts) add_dense_alternative(setup, options, solution);
  settle_answers(solution);
  return solution;
}

}  // namespace scaleopt
