#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/report_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/power_setup.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/question/answer_fields.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/question/question_summary.hpp"
#include "scaleopt/problems/serving/implied_mfu.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

// JSON has no NaN or infinity: such values become null.
Json number(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

// Why a figure of limited data is missing: what it needs that the question does not have.
std::string data_limit_reason(const AnswerField& field, const QuestionAnswer& answer,
                              const AnswerLayout& layout) {
  const std::string_view key = field.key;
  const bool unique_limited = answer.data_limit && std::isfinite(answer.data_limit->unique_tokens);
  if ((key == "unique_tokens" || key == "epochs" || key == "effective_tokens") && !unique_limited) {
    return "data.unique_tokens is not given: only the tokens are capped "
           "(problem.max_pretrain_tokens)";
  }
  if (key == "max_pretrain_tokens_value") {
    if (!answer.data_limit || std::isnan(answer.data_limit->token_value)) {
      return answer.plan.solve.converged() ? "no problem.max_pretrain_tokens"
                                           : "no answer: " + answer.plan.solve.message;
    }
  }
  if (answer.data_limit && !answer.data_limit->unlimited_message.empty()) {
    return answer.data_limit->unlimited_message;
  }
  if (key == "data_limit_loss") {
    return minimises_loss(layout.kind) ? "no answer: " + answer.plan.solve.message
                                       : "a cost question: the limit's price is data_limit_cost";
  }
  if (key == "data_limit_cost") {
    if (minimises_loss(layout.kind)) {
      return "a loss question: the limit's price is data_limit_loss";
    }
    if (answer.path == SolvePath::closed_form) {
      return "the equal-cost heuristic's plan is fixed by its shares: the limit's price is its "
             "loss (data_limit_loss)";
    }
  }
  return "no answer: " + answer.plan.solve.message;
}

// Why a power figure is missing: the reason PowerAnswer kept for it.
std::string power_reason(const AnswerField& field, const PowerAnswer& power) {
  const std::string_view key = field.key;
  const std::string& reason = key == "training_power_mw"  ? power.training_reason
                              : key == "serving_power_mw" ? power.serving_reason
                              : key == "energy_mwh"       ? power.energy_reason
                              : key == "energy_usd"       ? power.energy_usd_reason
                                                          : power.max_chips_reason;
  return reason.empty() ? std::string("not defined for this plan") : reason;
}

// Why the number of `field` is missing from `answer` (it is NaN): one line for the JSON's
// "unavailable".
std::string unavailable_reason(const AnswerField& field, const QuestionAnswer& answer,
                               const AnswerLayout& layout) {
  const SolveResult& solve = answer.plan.solve;
  if (solve.status == Status::infeasible) return "no plan: the question is infeasible (message)";
  switch (field.group) {
    case AnswerFieldGroup::usd:
      if (!is_priced(layout.kind)) return "a FLOPs question (min-lifetime-flops) has no prices";
      break;
    case AnswerFieldGroup::serving_hours:
      if (!is_priced(layout.kind)) {
        return "a FLOPs question (min-lifetime-flops) models no serving, so no RL or inference "
               "hours";
      }
      break;
    case AnswerFieldGroup::chinchilla:
      if (!answer.vs_chinchilla.chinchilla.solve.message.empty()) {
        return "no equal-quality Chinchilla-style model: " +
               answer.vs_chinchilla.chinchilla.solve.message;
      }
      return "no equal-quality Chinchilla-style model";
    case AnswerFieldGroup::reference:
      if (!answer.plan.reference_message.empty()) return answer.plan.reference_message;
      return "not cross-checked";
    case AnswerFieldGroup::data_limit:
      return data_limit_reason(field, answer, layout);
    case AnswerFieldGroup::training:
      if (solve.status == Status::converged) {
        return "the chips are free and no deadline is given: give training.chips (the wall "
               "time) or training.deadline (the chips it needs)";
      }
      break;
    case AnswerFieldGroup::power:
      return power_reason(field, answer.power);
    case AnswerFieldGroup::fleet:
      if (!is_priced(layout.kind)) return "a FLOPs question (min-lifetime-flops) plans no replica";
      if (solve.status == Status::converged) {
        if (!answer.fleet) {
          return "no replica is planned: serving at fixed MFUs (inference.pricing = \"mfu\") "
                 "or no demand";
        }
        return "elastic pricing (inference.elastic, or a demand without inference.duration) "
               "pays busy chip-hours only: no whole replicas";
      }
      break;
    case AnswerFieldGroup::law_reach:
      if (solve.status == Status::converged) {
        return "the law has no fitted range (given by its coefficients): whether the plan "
               "extrapolates it cannot be said";
      }
      break;
    case AnswerFieldGroup::experts:
      return "the experts are not chosen: the law sees N and D alone, or law.experts or "
             "architecture.total_params fixes them";
    case AnswerFieldGroup::training_cap:
      if (solve.status == Status::converged) {
        return field.key == "pretraining_budget_value"
                   ? "not a best-at-pretraining-budget question"
                   : "no deadline constrains the chips (training.deadline with training.chips "
                     "or training.max_chips)";
      }
      break;
    default:
      break;
  }
  if (solve.status != Status::converged) return "no answer: " + solve.message;
  return "not defined for this plan";
}

// `value` at the dotted `key` of `json` ("cost.pretrain.usd"), the objects made as needed in
// the order the keys come.
void put(Json& json, std::string_view key, Json value) {
  Json* node = &json;
  for (std::size_t dot = key.find('.'); dot != std::string_view::npos; dot = key.find('.')) {
    node = &(*node)[std::string(key.substr(0, dot))];
    key.remove_prefix(dot + 1);
  }
  (*node)[std::string(key)] = std::move(value);
}

// "chosen" / "given", or what binds the batch; null without a fleet.
Json fleet_text(std::string_view key, const QuestionAnswer& a) {
  if (!a.fleet || a.fleet->plan.status != Status::converged) return Json(nullptr);
  if (key == "replica_source") return std::string(a.fleet->replica_chosen ? "chosen" : "given");
  if (a.fleet->demand_bound && a.fleet->plan.bound != BatchBound::given) return "demand";
  return std::string(to_string(a.fleet->plan.bound));
}

// The JSON of one answer, from the table of answer fields; `unavailable` receives the reason
// of each number that does not exist, by its key.
Json answer_json(const QuestionAnswer& a, const AnswerLayout& layout, Json& unavailable) {
  const AnswerSummary numbers = summary_of(a, SolvePath::nlopt);
  Json json = Json::object();
  for (const AnswerField& field : answer_fields()) {
    if (!layout.has(field.presence)) continue;
    switch (field.kind) {
      case AnswerFieldKind::number: {
        const double value = field.number(numbers, layout);
        put(json, field.key, number(value));
        if (!std::isfinite(value)) {
          unavailable[std::string(field.key)] = unavailable_reason(field, a, layout);
        }
        break;
      }
      case AnswerFieldKind::problem:
        put(json, field.key, std::string(to_string(layout.kind)));
        break;
      case AnswerFieldKind::status:
        put(json, field.key, std::string(to_string(a.plan.solve.status)));
        break;
      case AnswerFieldKind::message:
        put(json, field.key, a.plan.solve.message);
        break;
      case AnswerFieldKind::algorithm:
        put(json, field.key, a.plan.solve.algorithm);
        break;
      case AnswerFieldKind::fleet_text:
        put(json, field.key, fleet_text(field.key, a));
        break;
    }
  }
  return json;
}

// The answer's JSON with its "unavailable" reasons, when it has any.
Json answer_json(const QuestionAnswer& a, const AnswerLayout& layout) {
  Json unavailable = Json::object();
  Json json = answer_json(a, layout, unavailable);
  if (!unavailable.empty()) json["unavailable"] = std::move(unavailable);
  return json;
}

std::string tokens_text(double tokens) {
  return format_scientific(tokens, 3) + " (" + format_quantity(tokens, Unit::count) + ")";
}

std::string cost_text(const PhaseCost& cost, CostUnit unit, bool priced, double share) {
  std::string text;
  if (priced) {
    text = format_quantity(cost.usd, Unit::usd);
  } else {
    text = format_scientific(cost.flops, 3) + " FLOPs";
  }
  if (unit == CostUnit::gpu_hours && priced) {
    text += ", " + format_quantity(cost.gpu_hours, Unit::count) + " GPU-h";
  }
  if (std::isfinite(share)) text += " (" + format_quantity(100 * share, Unit::number, 3) + "%)";
  return text;
}

std::string rule_text(const ProblemSpec& spec) {
  if (spec.tokens_per_param) {
    return format_quantity(*spec.tokens_per_param, Unit::number, 4) + " tokens per parameter";
  }
  return "the law's compute-optimal frontier";
}

std::string title_of(const QuestionSolution& s, const Scenario& scenario) {
  switch (s.kind) {
    case ProblemKind::min_lifetime_flops:
      return "Cheapest lifetime plan in FLOPs reaching loss " +
             format_quantity(s.target_loss, Unit::number, 5) + " (Sardana et al. 2024, Eq. 3)";
    case ProblemKind::min_lifetime_cost:
      return "Cheapest lifetime plan in dollars reaching loss " +
             format_quantity(s.target_loss, Unit::number, 5);
    case ProblemKind::equal_cost:
      return "Equal-cost heuristic (the talk) beside its true optimum at the same loss";
    case ProblemKind::max_quality:
      return "Best model the lifetime budget buys (" + scenario.file + ")";
    case ProblemKind::best_at_pretraining_budget:
      return "Best model the pretraining budget buys, its lifetime costed beside it (" +
             scenario.file + ")";
  }
  return "";
}

void add_rows(Table& table, const std::vector<const QuestionAnswer*>& answers, CostUnit unit,
              bool priced, const Scenario& scenario) {
  auto row = [&](const std::string& label, auto value_of) {
    std::vector<std::string> cells{label};
    for (const QuestionAnswer* a : answers) cells.push_back(value_of(*a));
    table.cells(cells);
  };
  row("params (active)",
      [](const QuestionAnswer& a) { return format_quantity(a.active_params, Unit::count, 4); });
  // A mixture of experts: its total beside the active parameters that price a token.
  if (std::any_of(answers.begin(), answers.end(), [](const QuestionAnswer* a) {
        return a->total_params > 0.0 && a->total_params != a->active_params;
      })) {
    row("params (total)",
        [](const QuestionAnswer& a) { return format_quantity(a.total_params, Unit::count, 4); });
  }
  // The experts chosen (a joint law): the paper's E, top-1 experts of FFN size.
  if (std::any_of(answers.begin(), answers.end(),
                  [](const QuestionAnswer* a) { return a->experts.has_value(); })) {
    row("experts (chosen)", [](const QuestionAnswer& a) {
      return a.experts ? format_quantity(*a.experts, Unit::number, 4) : std::string("-");
    });
  }
  row("pretraining tokens",
      [](const QuestionAnswer& a) { return tokens_text(a.plan.pretrain_tokens); });
  row("over Chinchilla", [](const QuestionAnswer& a) {
    return format_quantity(a.over_chinchilla, Unit::number, 4) +
           "x (rule: " + format_quantity(a.chinchilla_tokens, Unit::count) + ")";
  });
  row("RL tokens", [](const QuestionAnswer& a) { return tokens_text(a.rl_tokens); });
  if (answers.front()->rl_returns) {
    row("RL gain (x data), RL/pretrain FLOPs", [](const QuestionAnswer& a) {
      if (!a.rl_returns) return std::string("-");
      return format_quantity(a.rl_returns->gain, Unit::number, 4) + "x, " +
             format_quantity(a.rl_returns->compute_ratio, Unit::number, 4);
    });
  }
  if (answers.front()->data_limit) {
    const auto figure = [](double value, Unit u, int digits = 4) {
      return std::isfinite(value) ? format_quantity(value, u, digits) : std::string("-");
    };
    row("epochs (D / unique), effective tokens", [&](const QuestionAnswer& a) {
      if (!a.data_limit) return std::string("-");
      return figure(a.data_limit->epochs, Unit::number) + ", " +
             figure(a.data_limit->effective_tokens, Unit::count);
    });
    row("price of the data limit", [&](const QuestionAnswer& a) {
      if (!a.data_limit) return std::string("-");
      if (std::isfinite(a.data_limit->loss)) {
        return "+" + format_quantity(a.data_limit->loss, Unit::number, 4) + " nats";
      }
      if (std::isfinite(a.data_limit->cost)) {
        return "+" + format_quantity(a.data_limit->cost, Unit::number, 4) + " " +
               std::string(to_string(unit));
      }
      return std::string("-");
    });
  }
  row("inference tokens", [](const QuestionAnswer& a) { return tokens_text(a.inference_tokens); });
  row("loss",
      [](const QuestionAnswer& a) { return format_quantity(a.plan.loss, Unit::number, 6); });
  row("cost: pretraining", [&](const QuestionAnswer& a) {
    return cost_text(a.plan.cost.pretrain, unit, priced, a.shares.pretrain);
  });
  row("      RL", [&](const QuestionAnswer& a) {
    return cost_text(a.plan.cost.rl, unit, priced, a.shares.rl);
  });
  row("      inference", [&](const QuestionAnswer& a) {
    return cost_text(a.plan.cost.inference, unit, priced, a.shares.inference);
  });
  row("      total", [&](const QuestionAnswer& a) {
    return cost_text(a.plan.cost.total(), unit, priced, NAN) +
           (priced ? ", " + format_scientific(a.plan.cost.total().flops, 3) + " FLOPs" : "");
  });
  // Beside the dense model of the same loss: what serving one decoded token costs each.
  if (answers.size() > 1 && answers.back()->experts && answers.front()->output_tokens > 0.0) {
    row("inference per output token", [&](const QuestionAnswer& a) {
      const double per_token = in_unit(unit, a.plan.cost.inference) / a.output_tokens;
      return unit == CostUnit::usd
                 ? format_quantity(per_token * 1e6, Unit::usd) + "/Mtok"
                 : format_scientific(per_token, 4) + " " + std::string(to_string(unit));
    });
  }
  if (priced) {
    row("GPU-hours", [](const QuestionAnswer& a) {
      const LifetimeCost& c = a.plan.cost;
      return format_quantity(c.total().gpu_hours, Unit::count) + " (pretraining " +
             format_quantity(c.pretrain.gpu_hours, Unit::count) + ", RL " +
             format_quantity(c.rl.gpu_hours, Unit::count) + ", inference " +
             format_quantity(c.inference.gpu_hours, Unit::count) + ")";
    });
  }
  if (std::any_of(answers.begin(), answers.end(),
                  [](const QuestionAnswer* a) { return a->fleet.has_value(); })) {
    row("serving replica", [](const QuestionAnswer& a) {
      if (!a.fleet || a.fleet->plan.status != Status::converged) return std::string("-");
      const FleetPlan& f = *a.fleet;
      const bool demand = f.demand_bound && f.plan.bound != BatchBound::given;
      const std::string replica = format_quantity(f.replica_chips, Unit::count) + " chips (" +
                                  (f.replica_chosen ? "chosen" : "given") + "), ";
      // Below one sequence in flight the replica idles between requests: a batch of 0.47 is
      // not a batch, it is the demand's mean occupancy.
      if (demand && f.batch < 1.0) {
        return replica + "batch 1, " + format_quantity(f.batch, Unit::number, 3) +
               " sequences in flight on average (the demand's)";
      }
      return replica + "batch " + format_quantity(f.batch, Unit::number, 4) + " (" +
             (demand ? std::string("the demand's") : std::string(to_string(f.plan.bound))) + ")";
    });
    row("replicas paid", [](const QuestionAnswer& a) {
      if (!a.fleet || a.fleet->plan.status != Status::converged) return std::string("-");
      const FleetPlan& f = *a.fleet;
      if (f.elastic) return std::string("elastic: busy chip-hours only");
      return format_quantity(f.replicas, Unit::number, 4) +
             (f.replicas == 1.0 ? " replica (" : " replicas (") +
             format_quantity(f.whole_replicas, Unit::count) +
             " whole: " + format_quantity(f.whole_replicas_usd, Unit::usd) + "), " +
             format_quantity(100.0 * f.utilisation, Unit::number, 3) + "% busy, " +
             format_quantity(f.idle_chip_hours, Unit::count) + " idle chip-hours";
    });
  }
  if (std::any_of(answers.begin(), answers.end(),
                  [](const QuestionAnswer* a) { return std::isfinite(a->training.chips); })) {
    row("pretraining run", [](const QuestionAnswer& a) {
      if (!std::isfinite(a.training.chips)) return std::string("-");
      return format_quantity(a.training.days * kSecondsPerDay, Unit::seconds) + " on " +
             format_quantity(a.training.chips, Unit::count) + " chips (" + a.training.chips_source +
             ")";
    });
  }
  if (std::any_of(answers.begin(), answers.end(),
                  [](const QuestionAnswer* a) { return a->training.capped; })) {
    const bool loss = minimises_loss(scenario.problem.kind);
    const std::string per = loss ? "nats" : std::string(to_string(unit));
    row("pretraining cap", [](const QuestionAnswer& a) {
      if (!a.training.capped) return std::string("-");
      return a.training.cap_description;
    });
    row("a day of schedule", [per](const QuestionAnswer& a) {
      const double value = a.training.deadline_value_per_day;
      if (!std::isfinite(value)) return std::string("-");
      if (value == 0.0) return std::string("0: the deadline does not bind");
      return format_scientific(value, 4) + " " + per + " per day (the deadline binds)";
    });
    if (scenario.problem.kind == ProblemKind::best_at_pretraining_budget) {
      row("a unit of budget", [unit](const QuestionAnswer& a) {
        const double value = a.training.budget_value;
        if (!std::isfinite(value)) return std::string("-");
        return format_scientific(value, 4) + " nats per " +
               (unit == CostUnit::usd ? std::string("dollar") : std::string("GPU-hour"));
      });
    }
  }
  if (priced && scenario.demand.duration_seconds && *scenario.demand.duration_seconds > 0.0) {
    const double hours = *scenario.demand.duration_seconds / kSecondsPerHour;
    row("serving fleet", [hours](const QuestionAnswer& a) {
      // A fleet paid for the duration holds idle chips too: paid and busy are both said.
      if (a.fleet && a.fleet->plan.status == Status::converged && !a.fleet->elastic) {
        return format_quantity(a.fleet->chip_hours / hours, Unit::count, 4) + " chips paid, " +
               format_quantity(a.fleet->busy_chip_hours / hours, Unit::count, 4) +
               " busy on average";
      }
      return format_quantity(a.plan.cost.inference.gpu_hours / hours, Unit::count) +
             " chips busy on average";
    });
  }
  if (priced) {
    // The defaults behind every power figure are assumptions: said on the row itself.
    const PowerSetup& power = scenario.power;
    auto given = [&](std::string_view key) {
      return std::find(scenario.keys_given.begin(), scenario.keys_given.end(), key) !=
             scenario.keys_given.end();
    };
    const std::string basis =
        "TDP x (1 + " + format_quantity(power.node_overhead, Unit::number) + " node overhead" +
        (given("power.node_overhead") ? "" : " (assumed)") + ") x PUE " +
        format_quantity(power.pue, Unit::number) + (given("power.pue") ? "" : " (assumed)");
    row("power at the meter", [basis](const QuestionAnswer& a) {
      auto mw = [](double value) {
        return std::isfinite(value) ? format_quantity(value * kWattsPerMegawatt, Unit::watts)
                                    : std::string("-");
      };
      std::string text = "training " + mw(a.power.training_mw) + ", serving " +
                         mw(a.power.serving_mw) + " (" + basis + ")";
      if (a.power.serving_capped) {
        text += "; the site's limit binds the serving fleet: N at its largest, " +
                format_quantity(a.power.serving_max_params, Unit::count);
      }
      return text;
    });
    row("energy", [&power](const QuestionAnswer& a) {
      if (!std::isfinite(a.power.energy_mwh)) return "- (" + a.power.energy_reason + ")";
      std::string text = format_scientific(a.power.energy_mwh, 4) + " MWh";
      if (std::isfinite(a.power.energy_usd)) {
        text += ", " + format_quantity(a.power.energy_usd, Unit::usd) + " at $" +
                format_quantity(*power.usd_per_kwh, Unit::number) +
                "/kWh (included in the costs above)";
      }
      return text;
    });
  }
  row("vs Chinchilla, same loss", [](const QuestionAnswer& a) {
    const ChinchillaComparison& c = a.vs_chinchilla;
    // The reason, often long, is a note under the table (chinchilla_notes).
    if (c.chinchilla.solve.status == Status::infeasible) return std::string("n/a (note below)");
    return "params " + percent(c.params_ratio, 4) + ", tokens " + percent(c.tokens_ratio, 4) +
           ", cost " + percent(c.cost_ratio, 4);
  });
}

// How far a typed MFU may sit from the roofline's before a warning: 2x either way (the
// roofline's own inputs, efficiencies and context, are rarely known better).
constexpr double kMfuWarningFactor = 2.0;

}  // namespace

DecodeConsistency decode_consistency(const Scenario& scenario, const QuestionSolution& s) {
  DecodeConsistency result;
  if (s.kind == ProblemKind::min_lifetime_flops || !has_architecture(scenario.architecture)) {
    return result;
  }
  const ServingSetup& serving = scenario.serving;
  const bool typed = serving.pricing == InferencePricing::mfu;
  const auto& given = scenario.keys_given;
  if (typed && std::find(given.begin(), given.end(), "inference.hardware") == given.end()) {
    return result;
  }
  const double params = s.answer.plan.params > 0.0 ? s.answer.plan.params
                                                   : scenario.architecture.active_param_count();
  std::string why;
  const auto implied = implied_decode_mfu(scenario.architecture, serving, params, why);
  if (!implied) {
    if (typed)
      result.warnings.push_back("inference.decode_mfu: not checked against the roofline: " + why);
    return result;
  }
  result.decode_mfu_implied = implied->decode_mfu;
  if (!typed || !serving.decode_mfu) return result;
  const double ratio = *serving.decode_mfu / implied->decode_mfu;
  const std::string typed_mfu =
      "inference.decode_mfu = " + format_quantity(*serving.decode_mfu, Unit::number, 3);
  const std::string roofline =
      format_quantity(implied->decode_mfu, Unit::number, 3) + " for " +
      format_quantity(params, Unit::count) + " active parameters on " +
      format_quantity(serving.chips, Unit::number) + " " + serving.chip.id + " at " +
      format_quantity(serving.context_tokens, Unit::count) + " context (batch " +
      format_quantity(implied->batch, Unit::number, 3) + ", set by " + implied->bound +
      ", at inference.compute_efficiency " +
      format_quantity(serving.compute_efficiency, Unit::number, 3) + " and bandwidth_efficiency " +
      format_quantity(serving.bandwidth_efficiency, Unit::number, 3) + ")";
  if (ratio > kMfuWarningFactor) {
    // Faster than the chips can decode: the typed MFU cannot be right.
    result.warnings.push_back(typed_mfu + " is " + format_quantity(ratio, Unit::number, 3) +
                              "x the most the roofline allows, " + roofline +
                              ": check the MFU, or price by the roofline (inference.pricing = "
                              "\"roofline\")");
  } else if (ratio < 1.0 / kMfuWarningFactor) {
    // Slower than the roofline's best case: a choice the scenario made (the talk's decode at a
    // third of the training MFU), not an error; say what each number assumes.
    result.notes.push_back(typed_mfu + " is this scenario's assumption, " +
                           format_quantity(ratio, Unit::number, 3) +
                           "x what the roofline would reach, " + roofline +
                           "; for the serving cost derived from the roofline instead, set "
                           "inference.pricing = \"roofline\"");
  }
  return result;
}

Json solution_json(const Scenario& scenario, const LossLaw& law, const QuestionSolution& s) {
  const AnswerLayout layout{s.kind, s.answer.rl_returns.has_value(),
                            s.answer.data_limit.has_value(), s.answer.training.capped};
  Json unavailable = Json::object();
  Json json = answer_json(s.answer, layout, unavailable);
  if (s.optimum) {
    json["optimum"] = answer_json(*s.optimum, layout);
    json["optimum"]["extrapolated"] =
        extrapolated_json(law_of_answer(law, *s.optimum), s.optimum->active_params,
                          s.optimum->plan.pretrain_tokens, s.optimum->total_params);
    const QuestionSummary summary = summarize(s);
    for (const SolutionField& field : solution_fields()) {
      const double value = field.number(summary);
      json[std::string(field.key)] = number(value);
      if (!std::isfinite(value)) {
        unavailable[std::string(field.key)] = s.status() == Status::converged
                                                  ? "not defined for these plans"
                                                  : "no optimum to compare with: " + s.message();
      }
    }
  }
  if (s.dense) {
    // The experts chosen: the dense model of the same loss, and what one decoded token costs
    // to serve in each (the question's unit; null without a demand).
    json["dense"] = answer_json(*s.dense, layout);
    json["dense"]["extrapolated"] =
        extrapolated_json(law_of_answer(law, *s.dense), s.dense->active_params,
                          s.dense->plan.pretrain_tokens, s.dense->total_params);
    auto per_output_token = [&](const QuestionAnswer& a) {
      return a.output_tokens > 0.0 && a.plan.solve.status != Status::infeasible
                 ? number(in_unit(s.unit, a.plan.cost.inference) / a.output_tokens)
                 : Json(nullptr);
    };
    json["dense"]["inference_cost_per_output_token"] = per_output_token(*s.dense);
    json["inference_cost_per_output_token"] = per_output_token(s.answer);
  }
  if (!unavailable.empty()) json["unavailable"] = std::move(unavailable);
  json["unit"] = std::string(to_string(s.unit));
  // The law at the answer's N (active), D and chosen experts: what lies outside the runs it
  // was fitted on.
  const LossLaw answered = law_of_answer(law, s.answer);
  json["law"] = law_json(answered);
  json["extrapolated"] = extrapolated_json(answered, s.answer.active_params,
                                           s.answer.plan.pretrain_tokens, s.answer.total_params);
  json["rule"] = scenario.problem.tokens_per_param
                     ? Json{{"tokens_per_param", *scenario.problem.tokens_per_param}}
                     : Json("law");
  json["scenario"] = scenario.file;
  json["assumptions"] = scenario.assumptions;
  const DecodeConsistency decode = decode_consistency(scenario, s);
  if (decode.decode_mfu_implied) json["decode_mfu_implied"] = number(*decode.decode_mfu_implied);
  std::vector<std::string> warnings = scenario.warnings;
  warnings.insert(warnings.end(), decode.warnings.begin(), decode.warnings.end());
  warnings.insert(warnings.end(), decode.notes.begin(), decode.notes.end());
  if (!warnings.empty()) json["warnings"] = warnings;
  return json_document(json);
}

Table solution_table(const Scenario& scenario, const QuestionSolution& s) {
  const bool converged = s.status() == Status::converged;
  const bool priced = s.kind != ProblemKind::min_lifetime_flops;
  Table table(title_of(s, scenario));
  std::vector<const QuestionAnswer*> answers{&s.answer};
  if (s.optimum) {
    table.header(
        {"", "heuristic", converged ? "optimum (same loss)" : "last iterate (NOT optimal)"});
    answers.push_back(&*s.optimum);
  } else if (s.dense) {
    // The experts chosen: the dense model of the same loss beside the answer.
    table.header({"", converged ? "optimum" : "last iterate (NOT optimal)",
                  s.dense->plan.solve.converged()
                      ? "dense (E = 1), same loss"
                      : "dense: " + std::string(to_string(s.dense->plan.solve.status))});
    answers.push_back(&*s.dense);
  } else {
    table.header({"", converged ? "optimum" : "last iterate (NOT optimal)"});
  }
  add_rows(table, answers, s.unit, priced, scenario);
  return table;
}

Table chinchilla_table(const Scenario& scenario, const QuestionSolution& s) {
  const bool priced = s.kind != ProblemKind::min_lifetime_flops;
  const QuestionAnswer& best = s.optimum ? *s.optimum : s.answer;
  const LifetimePlan& chinchilla = best.vs_chinchilla.chinchilla;
  const bool compared = chinchilla.solve.status != Status::infeasible && chinchilla.params > 0.0;
  std::vector<const LifetimePlan*> plans{&best.plan};
  Table table("The plan beside the Chinchilla-style model of the same loss (rule: " +
              rule_text(scenario.problem) + ")");
  if (compared) {
    plans.push_back(&chinchilla);
    table.header({"", s.optimum ? "optimum" : "plan", "Chinchilla-style, same loss"});
  } else {
    table.header({"", s.optimum ? "optimum" : "plan"});
  }
  auto row = [&](const std::string& label, auto value_of) {
    std::vector<std::string> cells{label};
    for (const LifetimePlan* plan : plans) cells.push_back(value_of(*plan));
    table.cells(cells);
  };
  row("params (active)",
      [](const LifetimePlan& p) { return format_quantity(p.params, Unit::count, 4); });
  row("pretraining tokens", [](const LifetimePlan& p) { return tokens_text(p.pretrain_tokens); });
  row("tokens per parameter", [](const LifetimePlan& p) {
    return format_quantity(p.pretrain_tokens / p.params, Unit::number, 4);
  });
  row("loss", [](const LifetimePlan& p) { return format_quantity(p.loss, Unit::number, 6); });
  const CostUnit unit = s.unit;
  auto share_of = [unit](const LifetimePlan& p, const PhaseCost& phase) {
    return in_unit(unit, phase) / in_unit(unit, p.cost.total());
  };
  row("cost: pretraining", [&](const LifetimePlan& p) {
    return cost_text(p.cost.pretrain, unit, priced, share_of(p, p.cost.pretrain));
  });
  row("      RL", [&](const LifetimePlan& p) {
    return cost_text(p.cost.rl, unit, priced, share_of(p, p.cost.rl));
  });
  row("      inference", [&](const LifetimePlan& p) {
    return cost_text(p.cost.inference, unit, priced, share_of(p, p.cost.inference));
  });
  row("      total",
      [&](const LifetimePlan& p) { return cost_text(p.cost.total(), unit, priced, NAN); });
  return table;
}

std::vector<std::string> chinchilla_notes(const QuestionSolution& s) {
  std::vector<std::string> notes;
  for (const QuestionAnswer* a : {&s.answer, s.optimum ? &*s.optimum : nullptr}) {
    if (!a || a->vs_chinchilla.chinchilla.solve.status != Status::infeasible) continue;
    const std::string note =
        "vs Chinchilla, same loss: n/a: " + a->vs_chinchilla.chinchilla.solve.message;
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
  }
  return notes;
}

std::vector<std::string> solution_notes(const Scenario& scenario, const LossLaw& law,
                                        const QuestionSolution& s) {
  std::vector<std::string> notes = chinchilla_notes(s);
  if (s.answer.data_limit && !s.answer.data_limit->heuristic_cap.empty()) {
    notes.push_back(s.answer.data_limit->heuristic_cap);
  }
  if (s.optimum && s.status() == Status::converged) {
    notes.push_back("the heuristic overpays " + percent(s.heuristic_overpay, 4) +
                    " against the optimum, whose cost shares are pretraining " +
                    percent(s.optimum->shares.pretrain, 4) + ", RL " +
                    percent(s.optimum->shares.rl, 4) + ", inference " +
                    percent(s.optimum->shares.inference, 4));
  }
  const QuestionAnswer& reached = s.optimum ? *s.optimum : s.answer;
  notes.push_back("law " + describe_law(law_of_answer(law, reached)) +
                  "; Chinchilla rule: " + rule_text(scenario.problem));
  const LifetimePlan& last = s.optimum ? s.optimum->plan : s.answer.plan;
  std::string solver = "solver: " + last.solve.message;
  // A disagreement is the message itself; otherwise the agreement found.
  if (std::isfinite(last.reference_relative_difference) && last.solve.converged()) {
    solver +=
        "; 1-D reduction agrees to " + format_scientific(last.reference_relative_difference, 2);
  }
  notes.push_back(solver);
  return notes;
}

std::string solution_text(const Scenario& scenario, const LossLaw& law, const QuestionSolution& s) {
  std::ostringstream out;
  if (s.status() != Status::converged) {
    out << "STATUS: " << to_string(s.status()) << ": " << s.message() << "\n";
    out << "The numbers below are the solver's last iterate, not an optimum.\n";
  }
  solution_table(scenario, s).print(out);
  for (const std::string& note : solution_notes(scenario, law, s)) out << wrap_words(note);
  const QuestionAnswer& reached = s.optimum ? *s.optimum : s.answer;
  for (const std::string& note : reach_notes(law_of_answer(law, reached), reached.active_params,
                                             reached.plan.pretrain_tokens, reached.total_params)) {
    out << wrap_words(note);
  }
  const DecodeConsistency decode = decode_consistency(scenario, s);
  if (decode.decode_mfu_implied) {
    out << "  decode MFU the roofline gives at this N: "
        << format_quantity(*decode.decode_mfu_implied, Unit::number, 3) << "\n";
  }
  for (const std::string& warning : decode.warnings)
    out << wrap_words("Warning: " + warning, 100, "");
  for (const std::string& note : decode.notes) out << wrap_words("Note: " + note, 100, "");
  if (!scenario.assumptions.empty()) {
    out << "Assumptions (defaults the scenario did not set):\n";
    for (const std::string& line : scenario.assumptions) out << "  " << line << "\n";
  }
  return out.str();
}

}  // namespace scaleopt::report
