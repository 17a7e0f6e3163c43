#include "scaleopt/problems/question/question_solve.hpp"

#include <array>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/question/question_setup.hpp"

namespace scaleopt {
namespace {

constexpr std::array<std::pair<ProblemKind, std::string_view>, 5> kKinds{{
    {ProblemKind::min_lifetime_flops, "min-lifetime-flops"},
    {ProblemKind::min_lifetime_cost, "min-lifetime-cost"},
    {ProblemKind::equal_cost, "equal-cost"},
    {ProblemKind::max_quality, "max-quality"},
    {ProblemKind::best_at_pretraining_budget, "best-at-pretraining-budget"},
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
  require_positive("pretraining_budget_usd", pretraining_budget_usd);
  require_positive("pretraining_budget_gpu_hours", pretraining_budget_gpu_hours);
  require_positive("tokens_per_param", tokens_per_param);
  require_positive("max_pretrain_tokens", max_pretrain_tokens);
  require_positive("min_experts", min_experts);
  require_positive("max_experts", max_experts);
  if (max_pretrain_tokens && !(*max_pretrain_tokens >= 1.0 && *max_pretrain_tokens <= 1e30)) {
    fail("max_pretrain_tokens", "must be a count of tokens in [1, 1e30]");
  }
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
    case ProblemKind::best_at_pretraining_budget:
      if (pretraining_budget_usd.has_value() == pretraining_budget_gpu_hours.has_value()) {
        fail("pretraining_budget_usd",
             "give exactly one pretraining budget for best-at-pretraining-budget: "
             "pretraining_budget_usd or pretraining_budget_gpu_hours (max-quality's budget_usd "
             "is a lifetime budget)");
      }
      break;
  }
}

bool problem_key_read(ProblemKind kind, std::string_view key) {
  if (!key.starts_with("problem.")) return false;
  key.remove_prefix(8);
  if (key == "kind" || key == "tokens_per_param" || key == "max_pretrain_tokens") return true;
  switch (kind) {
    case ProblemKind::min_lifetime_flops:
    case ProblemKind::min_lifetime_cost:
      return key == "target_loss" || key == "target_params" || key == "min_experts" ||
             key == "max_experts";
    case ProblemKind::equal_cost:
      return key == "params" || key.starts_with("shares.");
    case ProblemKind::max_quality:
      return key == "budget_usd" || key == "budget_gpu_hours" || key == "fleet_chips" ||
             key == "fleet_duration" || key == "min_params" || key == "min_experts" ||
             key == "max_experts";
    case ProblemKind::best_at_pretraining_budget:
      return key == "pretraining_budget_usd" || key == "pretraining_budget_gpu_hours";
  }
  return false;
}

Status QuestionSolution::status() const {
  if (answer.plan.solve.status != Status::converged) return answer.plan.solve.status;
  if (optimum && optimum->plan.solve.status != Status::converged) {
    return optimum->plan.solve.status;
  }
  return Status::converged;
}

const std::string& QuestionSolution::message() const {
  if (optimum && answer.plan.solve.status == Status::converged) return optimum->plan.solve.message;
  return answer.plan.solve.message;
}

QuestionSolution solve_question(const LifetimeInputs& inputs, const LossLaw& law,
                                const ProblemSpec& spec, const SolverOptions& options) {
  return solve_question(question_setup(inputs, law, spec), options);
}

}  // namespace scaleopt
