#include "scaleopt/problems/question/answer_fields.hpp"

#include <array>
#include <cmath>

#include "scaleopt/problems/question/question_setup.hpp"

namespace scaleopt {
namespace {

using Kind = AnswerFieldKind;
using Presence = AnswerFieldPresence;
using Group = AnswerFieldGroup;
using Layout = AnswerLayout;
constexpr double kNaN = AnswerSummary::kNaN;

// A plan's costs exist when the plan does; dollars only in a priced question.
bool costed(const AnswerSummary& a) {
  return a.status != Status::infeasible && std::isfinite(a.loss);
}
double flops(const AnswerSummary& a, const PhaseCost& phase) {
  return costed(a) ? phase.flops : kNaN;
}
double hours(const AnswerSummary& a, const Layout& l, const PhaseCost& phase, bool serving) {
  return costed(a) && (is_priced(l.kind) || !serving) ? phase.gpu_hours : kNaN;
}
double usd(const AnswerSummary& a, const Layout& l, const PhaseCost& phase) {
  return costed(a) && is_priced(l.kind) ? phase.usd : kNaN;
}

constexpr AnswerField number_field(std::string_view key, std::string_view unit, Group group,
                                   double (*number)(const AnswerSummary&, const Layout&),
                                   std::string_view meaning, Presence presence = Presence::always) {
  return {key, Kind::number, unit, presence, group, number, meaning};
}
constexpr AnswerField text_field(std::string_view key, Kind kind, std::string_view meaning) {
  return {key, kind, "", Presence::always, Group::text, nullptr, meaning};
}

// The phases of LifetimeCost by index, the total last.
PhaseCost phase_of(const LifetimeCost& cost, int phase) {
  switch (phase) {
    case 0:
      return cost.pretrain;
    case 1:
      return cost.rl;
    case 2:
      return cost.inference;
    default:
      return cost.total();
  }
}
template <int Phase>
double phase_flops(const AnswerSummary& a, const Layout&) {
  return flops(a, phase_of(a.cost, Phase));
}
// Pretraining's hours exist in every question (its MFU is given); the others only where
// serving is priced.
template <int Phase>
double phase_hours(const AnswerSummary& a, const Layout& l) {
  return hours(a, l, phase_of(a.cost, Phase), Phase != 0);
}
template <int Phase>
double phase_usd(const AnswerSummary& a, const Layout& l) {
  return usd(a, l, phase_of(a.cost, Phase));
}

constexpr std::array kAnswerFields{
    text_field("problem", Kind::problem, "the question asked (problem.kind)"),
    number_field(
        "params", "parameters", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.params; },
        "total parameters: the active ones times the architecture's total/active ratio"),
    number_field(
        "active_params", "parameters", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.active_params; },
        "active parameters N: what the loss law sees and what each token costs"),
    number_field(
        "experts", "experts", Group::experts,
        [](const AnswerSummary& a, const Layout&) { return a.experts; },
        "the experts chosen with a joint dense/MoE law: the paper's E, top-1 experts each as "
        "large as the dense FFN (1: dense); params is then N_active (1 - f + f E)"),
    number_field(
        "pretrain_tokens", "tokens", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.pretrain_tokens; },
        "pretraining tokens D"),
    number_field(
        "rl_tokens", "tokens", Group::demand,
        [](const AnswerSummary& a, const Layout&) { return a.rl_tokens; },
        "RL rollout tokens: the scenario's, or chosen with [rl.returns]"),
    number_field(
        "inference_tokens", "tokens", Group::demand,
        [](const AnswerSummary& a, const Layout&) { return a.inference_tokens; },
        "inference tokens served over the model's life, input and output"),
    number_field(
        "loss", "nats", Group::plan, [](const AnswerSummary& a, const Layout&) { return a.loss; },
        "the loss the plan reaches (with the RL gain under [rl.returns])"),
    number_field("cost.pretrain.flops", "FLOPs", Group::plan, phase_flops<0>, "pretraining FLOPs"),
    number_field("cost.pretrain.gpu_hours", "GPU-hours", Group::plan, phase_hours<0>,
                 "pretraining accelerator-hours"),
    number_field("cost.pretrain.usd", "USD", Group::usd, phase_usd<0>, "pretraining dollars"),
    number_field("cost.rl.flops", "FLOPs", Group::plan, phase_flops<1>,
                 "RL FLOPs (rollouts, updates, extra passes)"),
    number_field("cost.rl.gpu_hours", "GPU-hours", Group::serving_hours, phase_hours<1>,
                 "RL accelerator-hours"),
    number_field("cost.rl.usd", "USD", Group::usd, phase_usd<1>, "RL dollars"),
    number_field("cost.inference.flops", "FLOPs", Group::plan, phase_flops<2>,
                 "inference FLOPs (prefill and decode)"),
    number_field("cost.inference.gpu_hours", "GPU-hours", Group::serving_hours, phase_hours<2>,
                 "inference accelerator-hours"),
    number_field("cost.inference.usd", "USD", Group::usd, phase_usd<2>, "inference dollars"),
    number_field("cost.total.flops", "FLOPs", Group::plan, phase_flops<3>,
                 "the whole life's FLOPs"),
    number_field("cost.total.gpu_hours", "GPU-hours", Group::serving_hours, phase_hours<3>,
                 "the whole life's accelerator-hours"),
    number_field("cost.total.usd", "USD", Group::usd, phase_usd<3>, "the whole life's dollars"),
    number_field(
        "cost_shares.pretrain", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.shares.pretrain; },
        "pretraining's share of the total cost in the problem's unit"),
    number_field(
        "cost_shares.rl", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.shares.rl; },
        "RL's share of the total cost in the problem's unit"),
    number_field(
        "cost_shares.inference", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.shares.inference; },
        "inference's share of the total cost in the problem's unit"),
    number_field(
        "rl_returns.gain", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.rl_gain; },
        "the RL gain g(r): RL's worth as a multiple of the pretraining tokens",
        Presence::rl_returns),
    number_field(
        "rl_returns.compute_ratio", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.rl_compute_ratio; },
        "r = C_RL / C_pretrain in FLOPs", Presence::rl_returns),
    number_field(
        "chinchilla_tokens", "tokens", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.chinchilla_tokens; },
        "the Chinchilla-style rule's tokens for this N"),
    number_field(
        "over_chinchilla", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.over_chinchilla; },
        "pretraining tokens over the rule's tokens for this N"),
    number_field(
        "vs_chinchilla.params", "ratio", Group::chinchilla,
        [](const AnswerSummary& a, const Layout&) { return a.vs_params; },
        "N over the equal-quality Chinchilla-style model's"),
    number_field(
        "vs_chinchilla.tokens", "ratio", Group::chinchilla,
        [](const AnswerSummary& a, const Layout&) { return a.vs_tokens; },
        "D over the equal-quality Chinchilla-style model's"),
    number_field(
        "vs_chinchilla.cost", "ratio", Group::chinchilla,
        [](const AnswerSummary& a, const Layout&) { return a.vs_cost; },
        "the lifetime cost over the equal-quality Chinchilla-style model's (same RL, same demand)"),
    number_field(
        "vs_chinchilla.chinchilla_params", "parameters", Group::chinchilla,
        [](const AnswerSummary& a, const Layout&) { return a.chinchilla_params; },
        "the equal-quality Chinchilla-style model's N"),
    number_field(
        "vs_chinchilla.chinchilla_pretrain_tokens", "tokens", Group::chinchilla,
        [](const AnswerSummary& a, const Layout&) { return a.chinchilla_pretrain_tokens; },
        "the equal-quality Chinchilla-style model's D"),
    number_field(
        "unique_tokens", "tokens", Group::data_limit,
        [](const AnswerSummary& a, const Layout&) { return a.unique_tokens; },
        "the unique tokens available, U_D (data.unique_tokens)", Presence::data_limit),
    number_field(
        "epochs", "ratio", Group::data_limit,
        [](const AnswerSummary& a, const Layout&) { return a.epochs; },
        "passes over the unique tokens: D / U_D", Presence::data_limit),
    number_field(
        "effective_tokens", "tokens", Group::data_limit,
        [](const AnswerSummary& a, const Layout&) { return a.effective_tokens; },
        "D': the fresh tokens the D tokens seen are worth, repeats decaying (Muennighoff et al. "
        "2023)",
        Presence::data_limit),
    number_field(
        "data_limit_loss", "nats", Group::data_limit,
        [](const AnswerSummary& a, const Layout&) { return a.data_limit_loss; },
        "the loss the limit adds against unlimited fresh data: max-quality at the same budget, "
        "the equal-cost heuristic at its plan",
        Presence::data_limit),
    number_field(
        "data_limit_cost", "the question's unit", Group::data_limit,
        [](const AnswerSummary& a, const Layout&) { return a.data_limit_cost; },
        "the cost the limit adds against unlimited fresh data at the same loss, in the "
        "question's unit (min-lifetime-*, the equal-cost optimum)",
        Presence::data_limit),
    number_field(
        "max_pretrain_tokens_value", "the objective's unit per token", Group::data_limit,
        [](const AnswerSummary& a, const Layout&) { return a.max_pretrain_tokens_value; },
        "the cap's KKT multiplier: what one more token of data is worth, in the question's "
        "unit per token (nats per token for max-quality); 0 when the cap does not bind",
        Presence::data_limit),
    number_field(
        "training_chips", "chips", Group::training,
        [](const AnswerSummary& a, const Layout&) { return a.training_chips; },
        "the pretraining chips: training.chips, or what training.deadline needs in whole nodes "
        "(at most training.max_chips)"),
    number_field(
        "training_days", "days", Group::training,
        [](const AnswerSummary& a, const Layout&) { return a.training_days; },
        "the pretraining wall time on training_chips, at peak * MFU * goodput"),
    number_field(
        "deadline_value_per_day", "the objective's unit per day", Group::training_cap,
        [](const AnswerSummary& a, const Layout&) { return a.deadline_value_per_day; },
        "the deadline's KKT multiplier: what one more day of schedule is worth, in the "
        "question's unit per day (nats per day for a loss question); 0 when it does not bind",
        Presence::training_cap),
    number_field(
        "pretraining_budget_value", "nats per unit of budget", Group::training_cap,
        [](const AnswerSummary& a, const Layout&) { return a.pretraining_budget_value; },
        "best-at-pretraining-budget: the loss one more dollar (or accelerator-hour) of "
        "pretraining budget takes off; 0 when the budget does not bind",
        Presence::training_cap),
    number_field(
        "training_power_mw", "MW", Group::power,
        [](const AnswerSummary& a, const Layout&) { return a.training_power_mw; },
        "the training cluster's power at the meter: training_chips x TDP x (1 + "
        "power.node_overhead) x power.pue"),
    number_field(
        "serving_power_mw", "MW", Group::power,
        [](const AnswerSummary& a, const Layout&) { return a.serving_power_mw; },
        "the serving fleet's power at the meter: the chips paid on average over "
        "inference.duration (inference chip-hours / duration: idle replicas of a fleet paid "
        "for the duration stay powered, at TDP, an upper bound), at facility power per chip"),
    number_field(
        "energy_mwh", "MWh", Group::power,
        [](const AnswerSummary& a, const Layout&) { return a.energy_mwh; },
        "the life's energy at the meter: pretraining, RL and inference chip-hours at each "
        "chip's facility power"),
    number_field(
        "energy_usd", "USD", Group::power,
        [](const AnswerSummary& a, const Layout&) { return a.energy_usd; },
        "energy_mwh at power.usd_per_kwh: already included in the costs (each chip-hour's "
        "price carries its energy)"),
    number_field(
        "power_max_chips", "chips", Group::power,
        [](const AnswerSummary& a, const Layout&) { return a.power_max_chips; },
        "the training chips power.max_mw powers, max_mw / (TDP x (1 + node_overhead) x pue), "
        "not rounded: the cap on training_chips when below training.max_chips"),
    number_field(
        "law_extrapolation", "ratio", Group::law_reach,
        [](const AnswerSummary& a, const Layout&) { return a.law_extrapolation; },
        "how far the plan lies outside the runs the law was fitted on: the largest of N and D's "
        "factors beyond the law's fitted_range (1 inside it; the JSON's extrapolated lists "
        "each)"),
    number_field(
        "replica_chips", "chips", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.replica_chips; },
        "chips per serving replica: inference.chips, or chosen with N (whole nodes, the cheapest "
        "for the demand, ties to the smallest; replica_source says which)"),
    number_field(
        "batch", "sequences", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.serving_batch; },
        "sequences per decode step: the replica's best batch (binding says what stops it), or "
        "at one replica the sequences the peak demand keeps in flight (binding = demand)"),
    number_field(
        "replicas", "replicas", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.replicas; },
        "replicas paid for inference.duration: peak_to_mean x the mean busy, at least one; "
        "continuous above one (elastic: the mean busy)"),
    number_field(
        "whole_replicas", "replicas", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.whole_replicas; },
        "replicas rounded up to a whole number (not what the cost is priced at)"),
    number_field(
        "whole_replicas_usd", "USD", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.whole_replicas_usd; },
        "inference's dollars at whole_replicas for the whole duration"),
    number_field(
        "utilisation", "ratio", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.utilisation; },
        "busy over paid replica time: below 1 where the fleet is sized for a peak or one replica "
        "is more than the demand needs (1 when elastic)"),
    number_field(
        "idle_chip_hours", "GPU-hours", Group::fleet,
        [](const AnswerSummary& a, const Layout&) { return a.idle_chip_hours; },
        "inference chip-hours paid but not busy at the best batch (0 when elastic)"),
    text_field("replica_source", Kind::fleet_text,
               "chosen (inference.chips absent: chosen with N) or given (inference.chips); null "
               "without a serving fleet"),
    text_field("binding", Kind::fleet_text,
               "what fixes the batch, as roofline --json says it: compute-bound (the ridge), "
               "HBM full, latency target, given, or demand (one replica serves more than the "
               "peak); null without a serving fleet"),
    text_field("status", Kind::status,
               "converged, infeasible, not_converged or invalid_input: no other is an answer"),
    text_field("message", Kind::message, "one line on how the solve ended"),
    text_field("algorithm", Kind::algorithm,
               "how the plan was found: NLopt's algorithm, 1-D Newton (the fast path) or the "
               "equal-cost heuristic's closed form"),
    number_field(
        "kkt_residual", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.kkt_residual; },
        "the relative KKT residual at the plan (converged: at most the solver's tolerance)"),
    number_field(
        "constraint_violation", "ratio", Group::plan,
        [](const AnswerSummary& a, const Layout&) { return a.constraint_violation; },
        "the largest violation of a constraint, in its own relative scale"),
    number_field(
        "reference_relative_difference", "ratio", Group::reference,
        [](const AnswerSummary& a, const Layout&) { return a.reference_relative_difference; },
        "NLopt against the independent reduction: the largest relative difference in N, D or "
        "D_RL"),
};

constexpr std::array kSolutionFields{
    SolutionField{"heuristic_overpay", "ratio",
                  [](const QuestionSummary& s) { return s.heuristic_overpay; },
                  "equal-cost: the heuristic's cost over the optimum's, less one"},
};

}  // namespace

std::span<const AnswerField> answer_fields() {
  return kAnswerFields;
}

namespace {

// The fields of a CSV row for each combination of the optional groups, made at compile time.
template <bool RlReturns, bool DataLimit, bool TrainingCap>
constexpr bool in_row(const AnswerField& field) {
  const AnswerLayout layout{ProblemKind::min_lifetime_cost, RlReturns, DataLimit, TrainingCap};
  return field.in_csv() && layout.has(field.presence);
}
template <bool RlReturns, bool DataLimit, bool TrainingCap>
constexpr std::size_t row_field_count() {
  std::size_t count = 0;
  for (const AnswerField& field : kAnswerFields) {
    count += in_row<RlReturns, DataLimit, TrainingCap>(field);
  }
  return count;
}
template <bool RlReturns, bool DataLimit, bool TrainingCap>
constexpr auto row_fields() {
  std::array<const AnswerField*, row_field_count<RlReturns, DataLimit, TrainingCap>()> fields{};
  std::size_t next = 0;
  for (const AnswerField& field : kAnswerFields) {
    if (in_row<RlReturns, DataLimit, TrainingCap>(field)) fields[next++] = &field;
  }
  return fields;
}
using Fields = std::span<const AnswerField* const>;
template <bool TrainingCap>
struct RowFieldLists {
  static constexpr auto plain = row_fields<false, false, TrainingCap>();
  static constexpr auto rl = row_fields<true, false, TrainingCap>();
  static constexpr auto data = row_fields<false, true, TrainingCap>();
  static constexpr auto rl_data = row_fields<true, true, TrainingCap>();
  static Fields of(const AnswerLayout& layout) {
    if (layout.rl_returns) return layout.data_limit ? Fields(rl_data) : Fields(rl);
    return layout.data_limit ? Fields(data) : Fields(plain);
  }
};

}  // namespace

std::span<const AnswerField* const> csv_fields(const AnswerLayout& layout) {
  return layout.training_cap ? RowFieldLists<true>::of(layout) : RowFieldLists<false>::of(layout);
}

std::span<const SolutionField> solution_fields() {
  return kSolutionFields;
}

AnswerLayout answer_layout(const QuestionSetup& setup) {
  return {setup.kind, setup.chooses_rl_tokens(), setup.limits_data(), setup.caps_training()};
}

}  // namespace scaleopt
