#pragma once
// A scenario's lifecycle setup with one numeric input scaled, for elasticities and tornado
// tables: the input at `path` multiplied by e^log_scale (or set to a value), the scenario
// re-validated, the setup rebuilt. Throws InputError when the value breaks a range or a rule.

#include <string>

#include "scaleopt/problems/question/question_elasticity.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

// `scenario` needs a [law] and a [problem]; `path` a numeric input with a value
// (numeric_inputs). The returned function owns a copy of the scenario.
ScaledSetup scaled_setup(const Scenario& scenario, const std::string& path);

// The setup of `scenario` with the input at `path` set to `value`.
QuestionSetup setup_with(const Scenario& scenario, const std::string& path, double value);

// The setup of `scenario` as it is (InputError when it lacks a [law] or a [problem]).
QuestionSetup scenario_setup(const Scenario& scenario);

}  // namespace scaleopt
