#pragma once
// Model shapes from public configs (each with its source): llama3-70b, llama3-405b,
// deepseek-v3, deepseek-v3.2 (sparse attention), deepseek-v4-pro and deepseek-v4-flash
// (compressed attention per layer) and frontier-100b (the talk's assumptions).

#include <string_view>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"

namespace scaleopt {

std::vector<Architecture> architecture_presets();

// The preset called `name`; throws InputError listing the known names otherwise.
Architecture architecture_preset(std::string_view name);

}  // namespace scaleopt
