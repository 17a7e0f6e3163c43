#include "scaleopt/analysis/input_scaling.hpp"

#include <cmath>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt {

QuestionSetup scenario_setup(const Scenario& scenario) {
  if (!scenario.problem_given) {
    throw InputError(scenario.file +
                     ": problem.kind: required (min-lifetime-flops, "
                     "min-lifetime-cost, equal-cost or max-quality)");
  }
  if (!scenario.law) throw InputError(scenario.file + ": law: a [law] table is required");
  return question_setup(scenario, *scenario.law, scenario.problem);
}

QuestionSetup setup_with(const Scenario& scenario, const std::string& path, double value) {
  Scenario copy = scenario;
  set_numeric_input(copy, path, value);
  validate_scenario(copy);
  return scenario_setup(copy);
}

ScaledSetup scaled_setup(const Scenario& scenario, const std::string& path) {
  const double value = numeric_input(scenario, path);
  return [scenario, path, value](double log_scale) {
    return setup_with(scenario, path, value * std::exp(log_scale));
  };
}

}  // namespace scaleopt
