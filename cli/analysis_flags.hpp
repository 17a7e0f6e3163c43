#pragma once
// What the analysis commands (sweep, sensitivity, uncertainty) share: a scenario with a [law]
// and a [problem], --set overrides, threads, which solver answers each point, and the NLopt
// flags.

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {

struct AnalysisArgs {
  std::string scenario;
  std::vector<std::string> overrides;
  std::string law_file;  // --law-file: replaces the scenario's [law]
  SolverOptions solver;
  int threads = 0;
  std::string method = "auto";
  bool json = false;
};

// Registers SCENARIO.toml, --set, --law-file, --method, --json, the solver flags and (when
// `threads`)
// --threads.
void add_analysis_flags(CLI::App& command, AnalysisArgs& args, bool threads);

// The scenario of `args`, which must have a [law] and a [problem] (InputError otherwise).
// Its warnings go to `notes` (print_scenario_warnings).
Scenario load_analysis_scenario(const AnalysisArgs& args, std::ostream& notes);

// --inputs and --exclude of sensitivity and plot tornado (names or globs, comma-separated or
// repeated); returns the two options.
std::pair<CLI::Option*, CLI::Option*> add_input_choice_flags(CLI::App& command,
                                                             std::vector<std::string>& inputs,
                                                             std::vector<std::string>& exclude,
                                                             const std::string& group = "");

// --method auto|nlopt.
SolveMethod parse_method(const std::string& text);

// --method auto|nlopt, into `method` (parse_method reads it).
void add_method_flag(CLI::App& command, std::string& method);

}  // namespace scaleopt::cli
