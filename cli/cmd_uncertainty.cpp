// scaleopt uncertainty: Monte Carlo over the distributions of a scenario's [uncertainty]
// table: quantiles of the answer and the share of samples that were infeasible.

#include <memory>

#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/cli/analysis_flags.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/uncertainty_output.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct UncertaintyArgs {
  AnalysisArgs common;
  long long samples = 10000;
  std::string seed = "1";
  std::string out;
};

int run_uncertainty(const UncertaintyArgs& args, std::ostream& out, std::ostream& notes) {
  MonteCarloOptions options;
  options.samples = static_cast<std::size_t>(args.samples);
  options.seed = parse_seed_flag("--seed", args.seed);
  options.threads = parse_threads_flag("--threads", args.common.threads);
  options.solver = args.common.solver;
  options.method = parse_method(args.common.method);
  options.keep_rows = !args.out.empty();
  const Scenario scenario = load_analysis_scenario(args.common, notes);
  const std::vector<ReadFile> inputs = scenario_inputs(scenario);
  if (options.keep_rows) check_output(args.out, "--out", inputs);
  const MonteCarloReport report = run_monte_carlo(scenario, options);
  if (options.keep_rows) {
    // Provenance lines first (analysis/sweep_provenance.hpp): which scenario, seed and samples.
    write_file_atomically(
        args.out,
        uncertainty_provenance(scenario, options).text() + report.header + "\n" + report.rows,
        "--out", inputs);
  }
  if (args.common.json) {
    out << uncertainty_json(scenario, report, options, args.out).dump(2) << "\n";
  } else {
    print_uncertainty(out, scenario, report, options, args.out);
  }
  return report.not_converged > 0 || report.converged == 0 ? kExitNotConverged : kExitOk;
}

}  // namespace

void add_uncertainty_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "uncertainty",
      "Monte Carlo over the scenario's [uncertainty] table: quantiles, infeasible share");
  auto args = std::make_shared<UncertaintyArgs>();
  add_analysis_flags(*command, args->common, true);
  command->add_option("--samples", args->samples, "Samples to draw and solve")
      ->default_str("10000")
      ->type_name("COUNT")
      ->transform(count_check(1, kMaxSamples));
  command
      ->add_option("--seed", args->seed,
                   "Seed: sample i draws from its own stream of (seed, i); the same seed gives "
                   "the same answer at any --threads")
      ->default_str("1")
      ->type_name("UINT");
  command
      ->add_option("--out", args->out,
                   "Write every sample (drawn inputs, then solve's columns) to a CSV file, after "
                   "'# scaleopt-provenance:' lines (scenario fingerprint, seed, samples; "
                   "pandas: comment='#')")
      ->type_name("FILE")
      ->check(refuse_empty_file_name);
  command->footer(
      "The scenario's [uncertainty] table gives inputs distributions (docs/sensitivity.md):\n"
      "  [uncertainty]\n"
      "  law = \"bootstrap\"   # the law's coefficients from [law.uncertainty] or epoch2024's\n"
      "  \"inference.rate\" = { dist = \"lognormal\", median = \"50M/s\", sigma = 0.5 }\n"
      "  training.mfu = { dist = \"uniform\", lo = 0.35, hi = 0.45 }\n"
      "  inference.decode_mfu = { dist = \"normal\", mean = 0.13, sd = 0.02 }\n"
      "Quantiles (5/50/95%) are over the samples that converged; draws outside an input's\n"
      "range are counted as invalid, not truncated.\n"
      "Examples:\n"
      "  scaleopt uncertainty examples/frontier_uncertain.toml --samples 100000 --seed 1\n"
      "  scaleopt uncertainty examples/frontier_uncertain.toml --json --out samples.csv\n"
      "  scaleopt uncertainty examples/frontier_uncertain.toml --law-file fitted.toml\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes, const RunContext& context) {
      args->common.solver.stop = context.stop;
      return run_uncertainty(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
