#pragma once
// The SCENARIO.toml argument and its --set overrides, as `plot` and `report` take them.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace scaleopt::cli {

void add_scenario_arguments(CLI::App& command, std::string& scenario,
                            std::vector<std::string>& overrides);

}  // namespace scaleopt::cli
