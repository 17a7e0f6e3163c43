#include "scaleopt/cli/scenario_flags.hpp"

namespace scaleopt::cli {

void add_scenario_arguments(CLI::App& command, std::string& scenario,
                            std::vector<std::string>& overrides, std::string& law_file,
                            const std::string& type_name, const std::string& description) {
  command.add_option("scenario", scenario, description)->type_name(type_name)->required();
  command
      .add_option("--set", overrides,
                  "Override a key of the scenario, e.g. --set inference.rate=100M/s (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  add_law_file_option(command, law_file);
}

void print_scenario_warnings(const Scenario& scenario, std::ostream& notes) {
  for (const std::string& warning : scenario.warnings) {
    notes << "scaleopt: warning: " << warning << "\n";
  }
}

void add_law_file_option(CLI::App& command, std::string& law_file) {
  command
      .add_option("--law-file", law_file,
                  "Use the [law] table of this TOML file instead of the scenario's, e.g. "
                  "--law-file fitted.toml from 'scaleopt fit runs.csv ... --emit-law fitted.toml' "
                  "(--set law.* still applies on top of it)")
      ->type_name("FILE");
}

std::vector<ReadFile> scenario_inputs(const Scenario& scenario, const std::string& role) {
  std::vector<ReadFile> inputs{{scenario.file, role}};
  if (!scenario.law_file.empty()) inputs.push_back({scenario.law_file, "the law file"});
  return inputs;
}

}  // namespace scaleopt::cli
