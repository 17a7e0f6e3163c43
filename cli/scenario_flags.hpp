#pragma once
// The SCENARIO.toml argument and its --set overrides, as `plot` and `report` take them.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace scaleopt::cli {

// `type_name` and `description` of the positional argument can say what else it may be.
void add_scenario_arguments(
    CLI::App& command, std::string& scenario, std::vector<std::string>& overrides,
    const std::string& type_name = "SCENARIO.toml",
    const std::string& description = "Scenario file (TOML, docs/scenario.md)");

}  // namespace scaleopt::cli
