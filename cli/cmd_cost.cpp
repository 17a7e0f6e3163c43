// scaleopt cost: what a scenario's model costs over its life: pretraining, RL, prefill and
// decode in FLOPs, GPU-hours, dollars and shares.

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/cost_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct CostArgs {
  std::string scenario;
  std::vector<std::string> overrides;
  std::string law_file;
  bool json = false;
  bool keys = false;
};

int run_cost(const CostArgs& args, std::ostream& out, std::ostream& notes) {
  if (args.keys) {
    if (!args.scenario.empty() || args.json || !args.overrides.empty() || !args.law_file.empty()) {
      // --keys prints the same table whatever else is given: the rest would be ignored.
      throw InputError(
          "--keys: prints the key table alone; give it without a scenario, --set, --law-file "
          "or --json");
    }
    out << scenario_keys_markdown();
    return kExitOk;
  }
  if (args.scenario.empty()) {
    throw InputError("cost: give a scenario file, e.g. scaleopt cost examples/frontier.toml");
  }
  const Scenario scenario = load_scenario(args.scenario, args.overrides, {args.law_file});
  print_scenario_warnings(scenario, notes);
  PhaseCosts cost;
  try {
    cost = phase_costs(scenario);
  } catch (const InputError& e) {
    throw InputError(scenario.file + ": " + e.what());  // e names the key
  }
  const Json json = cost_json(scenario, cost);
  // 1e300 rollout tokens or an MFU of 1e-300 made costs of inf: refused, never printed.
  refuse_non_finite(json, extreme_inputs(scenario), scenario.file + ": ");
  if (args.json) {
    out << json.dump(2) << "\n";
  } else {
    print_cost(out, scenario, cost);
  }
  return cost.converged() ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_cost_command(CLI::App& app, Action& chosen) {
  auto* command =
      app.add_subcommand("cost", "Lifecycle cost of a scenario: pretraining, RL, prefill, decode");
  auto args = std::make_shared<CostArgs>();
  command->add_option("scenario", args->scenario, "Scenario file (TOML, docs/scenario.md)")
      ->type_name("SCENARIO.toml");
  command
      ->add_option("--set", args->overrides,
                   "Override a key of the scenario, e.g. --set inference.rate=100M/s (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one KEY=VALUE per --set, so a file after it stays positional
  add_law_file_option(*command, args->law_file);
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->add_flag("--keys", args->keys,
                    "Print the table of scenario keys (units, defaults, ranges) and exit");
  command->footer(
      "Pretraining costs 6 N D FLOPs at an MFU; RL generates rollouts at decode cost and\n"
      "trains on a fraction at 6 N per token; inference prefills input tokens (compute-bound)\n"
      "and decodes output tokens at the roofline's best batch. Defaults that are assumptions\n"
      "are listed under the answer.\n"
      "Examples:\n"
      "  scaleopt cost examples/frontier.toml\n"
      "  scaleopt cost examples/frontier.toml --json\n"
      "  scaleopt cost examples/frontier.toml --law-file fitted.toml\n"
      "  scaleopt cost examples/frontier.toml --set inference.rate=100M/s --set "
      "inference.hardware=h100-sxm\n"
      "  scaleopt cost --keys\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) { return run_cost(*args, out, notes); };
  });
}

}  // namespace scaleopt::cli
