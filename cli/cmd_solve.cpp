// scaleopt solve: the lifecycle question of a scenario's [problem] table, solved and set
// beside the equal-quality Chinchilla-style model.

#include <memory>

#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/cli/analysis_flags.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/answer_fields_markdown.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/lifecycle_output.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct SolveArgs {
  std::string scenario;
  std::vector<std::string> overrides;
  std::string law_file;
  SolverOptions solver;
  std::string method = "auto";
  bool json = false;
  bool fields = false;
};

int run_solve(const SolveArgs& args, std::ostream& out, std::ostream& notes) {
  if (args.fields) {
    // The table is the same whatever else is given: the rest would be ignored.
    if (!args.scenario.empty() || !args.overrides.empty() || args.json) {
      throw InputError(
          "--fields: prints the field table alone; give it without a scenario, "
          "--set or --json");
    }
    out << answer_fields_markdown();
    return kExitOk;
  }
  if (args.scenario.empty())
    throw InputError("scenario: required (a scenario file, SCENARIO.toml)");
  const Scenario scenario = load_scenario(args.scenario, args.overrides, {args.law_file});
  print_scenario_warnings(scenario, notes);
  const QuestionSolution solution =
      solve_scenario(scenario, args.solver, parse_method(args.method));
  if (args.json) {
    out << solution_json(scenario, *scenario.law, solution).dump(2) << "\n";
  } else {
    print_solution(out, scenario, *scenario.law, solution);
  }
  return solution.status() == Status::converged ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_solve_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "solve", "Solve a scenario's lifecycle problem: model size, pretraining and RL tokens");
  auto args = std::make_shared<SolveArgs>();
  add_scenario_arguments(*command, args->scenario, args->overrides, args->law_file);
  // Not required: `solve --fields` needs none (run_solve asks for it otherwise).
  command->get_option("scenario")->required(false);
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->add_flag("--fields", args->fields,
                    "Print the fields of an answer (the keys of --json and the sweep columns: "
                    "units, meanings, when null) as a Markdown table, and exit");
  add_method_flag(*command, args->method);
  add_solver_flags(*command, args->solver);
  command->footer(
      "The [problem] table says what to answer (docs/model.md):\n"
      "  min-lifetime-flops  cheapest FLOPs reaching a loss (Sardana et al. 2024, Eq. 3)\n"
      "  min-lifetime-cost   the same in dollars (inference by roofline or fixed MFUs)\n"
      "  equal-cost          the talk's heuristic for a given N, beside its true optimum\n"
      "  max-quality         the lowest loss a lifetime budget buys, demand included\n"
      "Every answer is verified (its KKT residual; by NLopt, also against a 1-D reduction solved\n"
      "independently) and compared with the Chinchilla-style model of equal quality. Where sweeps\n"
      "take the fast path (costs linear in N, or the roofline's closed form) solve takes it too:\n"
      "--method nlopt solves by NLopt and cross-checks.\n"
      "Examples:\n"
      "  scaleopt solve examples/frontier_100x.toml\n"
      "  scaleopt solve examples/sardana_cost.toml --json\n"
      "  scaleopt solve examples/frontier_100x.toml --set inference.rate=100M/s\n"
      "  scaleopt solve examples/sardana_cost.toml --law-file fitted.toml\n"
      "  scaleopt solve --fields             # what each key of --json means\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) {
      return run_solve(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
