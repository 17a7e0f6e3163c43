#pragma once
// Refusing an answer that overflowed. Inputs far outside anything meant (an MFU of 1e-300,
// 1e300 rollout tokens) can make a figure inf or nan; that figure must never be printed as an
// answer. Commands check the JSON of what they are about to print and fail with one line naming
// the figure and the inputs that are beyond 1e30 or below 1e-30 in magnitude
// (scenario/extreme_inputs.hpp; docs/reliability.md).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// The key path of the first number in `json` that is not finite ("pretrain.usd",
// "points[3].batch"), or nullopt.
std::optional<std::string> non_finite_path(const Json& json);

// Throws InputError "PREFIXthe answer's PATH came out as inf: an input lies beyond what double
// precision can hold (CULPRITS)" when `json` holds a number that is not finite.
void refuse_non_finite(const Json& json, const std::string& culprits,
                       const std::string& prefix = "");

// The same for an answer computed from named inputs (flags, law coefficients): the culprits are
// those beyond 1e30 or below 1e-30 in magnitude, and when none is (an exponent of 50 overflows
// N^alpha from an ordinary N), every input the figure came from, so that the message always
// names what to change.
void refuse_non_finite(const Json& json,
                       const std::vector<std::pair<std::string_view, double>>& inputs,
                       const std::string& prefix = "");

}  // namespace scaleopt::report
