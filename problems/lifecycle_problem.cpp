#include "problems/lifecycle_problem.hpp"

#include <array>
#include <cmath>
#include <sstream>

#include "costmodel/input_error.hpp"
#include "problems/lifetime_at_loss.hpp"
#include "problems/lifetime_cost_from_setup.hpp"

namespace scaleopt {
namespace {

constexpr std::array<std::pair<ProblemKind, std::string_view>, 4> kKinds{{
    {ProblemKind::min_lifetime_flops, "min-lifetime-flops"},
    {ProblemKind::min_lifetime_cost, "min-lifetime-cost"},
    {ProblemKind::equal_cost, "equal-cost"},
    {ProblemKind::max_quality, "max-quality"},
}};

[[noreturn]] void fail(std::string_view key, const std::string& what) {
  throw field_error("problem." + std::string(key), what);
}

void require_positive(std::string_view key, const std::optional<double>& value) {
  if (value && !(*value > 0.0 && std::isfinite(*value))) {
    std::ostringstream message;
    message << "must be positive, got " << *value;
    fail(key, message.str());
  }
}

LifecycleAnswer answer_for(const LifetimePlan& plan, const AllocationRule& rule,
                           const LifetimeCostModel& model, const LifecycleInputs& inputs) {
  LifecycleAnswer answer;
  answer.plan = plan;
  answer.active_params = plan.params;
  answer.total_params = plan.params * total_to_active_ratio(inputs.architecture);
  answer.rl_tokens = model.rl_tokens;
  answer.inference_tokens = inputs.demand.total_tokens();
  if (plan.solve.status == Status::infeasible) return answer;
  answer.shares = cost_shares(plan.cost, plan.unit);
  answer.chinchilla_tokens = optimal_for_params(rule, plan.params).tokens;
  answer.over_chinchilla = plan.pretrain_tokens / answer.chinchilla_tokens;
  answer.vs_chinchilla = compare_with_chinchilla(rule, plan, model);
  return answer;
}

}  // namespace

std::string_view to_string(ProblemKind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "min-lifetime-cost";
}

ProblemKind parse_problem_kind(std::string_view text) {
  std::string known;
  for (const auto& [kind, name] : kKinds) {
    if (name == text) return kind;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  throw InputError("unknown problem '" + std::string(text) + "': expected one of " + known);
}

void ProblemSpec::validate() const {
  require_positive("target_loss", target_loss);
  require_positive("target_params", target_params);
  require_positive("params", params);
  require_positive("budget_usd", budget_usd);
  require_positive("budget_gpu_hours", budget_gpu_hours);
  require_positive("fleet_chips", fleet_chips);
  require_positive("fleet_duration", fleet_seconds);
  require_positive("tokens_per_param", tokens_per_param);
  if (!(min_params >= 1.0 && std::isfinite(min_params))) fail("min_params", "must be >= 1");
  const std::string kind_name(to_string(kind));
  switch (kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
      if (target_loss.has_value() == target_params.has_value()) {
        fail("target_loss", "give exactly one of target_loss or target_params for " + kind_name);
      }
      break;
    case ProblemKind::equal_cost:
      try {
        shares.validate();
      } catch (const InputError& e) {
        throw InputError("problem." + std::string(e.what()));
      }
      break;
    case ProblemKind::max_quality: {
      const int budgets = budget_usd.has_value() + budget_gpu_hours.has_value() +
                          (fleet_chips.has_value() || fleet_seconds.has_value());
      if (budgets != 1) {
        fail("budget_usd",
             "give exactly one budget for max-quality: budget_usd, budget_gpu_hours, or "
             "fleet_chips with fleet_duration");
      }
      if (fleet_chips.has_value() != fleet_seconds.has_value()) {
        fail(fleet_chips ? "fleet_duration" : "fleet_chips",
             "fleet_chips and fleet_duration go together");
      }
      break;
    }
  }
}

CostUnit cost_unit_of(const ProblemSpec& spec) {
  switch (spec.kind) {
    case ProblemKind::min_lifetime_flops:
      return CostUnit::flops;
    case ProblemKind::min_lifetime_cost:
      return CostUnit::usd;
    case ProblemKind::equal_cost:
      return spec.shares_unit;
    case ProblemKind::max_quality:
      return spec.budget_usd ? CostUnit::usd : CostUnit::gpu_hours;
  }
  return CostUnit::usd;
}

Status LifecycleSolution::status() const {
  if (answer.plan.solve.status != Status::converged) return answer.plan.solve.status;
  if (optimum && optimum->plan.solve.status != Status::converged) {
    return optimum->plan.solve.status;
  }
  return Status::converged;
}

const std::string& LifecycleSolution::message() const {
  if (optimum && answer.plan.solve.status == Status::converged) return optimum->plan.solve.message;
  return answer.plan.solve.message;
}

LifecycleSolution solve_lifecycle(const LifecycleInputs& inputs, const LossLaw& law,
                                  const ProblemSpec& spec, const SolverOptions& options) {
  spec.validate();
  law.validate("law");
  const AllocationRule rule{law, spec.tokens_per_param};
  LifecycleSolution solution;
  solution.kind = spec.kind;
  solution.unit = cost_unit_of(spec);
  const bool priced = spec.kind != ProblemKind::min_lifetime_flops;
  const LifetimeCostModel model = lifetime_cost_model(inputs, priced);

  switch (spec.kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost: {
      solution.target_loss =
          spec.target_loss ? *spec.target_loss : optimal_for_params(rule, *spec.target_params).loss;
      const LifetimePlan plan =
          min_lifetime_cost_at_loss(law, solution.target_loss, model, solution.unit, options);
      solution.answer = answer_for(plan, rule, model, inputs);
      break;
    }
    case ProblemKind::max_quality: {
      const double budget =
          spec.budget_usd
              ? *spec.budget_usd
              : spec.budget_gpu_hours.value_or(spec.fleet_chips.value_or(0.0) *
                                               spec.fleet_seconds.value_or(0.0) / kSecondsPerHour);
      const LifetimePlan plan =
          max_quality_at_budget(law, model, solution.unit, budget, {spec.min_params}, options);
      solution.target_loss = plan.loss;
      solution.answer = answer_for(plan, rule, model, inputs);
      break;
    }
    case ProblemKind::equal_cost: {
      if (!spec.params && !has_architecture(inputs.architecture)) {
        throw InputError("problem.params: required for equal-cost without an architecture");
      }
      const double params = spec.params.value_or(inputs.architecture.active_param_count());
      const EqualCostPlan heuristic =
          equal_cost_plan(law, params, model, spec.shares, solution.unit);
      LifetimeCostModel with_rl = model;
      with_rl.rl_tokens = heuristic.rl_tokens;
      solution.target_loss = heuristic.plan.loss;
      solution.answer = answer_for(heuristic.plan, rule, with_rl, inputs);
      const LifetimePlan optimum =
          min_lifetime_cost_at_loss(law, heuristic.plan.loss, with_rl, solution.unit, options);
      solution.optimum = answer_for(optimum, rule, with_rl, inputs);
      if (optimum.solve.converged()) {
        solution.heuristic_overpay = in_unit(solution.unit, heuristic.plan.cost.total()) /
                                         in_unit(solution.unit, optimum.cost.total()) -
                                     1.0;
      }
      break;
    }
  }
  return solution;
}

}  // namespace scaleopt
