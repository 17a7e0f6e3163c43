#include "scaleopt/report/answer_fields_markdown.hpp"

#include "scaleopt/problems/question/answer_fields.hpp"

namespace scaleopt::report {
namespace {

std::string_view kind_text(AnswerFieldKind kind) {
  switch (kind) {
    case AnswerFieldKind::number:
      return "number";
    case AnswerFieldKind::status:
      return "status";
    case AnswerFieldKind::algorithm:
    case AnswerFieldKind::problem:
    case AnswerFieldKind::message:
    case AnswerFieldKind::fleet_text:
      return "text";
  }
  return "text";
}

// When a number of the group may be null (the reason is under "unavailable").
std::string_view null_when(const AnswerField& field) {
  if (field.kind != AnswerFieldKind::number) return "";
  switch (field.group) {
    case AnswerFieldGroup::plan:
      return "no plan (infeasible)";
    case AnswerFieldGroup::demand:
      return "never";
    case AnswerFieldGroup::usd:
      return "no plan; a FLOPs question";
    case AnswerFieldGroup::serving_hours:
      return "no plan; a FLOPs question";
    case AnswerFieldGroup::chinchilla:
      return "no plan; no equal-quality Chinchilla-style model";
    case AnswerFieldGroup::reference:
      return "not cross-checked (the fast path, a closed form, no reference)";
    case AnswerFieldGroup::data_limit:
      return "no plan; not applicable to the question (the reason says)";
    case AnswerFieldGroup::training:
      return "no plan; neither training.chips nor training.deadline given";
    case AnswerFieldGroup::training_cap:
      return "no plan; not applicable to the question (the reason says)";
    case AnswerFieldGroup::power:
      return "no plan; a chip of unknown power; no chips, serving duration or price to use "
             "(the reason says)";
    case AnswerFieldGroup::law_reach:
      return "no plan; a law without a fitted range";
    case AnswerFieldGroup::experts:
      return "no plan; the experts not chosen (a law of N and D alone, or fixed by law.experts "
             "or architecture.total_params)";
    case AnswerFieldGroup::fleet:
      return "no plan; a FLOPs question or fixed MFUs (no replica planned); replicas and "
             "utilisation without inference.duration";
    case AnswerFieldGroup::text:
      return "";
  }
  return "";
}

}  // namespace

std::string answer_fields_markdown() {
  std::string text =
      "| key | type | unit | CSV | meaning | null when |\n"
      "|---|---|---|---|---|---|\n";
  for (const AnswerField& field : answer_fields()) {
    text += "| `" + std::string(field.key) + "` | " + std::string(kind_text(field.kind)) + " | " +
            std::string(field.unit) + " | " + (field.in_csv() ? "yes" : "no") + " | " +
            std::string(field.meaning) +
            (field.presence == AnswerFieldPresence::rl_returns ? " (with `[rl.returns]` only)"
             : field.presence == AnswerFieldPresence::data_limit
                 ? " (with `data.unique_tokens` or `problem.max_pretrain_tokens` only)"
             : field.presence == AnswerFieldPresence::training_cap
                 ? " (with `training.deadline` on given or capped chips, or "
                   "best-at-pretraining-budget, only)"
                 : "") +
            " | " + std::string(null_when(field)) + " |\n";
  }
  for (const SolutionField& field : solution_fields()) {
    text += "| `" + std::string(field.key) + "` | number | " + std::string(field.unit) +
            " | yes | " + std::string(field.meaning) + " | the optimum did not converge |\n";
  }
  return text;
}

}  // namespace scaleopt::report
