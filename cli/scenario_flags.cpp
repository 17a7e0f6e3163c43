#include "scaleopt/cli/scenario_flags.hpp"

namespace scaleopt::cli {

void add_scenario_arguments(CLI::App& command, std::string& scenario,
                            std::vector<std::string>& overrides, const std::string& type_name,
                            const std::string& description) {
  command.add_option("scenario", scenario, description)->type_name(type_name)->required();
  command
      .add_option("--set", overrides,
                  "Override a key of the scenario, e.g. --set inference.rate=100M/s (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
}

}  // namespace scaleopt::cli
