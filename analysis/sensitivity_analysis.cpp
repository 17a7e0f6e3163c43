#include "scaleopt/analysis/sensitivity_analysis.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

const LifetimePlan& optimum_plan(const QuestionSolution& solution) {
  return solution.optimum ? solution.optimum->plan : solution.answer.plan;
}

// Closest allowed value to `value` within `range` (closed bounds only; an open bound is never
// reached by scaling a value inside it by a positive factor).
double clamp_to(const Range& range, double value) {
  return std::clamp(value, range.lower, range.upper);
}

// The question re-solved with the input at `value`.
TornadoSide solved_at(const Scenario& scenario, const NumericInput& input, double value,
                      const SensitivityAnalysisOptions& options) {
  TornadoSide side;
  side.value = value;
  try {
    const QuestionSetup setup = setup_with(scenario, input.path, side.value);
    const QuestionSummary summary = solve_question_summary(setup, options.solver, options.method);
    side.status = summary.status();
    if (side.status == Status::converged) {
      side.outputs = outputs_of(summary.has_optimum ? summary.optimum : summary.answer, setup.unit);
    } else {
      side.message = std::string(to_string(side.status));
    }
  } catch (const InputError& e) {
    side.status = Status::invalid_input;
    side.message = e.what();
  }
  return side;
}

// The input moved by `factor` within its range; a whole number to the nearest whole value at
// least one step away, and at least 1 (0 means "not used" for a shape field).
double moved_value(const NumericInput& input, const Range& range, double factor) {
  if (!input.whole_number) return clamp_to(range, input.value * factor);
  double moved = std::round(input.value * factor);
  moved = factor < 1.0 ? std::min(moved, input.value - 1.0) : std::max(moved, input.value + 1.0);
  return clamp_to(range, std::max(moved, 1.0));
}

// d ln y / d ln p of a whole-number input as a secant over whole steps: between the outputs at
// p - 1 and p + 1 where both have an answer, else the one step there is and the base.
Elasticity whole_step_elasticity(double value, const OutputValues& base, const TornadoSide& down,
                                 const TornadoSide& up) {
  Elasticity e;
  const bool has_down = down.status == Status::converged && down.value < value;
  const bool has_up = up.status == Status::converged && up.value > value;
  if (!has_down && !has_up) {
    e.status = Status::invalid_input;
    e.message = "a whole number with no answer one step either way (" +
                (down.message.empty() ? up.message : down.message) + ")";
    return e;
  }
  const OutputValues& low = has_down ? down.outputs : base;
  const OutputValues& high = has_up ? up.outputs : base;
  const double log_low = std::log(has_down ? down.value : value);
  const double log_high = std::log(has_up ? up.value : value);
  for (std::size_t j = 0; j < e.values.size(); ++j) {
    e.values[j] = (std::log(high[j]) - std::log(low[j])) / (log_high - log_low);
  }
  e.status = Status::converged;
  e.stencil = has_down && has_up ? "whole steps" : has_up ? "whole step up" : "whole step down";
  return e;
}

// The equal-cost heuristic's plan (a closed form) with the input at `value`.
TornadoSide heuristic_at(const Scenario& scenario, const NumericInput& input, double value) {
  TornadoSide side;
  side.value = value;
  try {
    const QuestionSetup setup = setup_with(scenario, input.path, value);
    side.outputs = outputs_at(setup, std::log(setup.heuristic_params),
                              std::log(setup.heuristic.pretrain_tokens));
    side.status = Status::converged;
  } catch (const InputError& e) {
    side.status = Status::invalid_input;
    side.message = e.what();
  }
  return side;
}

bool matches(const std::string& pattern, const std::string& path) {
  return ::fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
}

}  // namespace

bool law_coefficient(std::string_view path) {
  // law.experts is the model's sparsity, a choice of the plan, not a coefficient of the fit.
  return path.starts_with("law.") && path != "law.experts";
}

std::vector<NumericInput> chosen_inputs(const Scenario& scenario,
                                        const SensitivityAnalysisOptions& options) {
  const std::vector<NumericInput> all = numeric_inputs(scenario);
  const auto check = [&](const std::vector<std::string>& patterns, std::string_view flag) {
    for (const std::string& pattern : patterns) {
      if (std::any_of(all.begin(), all.end(),
                      [&](const NumericInput& input) { return matches(pattern, input.path); })) {
        continue;
      }
      std::string why = "matches no numeric input of " + scenario.file;
      if (pattern.find_first_of("*?[") == std::string::npos) {
        // A plain name: the registry says what is wrong with it (did you mean ...).
        try {
          (void)NumericInputSetter(scenario, pattern);
        } catch (const InputError& e) {
          why = e.what();
        }
      }
      throw InputError(std::string(flag) + ": '" + pattern + "': " + why +
                       " (the inputs are the first column of the elasticity table)");
    }
  };
  check(options.inputs, "inputs");
  check(options.exclude, "exclude");
  std::vector<NumericInput> chosen;
  for (const NumericInput& input : all) {
    const auto any = [&](const std::vector<std::string>& patterns) {
      return std::any_of(patterns.begin(), patterns.end(),
                         [&](const std::string& p) { return matches(p, input.path); });
    };
    if ((options.inputs.empty() || any(options.inputs)) && !any(options.exclude)) {
      chosen.push_back(input);
    }
  }
  if (chosen.empty()) throw InputError("exclude: leaves no input to analyse");
  return chosen;
}

void SensitivityAnalysisOptions::validate() const {
  if (!(tornado_fraction > 0.0 && tornado_fraction < 1.0)) {
    std::ostringstream message;
    message << "tornado: must be between 0 and 100% (exclusive), got " << tornado_fraction;
    throw InputError(message.str());
  }
  if (rank_by >= kElasticityOutputs.size()) throw InputError("rank_by: unknown output");
  kThreadsLimit.check(threads);
  solver.validate();
  elasticity.validate();
}

SensitivityResult analyse_sensitivity(const Scenario& scenario,
                                      const SensitivityAnalysisOptions& options) {
  options.validate();
  SensitivityResult result;
  const QuestionSetup base = scenario_setup(scenario);
  const QuestionSolution solution = solve_question(base, options.solver);
  refuse_unanswerable(scenario, solution);
  if (solution.status() != Status::converged) {
    result.status = solution.status();
    result.message = solution.message();
    return result;
  }
  SensitivityReport& report = result.report;
  report.kind = base.kind;
  report.unit = base.unit;
  const LifetimePlan& plan = optimum_plan(solution);
  // A chosen replica size is a discrete choice: no derivative. The elasticities are taken with
  // the size held where the optimum chose it (the piece of the cost the optimum lies on); the
  // tornado re-solves, choice included.
  const QuestionAnswer& answered = solution.optimum ? *solution.optimum : solution.answer;
  Scenario held_scenario = scenario;
  if (answered.fleet && answered.fleet->replica_chosen) {
    held_scenario.serving.chips = answered.fleet->replica_chips;
    held_scenario.serving.replica_chosen = false;
    report.replica_chips_held = answered.fleet->replica_chips;
  }
  const QuestionSetup held = report.replica_chips_held ? scenario_setup(held_scenario) : base;
  std::vector<double> optimum{std::log(plan.params), std::log(plan.pretrain_tokens)};
  // The RL tokens are the optimum's third variable, the experts' expansion its last.
  if (base.chooses_rl_tokens()) optimum.push_back(std::log(answered.rl_tokens));
  if (base.experts) optimum.push_back(std::log(base.experts->expansion(*answered.experts)));
  report.base = outputs_at(held, optimum);
  const bool heuristic = base.kind == ProblemKind::equal_cost;
  if (heuristic) {
    report.heuristic =
        outputs_at(base, std::log(base.heuristic_params), std::log(base.heuristic.pretrain_tokens));
  }

  const std::vector<NumericInput> inputs = chosen_inputs(scenario, options);
  report.inputs.resize(inputs.size());
  parallel_for(inputs.size(), options.threads, [&](std::size_t i) {
    throw_if_stopped(options.solver.stop);  // the fast path asks nothing itself
    const NumericInput& input = inputs[i];
    InputSensitivity& s = report.inputs[i];
    s.path = input.path;
    s.unit = input.unit;
    s.value = input.value;
    s.whole_number = input.whole_number;
    const Range range = NumericInputSetter(scenario, input.path).range();
    if (input.whole_number) {
      const auto step = [&](double delta) {
        const double moved = input.value + delta;
        return range.contains(moved) && moved >= 1.0 ? moved : input.value;
      };
      s.optimum = whole_step_elasticity(input.value, report.base,
                                        solved_at(scenario, input, step(-1.0), options),
                                        solved_at(scenario, input, step(1.0), options));
      if (heuristic) {
        s.heuristic = whole_step_elasticity(input.value, *report.heuristic,
                                            heuristic_at(scenario, input, step(-1.0)),
                                            heuristic_at(scenario, input, step(1.0)));
      }
    } else {
      const ScaledSetup scaled = scaled_setup(held_scenario, input.path);
      s.optimum = optimum_elasticity(held, optimum, scaled, options.elasticity);
      if (heuristic) s.heuristic = heuristic_elasticity(scaled, options.elasticity);
    }
    s.low = solved_at(scenario, input, moved_value(input, range, 1.0 - options.tornado_fraction),
                      options);
    s.high = solved_at(scenario, input, moved_value(input, range, 1.0 + options.tornado_fraction),
                       options);
    const std::size_t k = options.rank_by;
    s.swing = s.low.status == Status::converged && s.high.status == Status::converged
                  ? std::fabs(s.high.outputs[k] - s.low.outputs[k]) / report.base[k]
                  : std::nan("");
  });
  report.tornado.resize(report.inputs.size());
  std::iota(report.tornado.begin(), report.tornado.end(), 0);
  // The scenario's inputs, then the law's coefficients; in each, largest swing first, unknown
  // swings last, ties in registry order.
  std::stable_sort(report.tornado.begin(), report.tornado.end(), [&](std::size_t a, std::size_t b) {
    const bool la = law_coefficient(report.inputs[a].path);
    const bool lb = law_coefficient(report.inputs[b].path);
    if (la != lb) return lb;
    const double sa = report.inputs[a].swing, sb = report.inputs[b].swing;
    if (std::isnan(sb)) return !std::isnan(sa);
    return !std::isnan(sa) && sa > sb;
  });
  return result;
}

std::size_t parse_elasticity_output(const std::string& text, std::string_view flag) {
  std::string known;
  for (std::size_t j = 0; j < kElasticityOutputs.size(); ++j) {
    if (kElasticityOutputs[j] == text) return j;
    known += (j ? ", " : "") + std::string(kElasticityOutputs[j]);
  }
  throw InputError(std::string(flag) + ": unknown output '" + text + "': expected one of " + known);
}

}  // namespace scaleopt
