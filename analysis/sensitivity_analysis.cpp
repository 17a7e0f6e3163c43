#include "scaleopt/analysis/sensitivity_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
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

TornadoSide tornado_side(const Scenario& scenario, const NumericInput& input, const Range& range,
                         double factor, const SensitivityAnalysisOptions& options) {
  TornadoSide side;
  side.value = clamp_to(range, input.value * factor);
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

}  // namespace

void SensitivityAnalysisOptions::validate() const {
  if (!(tornado_fraction > 0.0 && tornado_fraction < 1.0)) {
    std::ostringstream message;
    message << "--tornado: must be between 0 and 100% (exclusive), got " << tornado_fraction;
    throw InputError(message.str());
  }
  if (rank_by >= kElasticityOutputs.size()) throw InputError("--rank-by: unknown output");
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
  std::vector<double> optimum{std::log(plan.params), std::log(plan.pretrain_tokens)};
  if (base.chooses_rl_tokens()) {
    // The RL tokens are the optimum's third variable.
    const QuestionAnswer& answer = solution.optimum ? *solution.optimum : solution.answer;
    optimum.push_back(std::log(answer.rl_tokens));
    report.base = outputs_at(base, optimum[0], optimum[1], optimum[2]);
  } else {
    report.base = outputs_at(base, optimum[0], optimum[1]);
  }
  const bool heuristic = base.kind == ProblemKind::equal_cost;
  if (heuristic) {
    report.heuristic =
        outputs_at(base, std::log(base.heuristic_params), std::log(base.heuristic.pretrain_tokens));
  }

  const std::vector<NumericInput> inputs = numeric_inputs(scenario);
  report.inputs.resize(inputs.size());
  parallel_for(inputs.size(), options.threads, [&](std::size_t i) {
    const NumericInput& input = inputs[i];
    InputSensitivity& s = report.inputs[i];
    s.path = input.path;
    s.unit = input.unit;
    s.value = input.value;
    const ScaledSetup scaled = scaled_setup(scenario, input.path);
    s.optimum = optimum_elasticity(base, optimum, scaled, options.elasticity);
    if (heuristic) s.heuristic = heuristic_elasticity(scaled, options.elasticity);
    const Range range = NumericInputSetter(scenario, input.path).range();
    s.low = tornado_side(scenario, input, range, 1.0 - options.tornado_fraction, options);
    s.high = tornado_side(scenario, input, range, 1.0 + options.tornado_fraction, options);
    const std::size_t k = options.rank_by;
    s.swing = s.low.status == Status::converged && s.high.status == Status::converged
                  ? std::fabs(s.high.outputs[k] - s.low.outputs[k]) / report.base[k]
                  : std::nan("");
  });
  report.tornado.resize(report.inputs.size());
  std::iota(report.tornado.begin(), report.tornado.end(), 0);
  // Largest swing first; unknown swings last; ties in registry order.
  std::stable_sort(report.tornado.begin(), report.tornado.end(), [&](std::size_t a, std::size_t b) {
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
