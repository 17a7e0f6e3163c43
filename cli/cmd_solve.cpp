// scaleopt solve: the lifecycle question of a scenario's [problem] table, solved and set
// beside the equal-quality Chinchilla-style model.

#include <memory>

#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/cli/solver_flags.hpp"
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
  bool json = false;
};

int run_solve(const SolveArgs& args, std::ostream& out) {
  const Scenario scenario = load_scenario(args.scenario, args.overrides, {args.law_file});
  const QuestionSolution solution = solve_scenario(scenario, args.solver);
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
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  add_solver_flags(*command, args->solver);
  command->footer(
      "The [problem] table says what to answer (docs/model.md):\n"
      "  min-lifetime-flops  cheapest FLOPs reaching a loss (Sardana et al. 2024, Eq. 3)\n"
      "  min-lifetime-cost   the same in dollars (inference by roofline or fixed MFUs)\n"
      "  equal-cost          the talk's heuristic for a given N, beside its true optimum\n"
      "  max-quality         the lowest loss a lifetime budget buys, demand included\n"
      "Every answer is verified (KKT residual, and a 1-D reduction solved independently) and\n"
      "compared with the Chinchilla-style model of equal quality.\n"
      "Examples:\n"
      "  scaleopt solve examples/frontier_100x.toml\n"
      "  scaleopt solve examples/sardana_cost.toml --json\n"
      "  scaleopt solve examples/frontier_100x.toml --set inference.rate=100M/s\n"
      "  scaleopt solve examples/sardana_cost.toml --law-file fitted.toml\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_solve(*args, out); }; });
}

}  // namespace scaleopt::cli
