// scaleopt compare: two scenarios' answers side by side, the lines that differ marked.

#include <memory>

#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/report/compare_output.hpp"
#include "scaleopt/report/json.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct CompareArgs {
  std::string a, b;
  std::vector<std::string> overrides;
  std::string law_file;
  SolverOptions solver;
  bool json = false;
};

int run_compare(const CompareArgs& args, std::ostream& out, std::ostream& notes) {
  const Scenario a = load_scenario(args.a, args.overrides, {args.law_file});
  const Scenario b = load_scenario(args.b, args.overrides, {args.law_file});
  print_scenario_warnings(a, notes);
  print_scenario_warnings(b, notes);
  const QuestionSolution sa = solve_scenario(a, args.solver);
  const QuestionSolution sb = solve_scenario(b, args.solver);
  const ComparedAnswer ca{&a, &sa}, cb{&b, &sb};
  if (args.json) {
    out << compare_json(ca, cb).dump(2) << "\n";
  } else {
    out << compare_text(ca, cb);
  }
  return sa.status() == Status::converged && sb.status() == Status::converged ? kExitOk
                                                                              : kExitNotConverged;
}

}  // namespace

void add_compare_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "compare", "Two scenarios' answers side by side, the lines that differ marked");
  auto args = std::make_shared<CompareArgs>();
  command->add_option("a", args->a, "The first scenario (A), as 'scaleopt solve' reads it")
      ->type_name("A.toml")
      ->required();
  command->add_option("b", args->b, "The second scenario (B)")->type_name("B.toml")->required();
  command
      ->add_option("--set", args->overrides,
                   "Override a key of both scenarios, e.g. --set inference.rate=100M/s "
                   "(repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  add_law_file_option(*command, args->law_file);
  command->add_flag("--json", args->json,
                    "Print one JSON object: both answers, the figures that differ and their "
                    "ratios B / A");
  add_solver_flags(*command, args->solver);
  command->footer(
      "Each scenario's question solved as 'scaleopt solve' solves it; the rows of its table\n"
      "beside the other's, the first line saying how each prices inference, '*' where they\n"
      "differ. For equal-cost, the heuristics side by side, then the true optima. --set and\n"
      "--law-file apply to both.\n"
      "Examples:\n"
      "  scaleopt compare examples/frontier_100x.toml examples/frontier_derived.toml\n"
      "  scaleopt compare examples/sardana_compute.toml examples/sardana_cost.toml --json\n"
      "  scaleopt compare examples/frontier_100x.toml examples/frontier_derived.toml \\\n"
      "      --set inference.rate=100M/s\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) {
      return run_compare(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
