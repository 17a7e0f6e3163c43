#pragma once
// The SCENARIO.toml argument, its --set overrides and --law-file, as the commands that read a
// scenario take them.

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "scaleopt/scenario/input_file.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {

// `type_name` and `description` of the positional argument can say what else it may be.
void add_scenario_arguments(
    CLI::App& command, std::string& scenario, std::vector<std::string>& overrides,
    std::string& law_file, const std::string& type_name = "SCENARIO.toml",
    const std::string& description = "Scenario file (TOML, docs/scenario.md)");

// --law-file FILE: the [law] table of FILE (e.g. from 'scaleopt fit --emit-law') replaces the
// scenario's [law]; --set law.* applies on top of it.
void add_law_file_option(CLI::App& command, std::string& law_file);

// The scenario's warnings (keys its problem ignores) on `notes`, which reaches stderr at once,
// one line each: "scaleopt: warning: problem.target_loss is ignored by max-quality".
void print_scenario_warnings(const Scenario& scenario, std::ostream& notes);

// The files `scenario` was read from, which no output may overwrite: the scenario file (under
// `role`) and its law's file when the law came from one.
std::vector<ReadFile> scenario_inputs(const Scenario& scenario,
                                      const std::string& role = "the scenario file");

}  // namespace scaleopt::cli
