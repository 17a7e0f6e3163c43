#include "scaleopt/report/cost_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/report_text.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::report {
namespace {

constexpr double kTokensPerMillion = 1e6;

double share(const ComputeCost& part, const ComputeCost& total) {
  return total.usd > 0.0 ? part.usd / total.usd : 0.0;
}

Json phase_json(const ComputeCost& cost, const ComputeCost& total) {
  return Json{{"flops", cost.flops},
              {"gpu_hours", cost.chip_hours},
              {"usd", cost.usd},
              {"share", share(cost, total)}};
}

std::string model_text(const Architecture& a, const ServingSetup& serving) {
  // A model given by its totals alone has no KV figure (none is needed to train it): say so
  // rather than print 0 B as if it were one.
  const std::string kv =
      a.has_shape() || a.kv_bytes_per_token
          ? "KV " +
                format_quantity(a.cached_bytes_per_token(bytes_per_element(serving.kv_precision),
                                                         serving.kv_rope_bytes_per_element()),
                                Unit::bytes, 4) +
                " per token"
          : "KV per token not given";
  return a.name + ": " + format_quantity(a.active_param_count(), Unit::count, 4) + " active / " +
         format_quantity(a.total_param_count(), Unit::count, 4) + " total params, " + kv;
}

// Chips busy on average to serve the demand (rate form only): chip-hours over the duration.
std::optional<double> fleet_chips(const Scenario& s, const PhaseCosts& cost) {
  if (!s.demand.duration_seconds || *s.demand.duration_seconds <= 0.0) return std::nullopt;
  return cost.inference.total().chip_hours * kSecondsPerHour / *s.demand.duration_seconds;
}

}  // namespace

Json cost_json(const Scenario& s, const PhaseCosts& cost) {
  const ComputeCost total = cost.total();
  const ServingPlan& plan = cost.serving_plan;
  Json pretrain = phase_json(cost.pretraining.cost, total);
  pretrain["tokens"] = s.training.tokens;
  pretrain["matmul_flops"] = cost.pretraining.matmul_flops;
  pretrain["attention_flops"] = cost.pretraining.attention_flops;
  pretrain["wall_clock_seconds"] = cost.pretraining.wall_clock_seconds;
  pretrain["hardware"] = s.training.chip.id;

  Json rl = phase_json(cost.rl.total(), total);
  rl["rollout_tokens"] = s.rl.rollout_tokens;
  rl["flops_per_param_token"] = cost.rl.flops_per_param_token;
  rl["rollout"] = phase_json(cost.rl.rollout, total);
  rl["training"] = phase_json(cost.rl.training, total);
  rl["extra_passes"] = phase_json(cost.rl.extra_passes, total);

  Json inference = phase_json(cost.inference.total(), total);
  inference["tokens"] = s.demand.total_tokens();
  inference["prefill"] = phase_json(cost.inference.prefill, total);
  inference["prefill"]["tokens"] = s.demand.input_tokens();
  inference["decode"] = phase_json(cost.inference.decode, total);
  inference["decode"]["tokens"] = s.demand.output_tokens();
  inference["hardware"] = s.serving.chip.id;
  inference["chips_per_replica"] = s.serving.chips;
  inference["context"] = s.serving.context_tokens;
  inference["batch"] = plan.batch;
  inference["batch_bound"] = std::string(to_string(plan.bound));
  inference["usd_per_mtok_input"] = plan.input_token.usd * kTokensPerMillion;
  inference["usd_per_mtok_output"] = plan.output_token.usd * kTokensPerMillion;
  inference["output_input_ratio"] =
      plan.input_token.chip_hours > 0.0 ? Json(plan.output_input_ratio()) : Json(nullptr);
  const auto fleet = fleet_chips(s, cost);
  inference["fleet_chips"] = fleet ? Json(*fleet) : Json(nullptr);

  Json json{
      {"scenario", s.file},
      {"status",
       std::string(to_string(cost.converged() ? Status::converged : Status::not_converged))},
      {"message", plan.message},
      {"model", Json{{"name", s.architecture.name},
                     {"total_params", s.architecture.total_param_count()},
                     {"active_params", s.architecture.active_param_count()}}},
      {"pretrain", pretrain},
      {"rl", rl},
      {"inference", inference},
      {"total", Json{{"flops", total.flops}, {"gpu_hours", total.chip_hours}, {"usd", total.usd}}},
      {"assumptions", s.assumptions}};
  if (s.law && s.training.tokens > 0.0) {
    json["loss"] = s.law->loss(s.architecture.active_param_count(), s.training.tokens);
  }
  return json_document(json);
}

std::string cost_text(const Scenario& s, const PhaseCosts& cost) {
  std::ostringstream out;
  if (!cost.converged()) {
    out << "STATUS: not_converged: " << cost.serving_plan.message << "; " << cost.rl_plan.message
        << "\nThe serving batch below is the last iterate, not an "
        << "optimum; the costs depend on it.\n";
  }
  const ComputeCost total = cost.total();
  out << "Lifecycle cost of " << s.file << "\n";
  out << "  model: " << model_text(s.architecture, s.serving) << "\n";
  if (s.law && s.training.tokens > 0.0) {
    out << "  loss:  "
        << format_quantity(s.law->loss(s.architecture.active_param_count(), s.training.tokens),
                           Unit::number, 5)
        << " under law " << s.law->name << " at N = active params, D = pretraining tokens\n";
  }
  out << "\n";
  Table table;
  table.header({"phase", "FLOPs", "GPU-hours", "cost", "share"});
  std::string left_out;
  auto add = [&](const std::string& name, const ComputeCost& c) {
    // A phase the scenario does not have (no RL, no serving demand): one note, not a zero row.
    if (name != "total" && c.flops == 0.0 && c.chip_hours == 0.0 && c.usd == 0.0) {
      left_out += (left_out.empty() ? "" : ", ") + name;
      return;
    }
    table.cells({name, format_scientific(c.flops, 3), format_quantity(c.chip_hours, Unit::count),
                 format_quantity(c.usd, Unit::usd), percent(share(c, total))});
  };
  add("pretraining", cost.pretraining.cost);
  add("RL", cost.rl.total());
  add("prefill", cost.inference.prefill);
  add("decode", cost.inference.decode);
  add("total", total);
  table.print(out);
  if (!left_out.empty()) out << "  not in this scenario (0): " << left_out << "\n";
  out << "\n";
  Table details;
  if (s.training.tokens > 0.0) {
    std::string text = format_quantity(s.training.tokens, Unit::count) + " tokens on " +
                       s.training.chip.id + " (" + std::string(to_string(s.training.precision)) +
                       ", MFU " + format_quantity(s.training.mfu, Unit::number) + ", " +
                       price_text(s.training.usd_per_chip_hour, s.training.chip) + ")";
    if (cost.pretraining.attention_flops > 0.0) {
      text += "; attention " +
              percent(cost.pretraining.attention_flops / cost.pretraining.cost.flops) + " of FLOPs";
    }
    if (cost.pretraining.wall_clock_seconds > 0.0) {
      text += "; " + format_quantity(cost.pretraining.wall_clock_seconds, Unit::seconds) + " on " +
              format_quantity(s.training.cluster_chips, Unit::count) + " chips";
    }
    details.row("pretraining", text);
  }
  if (s.rl.rollout_tokens > 0.0) {
    details.row("RL", format_quantity(s.rl.rollout_tokens, Unit::count) +
                          " rollout tokens at context " +
                          format_exact_count(cost.rl_plan.context_tokens) + ", " +
                          percent(s.rl.trained_fraction) + " trained, " +
                          format_quantity(s.rl.extra_forward_passes, Unit::number) +
                          " extra forward passes; k = " +
                          format_quantity(cost.rl.flops_per_param_token, Unit::number) +
                          " FLOPs per active param per token");
  }
  const ServingPlan& plan = cost.serving_plan;
  if (s.demand.total_tokens() > 0.0 || s.rl.rollout_tokens > 0.0) {
    std::string demand = format_quantity(s.demand.total_tokens(), Unit::count) + " tokens";
    if (s.demand.tokens_per_second) {
      demand += " (" + format_quantity(*s.demand.tokens_per_second, Unit::per_second) + " for " +
                format_quantity(*s.demand.duration_seconds, Unit::seconds) + ")";
    }
    demand += ", " + percent(s.demand.output_fraction.value_or(0.0)) + " output";
    details.row("inference", demand);
    details.row("serving", format_quantity(s.serving.chips, Unit::number, 6) + " x " +
                               s.serving.chip.id + " per replica (" +
                               std::string(to_string(s.serving.precision)) +
                               (s.architecture.kv_bytes_per_token
                                    ? ""
                                    : ", KV " + std::string(to_string(s.serving.kv_precision))) +
                               ", " + price_text(s.serving.usd_per_chip_hour, s.serving.chip) +
                               "), context " + format_exact_count(s.serving.context_tokens) +
                               ", batch " + format_quantity(plan.batch, Unit::number, 4) + " (" +
                               std::string(to_string(plan.bound)) + ")");
    details.row("per Mtok",
                format_quantity(plan.input_token.usd * kTokensPerMillion, Unit::usd) + " input, " +
                    format_quantity(plan.output_token.usd * kTokensPerMillion, Unit::usd) +
                    " output (ratio " + format_quantity(plan.output_input_ratio(), Unit::number) +
                    ")");
    if (const auto fleet = fleet_chips(s, cost)) {
      details.row("fleet", format_quantity(*fleet, Unit::count) +
                               " chips busy on average to serve the demand");
    }
  }
  details.print(out);
  if (!s.assumptions.empty()) {
    out << "Assumptions (defaults the scenario did not set):\n";
    for (const std::string& a : s.assumptions) out << "  " << a << "\n";
  }
  return out.str();
}

}  // namespace scaleopt::report
