#pragma once
// Inputs far outside anything meant (an MFU of 1e-300, 1e300 rollout tokens) can make an
// answer overflow to inf or nan. When one does, the error names the inputs to blame: those
// beyond 1e30 or below 1e-30 in magnitude (docs/reliability.md). The answer itself is checked
// where it is built (report/overflow.hpp) or solved (analysis/solve_scenario.hpp).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

// "inference.decode_mfu = 1e-300, rl.rollout_tokens = 1e+300": the numeric inputs of `scenario`
// beyond 1e30 or below 1e-30 in magnitude; empty when there are none.
std::string extreme_inputs(const Scenario& scenario);

// The same for named values, flags as given or keys: {{"--params", 1e300}, ...} ->
// "--params = 1e+300".
std::string extreme_flags(const std::vector<std::pair<std::string_view, double>>& flags);

}  // namespace scaleopt
