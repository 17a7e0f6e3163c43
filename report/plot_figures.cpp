#include "scaleopt/report/plot_figures.hpp"
#include "scaleopt/report/report_text.hpp"

#include <array>
#include <filesystem>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/plots/context_cost_figure.hpp"
#include "scaleopt/plots/isoloss_figure.hpp"
#include "scaleopt/plots/phases_figure.hpp"
#include "scaleopt/plots/sweep_figure.hpp"
#include "scaleopt/scenario/serving_inputs.hpp"

namespace scaleopt::report {
namespace {

constexpr std::array<std::pair<PlotKind, std::string_view>, 8> kKinds{{
    {PlotKind::isoloss, "isoloss"},
    {PlotKind::cost_vs_context, "cost-vs-context"},
    {PlotKind::cost_vs_context_models, "cost-vs-context-models"},
    {PlotKind::phases, "phases"},
    {PlotKind::sweep, "sweep"},
    {PlotKind::tornado, "tornado"},
    {PlotKind::uncertainty, "uncertainty"},
    {PlotKind::rl_shares, "rl-shares"},
}};

// The grid of plot rl-shares: G from "RL buys little" to beyond Davidson et al.'s "more than
// 20x", r_half over the range the published RL / pretraining ratios span (docs/model.md).
constexpr std::array<double, 10> kMaxGains{1.5, 2, 3, 5, 7, 10, 20, 30, 50, 100};
constexpr std::array<double, 5> kHalfRatios{0.001, 0.005, 0.02, 0.1, 0.5};

// The scenario's file name without its directories (titles never show a machine's paths).
const QuestionAnswer& best_answer(const QuestionSolution& solution) {
  return solution.optimum ? *solution.optimum : solution.answer;
}

plots::MapPoint point_of(const LifetimePlan& plan) {
  return {plan.params, plan.pretrain_tokens};
}

std::string plan_line(const LifetimePlan& plan) {
  return format_quantity(plan.params, Unit::count) + " params, " +
         format_quantity(plan.pretrain_tokens, Unit::count) + " tokens";
}

std::optional<plots::MapPoint> chinchilla_point(const QuestionAnswer& answer) {
  const LifetimePlan& chinchilla = answer.vs_chinchilla.chinchilla;
  if (chinchilla.solve.status == Status::infeasible || !(chinchilla.params > 0.0)) return {};
  return point_of(chinchilla);
}

std::string kind_title(const std::string& what, const Scenario& scenario,
                       const QuestionSolution& solution) {
  return what + ": " + file_name(scenario) + " (" + std::string(to_string(solution.kind)) + ")";
}

}  // namespace

std::string_view to_string(PlotKind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "isoloss";
}

std::string plot_kind_names() {
  std::string names;
  for (const auto& entry : kKinds) names += (names.empty() ? "" : ", ") + std::string(entry.second);
  return names;
}

PlotKind parse_plot_kind(std::string_view text) {
  for (const auto& [kind, name] : kKinds) {
    if (name == text) return kind;
  }
  throw InputError("KIND: unknown plot '" + std::string(text) + "': expected one of " +
                   plot_kind_names());
}

std::string lifecycle_assumptions(const Scenario& scenario, const QuestionSolution& solution) {
  std::string line = "law " + scenario.law->name;
  const InferenceDemand& demand = scenario.demand;
  line += "; " + format_scientific(solution.answer.inference_tokens, 3) + " inference tokens";
  if (demand.tokens_per_second && demand.duration_seconds) {
    line += " (" + format_quantity(*demand.tokens_per_second, Unit::per_second) + " for " +
            format_quantity(*demand.duration_seconds, Unit::seconds) + ")";
  }
  if (solution.kind == ProblemKind::min_lifetime_flops) {
    return line + "; cost in FLOPs: 6ND pretraining + 2N per served token";
  }
  const TrainingSetup& training = scenario.training;
  line += "; pretraining " + training.chip.id + " at " +
          price_text(training.usd_per_chip_hour, training.chip) + ", " + percent(training.mfu) +
          " MFU";
  const ServingSetup& serving = scenario.serving;
  line +=
      "; serving " + serving.chip.id + " at " + price_text(serving.usd_per_chip_hour, serving.chip);
  if (serving.pricing == InferencePricing::mfu) {
    line += ", prefill " + percent(serving.prefill_mfu) + " and decode " +
            percent(serving.decode_mfu.value_or(0.0)) + " MFU";
  } else {
    line += ", roofline on " + format_quantity(serving.chips, Unit::number) + " chips at " +
            format_exact_count(serving.context_tokens) + " context";
  }
  return line;
}

plots::Figure isoloss_of(const Scenario& scenario, const QuestionSolution& solution) {
  // The cost model of the question (for equal-cost with the heuristic's RL tokens).
  const QuestionSetup setup = scenario_setup(scenario);
  const LifetimeCostModel& model = setup.model;
  const QuestionAnswer& best = best_answer(solution);
  plots::IsolossMarks marks;
  marks.optimum = point_of(best.plan);
  marks.chinchilla = chinchilla_point(best);
  if (solution.optimum) marks.heuristic = point_of(solution.answer.plan);
  const AllocationRule rule{*scenario.law, scenario.problem.tokens_per_param};
  const plots::IsolossMap map =
      plots::isoloss_map(rule, model, solution.unit, solution.target_loss, marks);

  plots::IsolossText text;
  text.title = kind_title("Iso-loss map", scenario, solution);
  text.assumptions = lifecycle_assumptions(scenario, solution);
  text.unit = solution.unit;
  text.target_loss = solution.target_loss;
  if (minimises_loss(solution.kind)) text.target_note = "the best the budget buys";
  if (solution.kind == ProblemKind::equal_cost) text.target_note = "the heuristic's";
  const CostUnit unit = solution.unit;
  text.optimum_cost = in_unit(unit, best.plan.cost.total());
  if (marks.chinchilla) {
    text.chinchilla_cost = in_unit(unit, best.vs_chinchilla.chinchilla.cost.total());
  }
  if (marks.heuristic) text.heuristic_cost = in_unit(unit, solution.answer.plan.cost.total());
  text.frontier_name =
      rule.tokens_per_param
          ? "Chinchilla rule D = " + format_quantity(*rule.tokens_per_param, Unit::number, 4) + " N"
          : "compute-optimal frontier (" + rule.law.name + ")";
  return plots::isoloss_figure(map, marks, text);
}

plots::Figure phases_of(const Scenario& scenario, const QuestionSolution& solution) {
  const CostUnit unit = solution.unit;
  auto bar = [unit](const std::string& name, const LifetimePlan& plan) {
    return plots::PhaseBar{name + "\n" + plan_line(plan), in_unit(unit, plan.cost.pretrain),
                           in_unit(unit, plan.cost.rl), in_unit(unit, plan.cost.inference)};
  };
  std::vector<plots::PhaseBar> bars;
  const QuestionAnswer& best = best_answer(solution);
  if (solution.optimum) {
    bars.push_back(bar("heuristic (equal-cost shares)", solution.answer.plan));
    bars.push_back(bar("optimum (same loss)", best.plan));
  } else {
    bars.push_back(bar("optimum", best.plan));
  }
  std::string note;
  if (chinchilla_point(best)) {
    bars.push_back(bar("Chinchilla-style (same loss)", best.vs_chinchilla.chinchilla));
    // Its RL is the plan's rollout tokens at its own (larger or smaller) size, not a share
    // re-chosen for it: the reason its RL segment can dwarf the others.
    if (bars.back().rl > 0.0) {
      note = "RL held at\nthe plan's " + format_quantity(best.plan.rl_tokens, Unit::count, 3) +
             "\nrollout tokens,\npriced at this\nmodel's size";
    }
  }
  plots::PhasesText text;
  text.title = kind_title("Lifetime cost by phase", scenario, solution);
  text.assumptions = lifecycle_assumptions(scenario, solution);
  text.unit = unit;
  return plots::phases_figure(bars, text, note);
}

plots::Figure rl_shares_of(const Scenario& scenario, const SolverOptions& solver) {
  std::vector<std::array<double, 3>> rows;
  std::size_t left_out = 0;
  for (double half_ratio : kHalfRatios) {
    for (double max_gain : kMaxGains) {
      Scenario point = scenario;
      RlReturns& returns = point.rl.returns ? *point.rl.returns : point.rl.returns.emplace();
      returns.max_gain = max_gain;
      returns.half_ratio = half_ratio;
      const QuestionSolution solution = solve_question(scenario_setup(point), solver);
      const QuestionAnswer& best = best_answer(solution);
      if (!best.plan.solve.converged()) {
        ++left_out;
        continue;
      }
      rows.push_back({max_gain, best.shares.rl, half_ratio});
    }
  }
  if (rows.empty()) {
    throw InputError(scenario.file + ": no point of the max_gain x half_ratio grid converged");
  }
  plots::SweepText text;
  text.title = "Optimal RL share of the lifetime cost: " + file_name(scenario);
  const double steepness =
      scenario.rl.returns ? scenario.rl.returns->steepness : RlReturns{}.steepness;
  text.assumptions =
      "each point re-solved; steepness h = " + format_quantity(steepness, Unit::number, 3) +
      (left_out ? "; " + std::to_string(left_out) + " points did not converge" : "");
  auto number_text = [](double v) { return format_quantity(v, Unit::number, 3); };
  text.x = {"rl.returns.max_gain", "rl.returns.max_gain: the gain RL saturates at (G)",
            number_text};
  text.y = {"rl share",
            "RL share of the lifetime cost (" +
                std::string(to_string(scenario_setup(scenario).unit)) + ")",
            [](double v) { return percent(v); }};
  text.series = {"rl.returns.half_ratio", "r_half", number_text};
  text.mark_lowest = false;
  text.log_y_allowed = false;
  return plots::sweep_figure(plots::sweep_lines(rows), text);
}

plots::Figure cost_vs_context_of(const Scenario& scenario) {
  const ServingInputs inputs = serving_inputs(scenario);
  const Roofline roofline = inputs.roofline();
  const ServingSetup& setup = inputs.setup;
  plots::ContextCostText text;
  text.title = "Cost per token against context: " + inputs.model.name + " on " +
               describe_replica(inputs) + " (" + file_name(scenario) + ")";
  text.assumptions = price_text(setup.usd_per_chip_hour, setup.chip) + " per chip; " +
                     "best batch within HBM" +
                     (setup.latency_per_token_seconds ? " and the latency target" : "") +
                     "; compute at " + percent(setup.compute_efficiency) + ", bandwidth at " +
                     percent(setup.bandwidth_efficiency) + " of peak; KV " +
                     format_quantity(cached_bytes_per_token(roofline), Unit::bytes) + " per token";
  if (inputs.prices) text.price_list_name = inputs.prices->name;
  try {
    return plots::context_cost_figure(roofline, setup, inputs.prices, text, inputs.prefix);
  } catch (const InputError& e) {
    throw InputError(scenario.file + ": " + e.what());
  }
}

plots::Figure cost_vs_context_models_of(const Scenario& scenario) {
  if (scenario.compare_models.empty()) {
    throw InputError(scenario.file +
                     ": inference.compare_models: required for cost-vs-context-models (e.g. "
                     "\"deepseek-v3.2, deepseek-v4-pro\")");
  }
  const ServingSetup& base = scenario.serving;
  std::vector<plots::ModelContextCost> models;
  for (const std::string& name : scenario.compare_models) {
    plots::ModelContextCost model;
    const Architecture architecture = architecture_preset(name);
    model.setup = base;
    model.setup.batch.reset();
    model.setup.chips = default_replica_chips(architecture, base);
    model.label =
        name + ", " + format_quantity(model.setup.chips, Unit::number, 6) + " x " + base.chip.id;
    try {
      model.roofline = make_roofline(architecture, model.setup, "inference");
    } catch (const InputError& e) {
      throw InputError(scenario.file + ": " + e.what());
    }
    models.push_back(model);
  }
  plots::ContextCostText text;
  text.title = "Cost per token against context on " + base.chip.id + " (" +
               std::string(to_string(base.precision)) + " weights, " +
               std::string(to_string(base.kv_precision)) + " KV; " + file_name(scenario) + ")";
  text.assumptions = price_text(base.usd_per_chip_hour, base.chip) + " per chip; each model on " +
                     default_replica_text(base.chip) + "; best batch within HBM" +
                     (base.latency_per_token_seconds ? " and the latency target" : "") +
                     "; attention FLOPs " + (base.attention_flops ? "counted" : "not counted") +
                     "; compute at " + percent(base.compute_efficiency) + ", bandwidth at " +
                     percent(base.bandwidth_efficiency) + " of peak";
  try {
    return plots::context_cost_models_figure(models, text, "inference");
  } catch (const InputError& e) {
    throw InputError(scenario.file + ": " + e.what());
  }
}

}  // namespace scaleopt::report
