#pragma once
// The lifecycle questions of a scenario, answered end to end: what to minimise (or the
// heuristic to apply), the cost model of the scenario's setups with N and D free, the solve,
// and every answer set beside the equal-quality Chinchilla-style model.
//
//   min-lifetime-flops  cheapest plan in FLOPs reaching a target loss (Sardana et al., Eq. 3)
//   min-lifetime-cost   the same in dollars (inference by the roofline or by fixed MFUs)
//   equal-cost          the talk's heuristic for a given N, and its true optimum
//   max-quality         the lowest loss a lifetime budget buys, demand served from it
//   best-at-pretraining-budget  the lowest loss a pretraining budget buys, its lifetime costed

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/equal_cost/chinchilla_comparison.hpp"
#include "scaleopt/problems/equal_cost/equal_cost_heuristic.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

enum class ProblemKind {
  min_lifetime_flops,
  min_lifetime_cost,
  equal_cost,
  max_quality,
  best_at_pretraining_budget,
};
std::string_view to_string(ProblemKind kind);
// Whether the question minimises the loss (max-quality, best-at-pretraining-budget) rather
// than a cost.
constexpr bool minimises_loss(ProblemKind kind) {
  return kind == ProblemKind::max_quality || kind == ProblemKind::best_at_pretraining_budget;
}
// Whether the question chooses the model's size (and so, with a joint law, its experts): the
// heuristic's N is given and a pretraining budget prices no serving.
constexpr bool chooses_size(ProblemKind kind) {
  return kind == ProblemKind::min_lifetime_flops || kind == ProblemKind::min_lifetime_cost ||
         kind == ProblemKind::max_quality;
}
ProblemKind parse_problem_kind(std::string_view text);  // throws InputError listing the kinds

struct ProblemSpec {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  // min-lifetime-*: the target loss, or the size of the Chinchilla-style model whose quality
  // to match ("7B quality"): its loss at the rule's tokens.
  std::optional<double> target_loss;
  std::optional<double> target_params;
  // equal-cost: N (active parameters); absent: the architecture's.
  std::optional<double> params;
  CostShares shares;  // equal-cost: default one third each
  CostUnit shares_unit = CostUnit::usd;
  // max-quality: exactly one budget: dollars, accelerator-hours, or a fleet (chips for a
  // duration, i.e. chips * seconds / 3600 accelerator-hours).
  std::optional<double> budget_usd;
  std::optional<double> budget_gpu_hours;
  std::optional<double> fleet_chips;
  std::optional<double> fleet_seconds;
  double min_params = QualityAtBudgetOptions{}.min_params;
  // best-at-pretraining-budget: exactly one budget for pretraining alone, in dollars or
  // accelerator-hours (converted to FLOPs at the training setup's rate).
  std::optional<double> pretraining_budget_usd;
  std::optional<double> pretraining_budget_gpu_hours;
  // The Chinchilla-style rule of the comparison: D = r N, or the law's frontier when absent.
  std::optional<double> tokens_per_param;
  // A hard cap on the pretraining tokens (an inequality constraint D <= max); absent: none.
  std::optional<double> max_pretrain_tokens;
  // min-lifetime-*, max-quality with a joint dense/MoE law (costmodel/joint_loss_law.hpp):
  // whether the question chooses the experts (the paper's E) as well, within
  // [min_experts, max_experts] (equal: a fixed sparsity). The scenario loader sets it when the
  // law is joint and no key fixes the experts (law.experts, architecture.total_params).
  // Defaults: 1 (dense) and the largest E of the law's runs (32 for ludziejewski2025).
  bool choose_experts = false;
  std::optional<double> min_experts;
  std::optional<double> max_experts;

  // Throws InputError naming the key ("problem.target_loss: required for min-lifetime-flops").
  void validate() const;
};

// Whether a problem of `kind` reads the scenario key `key` of its [problem] table
// ("problem.target_loss", "problem.shares.rl"): kind, tokens_per_param and max_pretrain_tokens
// are read by every kind, the others by the kinds named in ProblemSpec's comments. What a kind
// does not read has no effect on its answer (the scenario loader warns about it).
bool problem_key_read(ProblemKind kind, std::string_view key);

// How a plan was found.
enum class SolvePath : unsigned char {
  closed_form,  // the equal-cost heuristic
  newton,       // the 1-D reduction by Newton's method (problems/question/question_fast.hpp)
  nlopt,        // NLopt with KKT polish, cross-checked by the 1-D reduction (solve_question)
};

// What a limited stock of data does to a plan (data.unique_tokens, problem.max_pretrain_tokens).
// NaN where a figure does not apply; `unlimited_message` says why the comparison with
// unlimited data is missing when it is.
struct DataLimitAnswer {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double unique_tokens = kNaN;     // U_D (NaN: only a cap)
  double epochs = kNaN;            // D / U_D
  double effective_tokens = kNaN;  // D': the fresh tokens the repeated ones are worth
  // The loss (nats) and the cost (in the question's unit) the limit adds against the same
  // question with unlimited fresh data: a loss question (max-quality) and the equal-cost
  // heuristic's fixed plan pay in loss, the cost questions in cost.
  double loss = kNaN;
  double cost = kNaN;
  // The cap's multiplier as what one more token of data is worth, in the objective's unit per
  // token (the question's unit, or nats for max-quality); 0 when the cap does not bind.
  double token_value = kNaN;
  std::string unlimited_message;
  // The equal-cost heuristic's plan: why its D is below what its pretraining share buys (the
  // cap holds it); empty otherwise.
  std::string heuristic_cap;
};

// A plan's pretraining run on its cluster (training.chips, training.max_chips,
// training.deadline). NaN where a figure does not apply.
struct TrainingRunAnswer {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // The chips: training.chips as given, or those the deadline needs in whole nodes (at most
  // training.max_chips); NaN with neither chips nor a deadline.
  double chips = kNaN;
  double days = kNaN;  // the pretraining wall time on them
  // What one more day of schedule is worth, -d objective* / d deadline: in the question's unit
  // per day, or nats per day for a loss question; 0 when the deadline does not bind, NaN when
  // it constrains nothing (the chips free, or no deadline).
  double deadline_value_per_day = kNaN;
  // best-at-pretraining-budget: the loss one more unit of the budget buys (nats per USD or per
  // accelerator-hour, positive), 0 when the budget does not bind.
  double budget_value = kNaN;
  // Whether the pretraining FLOPs are capped (a deadline on known chips, or a pretraining
  // budget): the answer then has the multipliers' fields.
  bool capped = false;
  // What sets the chips ("given", "the deadline", "the deadline, capped") and what caps the
  // FLOPs, in words: the budget's conversion, the deadline's chips.
  std::string chips_source;
  std::string cap_description;
};

// What a plan's chips draw at the meter and the energy of its life (power.* keys,
// costmodel/power_setup.hpp). NaN where a figure does not exist; each `*_reason` then says why
// (a chip of unknown power, no chips, no serving duration), for the JSON's "unavailable".
struct PowerAnswer {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double training_mw = kNaN;  // training_chips at facility power
  double serving_mw = kNaN;   // the serving fleet, mean chips busy, at facility power
  // Pretraining, RL and inference chip-hours at facility power.
  double energy_mwh = kNaN;
  double energy_usd = kNaN;  // energy_mwh at power.usd_per_kwh (included in the costs)
  double max_chips = kNaN;   // the training chips power.max_mw powers (not rounded)
  // power.site_includes_serving: the largest N whose serving fleet the site holds (NaN: no such
  // bound), and whether the plan sits on it (the fleet draws the whole site).
  double serving_max_params = kNaN;
  bool serving_capped = false;
  std::string training_reason, serving_reason, energy_reason, energy_usd_reason, max_chips_reason;
};

// One plan with everything a report needs.
struct QuestionAnswer {
  LifetimePlan plan;
  double active_params = 0.0;  // = plan.params
  double total_params = 0.0;   // scaled by the architecture's total / active ratio
  // The experts chosen (ProblemSpec::choose_experts): the paper's E of the plan; total_params
  // is then N_active m(E). Absent when the experts are fixed.
  std::optional<double> experts;
  double rl_tokens = 0.0;
  double inference_tokens = 0.0;
  double output_tokens = 0.0;                 // of inference_tokens, decoded
  CostShares shares;                          // of the total in the problem's unit
  double chinchilla_tokens = 0.0;             // the rule's D for this N
  double over_chinchilla = 0.0;               // pretrain tokens / chinchilla tokens
  ChinchillaComparison vs_chinchilla;         // the equal-quality Chinchilla-style model
  std::optional<RlReturnsAnswer> rl_returns;  // only with [rl.returns]
  std::optional<DataLimitAnswer> data_limit;  // only with limited data
  TrainingRunAnswer training;
  PowerAnswer power;
  // The serving fleet at the plan's N (roofline pricing with a demand): the replica (given or
  // chosen), its batch, the replicas and their use. Absent for a FLOPs question, fixed MFUs or
  // no plan.
  std::optional<FleetPlan> fleet;
  // The largest factor by which N or D lies outside the law's fitted range: 1 inside it, NaN
  // for a law without one (costmodel/law_reach.hpp).
  double law_extrapolation = std::numeric_limits<double>::quiet_NaN();
  SolvePath path = SolvePath::nlopt;  // how the plan was found
};

struct QuestionSolution {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  CostUnit unit = CostUnit::usd;  // what was minimised, budgeted or shared
  double target_loss = 0.0;       // the loss every plan here reaches (max-quality: the result)
  QuestionAnswer answer;          // the heuristic for equal-cost, else the optimum
  std::optional<QuestionAnswer> optimum;  // equal-cost: the true optimum at the same loss
  // The experts chosen: the dense model (E = 1) of the answer's loss, the cheapest in the
  // question's unit, beside the answer. Absent otherwise, or when the answer has no loss.
  std::optional<QuestionAnswer> dense;
  double heuristic_overpay = 0.0;  // equal-cost: heuristic cost / optimum cost - 1
  // converged only when every plan is; otherwise the first plan's status and message.
  Status status() const;
  const std::string& message() const;
};

// Throws InputError for invalid inputs (the key named). Infeasible questions come back with
// status infeasible and the reason.
QuestionSolution solve_question(const LifetimeInputs& inputs, const LossLaw& law,
                                const ProblemSpec& spec, const SolverOptions& options = {});

}  // namespace scaleopt
