#include "scaleopt/cli/analysis_flags.hpp"

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt::cli {

void add_analysis_flags(CLI::App& command, AnalysisArgs& args, bool threads) {
  add_scenario_arguments(command, args.scenario, args.overrides, args.law_file);
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

Scenario load_analysis_scenario(const AnalysisArgs& args, std::ostream& notes) {
  Scenario scenario = load_scenario(args.scenario, args.overrides, {args.law_file});
  print_scenario_warnings(scenario, notes);
  try {
    (void)scenario_setup(scenario);
  } catch (const InputError& e) {
    const std::string what = e.what();
    throw InputError(what.starts_with(scenario.file) ? what : scenario.file + ": " + what);
  }
  return scenario;
}

std::pair<CLI::Option*, CLI::Option*> add_input_choice_flags(CLI::App& command,
                                                             std::vector<std::string>& inputs,
                                                             std::vector<std::string>& exclude,
                                                             const std::string& group) {
  CLI::Option* chosen =
      command
          .add_option("--inputs", inputs,
                      "Analyse only these inputs: names or globs, comma-separated or repeated, "
                      "e.g. --inputs 'inference.*,training.mfu' (default: every numeric input)")
          ->type_name("PATTERN")
          ->delimiter(',')
          ->allow_extra_args(false);
  CLI::Option* left_out =
      command
          .add_option("--exclude", exclude,
                      "Leave these inputs out: names or globs, e.g. --exclude 'law.*' for the "
                      "economic inputs alone")
          ->type_name("PATTERN")
          ->delimiter(',')
          ->allow_extra_args(false);
  if (!group.empty()) {
    chosen->group(group);
    left_out->group(group);
  }
  return {chosen, left_out};
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
