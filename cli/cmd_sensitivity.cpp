// scaleopt sensitivity: which assumption moves the answer, and by how much: elasticities at the
// optimum by the implicit-function theorem, and a tornado table.

#include <memory>

#include "scaleopt/cli/analysis_flags.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/sensitivity_output.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct SensitivityArgs {
  AnalysisArgs common;
  std::string tornado = "20%";
  std::string rank_by = "params";
  std::vector<std::string> inputs, exclude;
};

int run_sensitivity(const SensitivityArgs& args, std::ostream& out, std::ostream& notes) {
  SensitivityAnalysisOptions options;
  options.tornado_fraction = parse_flag("--tornado", args.tornado, Unit::number);
  options.rank_by = parse_elasticity_output(args.rank_by, "--rank-by");
  options.threads = parse_threads_flag("--threads", args.common.threads);
  options.solver = args.common.solver;
  options.method = parse_method(args.common.method);
  options.inputs = args.inputs;
  options.exclude = args.exclude;
  options.validate();
  const Scenario scenario = load_analysis_scenario(args.common, notes);
  const SensitivityResult result = analyse_sensitivity(scenario, options);
  if (result.status != Status::converged) {
    out << "STATUS: " << to_string(result.status) << ": " << result.message << "\n"
        << "The base case did not converge: no sensitivities (they are derivatives at an "
           "optimum).\n";
    return kExitNotConverged;
  }
  if (args.common.json) {
    out << sensitivity_json(scenario, result.report, options).dump(2) << "\n";
  } else {
    print_sensitivity(out, scenario, result.report, options);
  }
  return kExitOk;
}

}  // namespace

void add_sensitivity_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "sensitivity", "Elasticities of the optimum to every input, and a tornado table");
  auto args = std::make_shared<SensitivityArgs>();
  add_analysis_flags(*command, args->common, true);
  command
      ->add_option(
          "--tornado", args->tornado,
          "Move each input down and up by this fraction of its value (e.g. 20%) and re-solve")
      ->default_str("20%")
      ->type_name("FRACTION");
  command
      ->add_option("--rank-by", args->rank_by,
                   "Output the tornado ranks by: params, pretrain_tokens, loss, cost_total or "
                   "over_chinchilla")
      ->default_str("params")
      ->type_name("OUTPUT");
  add_input_choice_flags(*command, args->inputs, args->exclude);
  command->footer(
      "For every numeric input p of the scenario (law, chips, prices, MFUs, demand, target):\n"
      "d ln y / d ln p of the optimum's params, pretraining tokens, loss, total cost and\n"
      "over-Chinchilla factor, by the implicit-function theorem on the KKT conditions (no\n"
      "re-solve; see docs/sensitivity.md), and a tornado table ranked by swing: the scenario's\n"
      "inputs, then the law's coefficients (law.*) ranked apart. Whole numbers (layers, heads,\n"
      "experts, chips) move by whole steps. --inputs and --exclude choose the inputs by name\n"
      "or glob.\n"
      "Examples:\n"
      "  scaleopt sensitivity examples/sardana_cost.toml\n"
      "  scaleopt sensitivity examples/frontier_derived.toml --inputs 'inference.*,training.*'\n"
      "  scaleopt sensitivity examples/frontier_derived.toml --exclude 'law.*,architecture.*'\n"
      "  scaleopt sensitivity examples/frontier_100x.toml --tornado 50% --rank-by cost_total\n"
      "  scaleopt sensitivity examples/sardana_cost.toml --law-file fitted.toml\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes, const RunContext& context) {
      args->common.solver.stop = context.stop;
      return run_sensitivity(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
