#include "scaleopt/cli/analysis_flags.hpp"

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt::cli {

void add_analysis_flags(CLI::App& command, AnalysisArgs& args, bool threads) {
  command.add_option("scenario", args.scenario, "Scenario file (TOML, docs/scenario.md)")
      ->type_name("SCENARIO.toml")
      ->required();
  command
      .add_option("--set", args.overrides,
                  "Override a key of the scenario, e.g. --set inference.rate=100M/s (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  if (threads) {
    command.add_option("--threads", args.threads, "Threads (0: one per hardware thread)")
        ->default_str("0")
        ->type_name("COUNT")
        ->transform(count_check(0, kMaxThreads));
  }
  add_method_flag(command, args.method);
  command.add_flag("--json", args.json, "Print one JSON object instead of a table");
  add_solver_flags(command, args.solver);
}

Scenario load_analysis_scenario(const AnalysisArgs& args) {
  Scenario scenario = load_scenario(args.scenario, args.overrides);
  try {
    (void)scenario_setup(scenario);
  } catch (const InputError& e) {
    const std::string what = e.what();
    throw InputError(what.starts_with(scenario.file) ? what : scenario.file + ": " + what);
  }
  return scenario;
}

void add_method_flag(CLI::App& command, std::string& method) {
  command
      .add_option("--method", method,
                  "auto: the 1-D Newton fast path where it applies (costs linear in N or priced by "
                  "the roofline), NLopt otherwise; "
                  "nlopt: NLopt everywhere (the reference)")
      ->default_str("auto")
      ->type_name("auto|nlopt");
}

SolveMethod parse_method(const std::string& text) {
  if (text == "auto") return SolveMethod::automatic;
  if (text == "nlopt") return SolveMethod::nlopt;
  throw InputError("--method: expected auto or nlopt, got '" + text + "'");
}

}  // namespace scaleopt::cli
