// scaleopt report: one self-contained HTML page about a scenario: the question, the answer,
// costs by phase, the comparison with Chinchilla, the figures (inline SVG drawn by gnuplot)
// and every input with its source (report/report_html.hpp).

#include <memory>

#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/analysis_figures.hpp"
#include "scaleopt/report/gnuplot_runner.hpp"
#include "scaleopt/report/plot_figures.hpp"
#include "scaleopt/report/report_html.hpp"
#include "scaleopt/report/sensitivity_output.hpp"
#include "scaleopt/report/uncertainty_output.hpp"
#include "scaleopt/scenario/atomic_file.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct ReportArgs {
  std::string scenario;
  std::vector<std::string> overrides;
  std::string law_file;
  std::string out;
  SolverOptions solver;
};

// "scaleopt plot KIND FILE --out KIND.svg [--law-file ...] [--set ...]": how to draw one
// figure alone.
std::string plot_command_line(std::string_view kind, const std::string& file,
                              const ReportArgs& args) {
  std::string line =
      "scaleopt plot " + std::string(kind) + " " + file + " --out " + std::string(kind) + ".svg";
  if (!args.law_file.empty()) line += " --law-file " + args.law_file;
  for (const std::string& o : args.overrides) line += " --set " + o;
  return line;
}

// The sensitivity analysis (as `scaleopt sensitivity` with its defaults) and, when the scenario
// has an [uncertainty] table, the Monte Carlo analysis (as `scaleopt uncertainty`).
void add_analyses(ReportInputs& inputs, const Scenario& scenario, const ReportArgs& args) {
  const std::string& name = scenario.file;
  SensitivityAnalysisOptions sensitivity;
  sensitivity.solver = args.solver;
  const SensitivityResult result = analyse_sensitivity(scenario, sensitivity);
  if (result.status == Status::converged) {
    const SensitivityReport& report = result.report;
    inputs.sensitivity_note =
        "Every numeric input moved 20% down and up and the question re-solved (the tornado, "
        "ranked by how far the optimum's parameter count swings), and the elasticities "
        "d ln y / d ln p of the optimum's outputs by the implicit-function theorem on its KKT "
        "conditions, as scaleopt sensitivity " +
        name + " prints them (docs/sensitivity.md).";
    inputs.figures.push_back({"tornado", "The sensitivity tornado of the parameter count",
                              figure_svg(tornado_of(scenario, report, sensitivity)),
                              plot_command_line("tornado", name, args)});
    ReportTable tornado{Table{}, {}};
    tornado.table = tornado_table(report, sensitivity, tornado.notes);
    inputs.sensitivity.push_back(std::move(tornado));
    ReportTable law{Table{}, {}};
    law.table = tornado_table(report, sensitivity, law.notes, true);
    if (has_rows(law.table)) inputs.sensitivity.push_back(std::move(law));
    ReportTable elasticities{Table{}, {}};
    elasticities.table = elasticity_table(
        std::string("Elasticities d ln y / d ln p at the ") +
            (report.heuristic ? "true optimum (same loss as the heuristic)" : "optimum"),
        report, false, elasticities.notes);
    inputs.sensitivity.push_back(std::move(elasticities));
  }
  if (!scenario.uncertainty.any()) return;
  MonteCarloOptions monte_carlo;
  monte_carlo.solver = args.solver;
  monte_carlo.keep_outputs = true;
  const MonteCarloReport report = run_monte_carlo(scenario, monte_carlo);
  inputs.uncertainty_note =
      std::to_string(report.samples) + " samples drawn from the scenario's [uncertainty] table " +
      "(seed " + std::to_string(monte_carlo.seed) +
      ") and solved: " + std::to_string(report.converged) + " converged, " +
      std::to_string(report.infeasible) + " infeasible, " + std::to_string(report.invalid) +
      " invalid draws, " + std::to_string(report.not_converged) +
      " not converged; as scaleopt uncertainty " + name + " prints them.";
  if (report.converged == 0) {
    inputs.uncertainty_note += " " + no_converged_sample_message(report) + ".";
    return;
  }
  inputs.figures.push_back({"uncertainty", "Monte Carlo histograms of the optimum's outputs",
                            figure_svg(uncertainty_of(scenario, report, monte_carlo)),
                            plot_command_line("uncertainty", name, args)});
  std::vector<std::string> distributions;
  for (const UncertainInput& input : scenario.uncertainty.inputs) {
    distributions.push_back(input.path + " ~ " + distribution_text(scenario, input));
  }
  if (scenario.uncertainty.law_bootstrap) {
    distributions.push_back("law coefficients ~ their uncertainty (law = \"bootstrap\")");
  }
  inputs.uncertainty.push_back(
      {quantiles_table("Quantiles over the converged samples", report.quantiles), distributions});
}

int run_report(const ReportArgs& args, std::ostream& out, std::ostream& notes) {
  if (!args.out.ends_with(".html") && !args.out.ends_with(".htm")) {
    throw InputError("--out: expected FILE.html, got '" + args.out + "'");
  }
  // Read once: the report quotes the very text that was solved (a FIFO could not be read twice).
  const std::string scenario_text = read_input_file(args.scenario, kTomlInput);
  const Scenario scenario =
      load_scenario_text(scenario_text, args.scenario, args.overrides, {args.law_file});
  print_scenario_warnings(scenario, notes);
  const std::vector<ReadFile> read_files = scenario_inputs(scenario);
  check_output(args.out, "--out", read_files);
  const QuestionSolution solution = solve_scenario(scenario, args.solver);
  if (solution.status() != Status::converged) {
    out << "STATUS: " << to_string(solution.status()) << ": " << solution.message() << "\n"
        << "No report written: the solver's last iterate is not an optimum.\n";
    return kExitNotConverged;
  }
  const std::string& name = scenario.file;
  ReportInputs inputs;
  inputs.scenario = &scenario;
  inputs.solution = &solution;
  inputs.overrides = args.overrides;
  inputs.scenario_text = scenario_text;
  inputs.figures.push_back({"phases", "Lifetime cost by phase of each plan",
                            figure_svg(phases_of(scenario, solution)),
                            plot_command_line("phases", name, args)});
  inputs.figures.push_back({"isoloss",
                            "Iso-loss map: loss contours, training compute, lifetime cost, the "
                            "frontier and the plans",
                            figure_svg(isoloss_of(scenario, solution)),
                            plot_command_line("isoloss", name, args)});
  const bool roofline = scenario.serving.pricing == InferencePricing::roofline;
  const bool flops_only = solution.kind == ProblemKind::min_lifetime_flops;
  if (flops_only) {
    inputs.serving_figure_note =
        "A FLOPs question: serving is counted as 2N FLOPs per token, without prices, so the "
        "roofline's cost against context does not apply (scaleopt plot cost-vs-context draws it "
        "for a scenario with a serving setup).";
  } else if (!roofline && !scenario.prices) {
    inputs.serving_figure_note =
        "Inference is priced at fixed prefill and decode MFUs here (inference.pricing = mfu), "
        "so the roofline's cost against context does not apply.";
  } else {
    inputs.figures.push_back({"cost-vs-context",
                              "Cost per input and output token against context on the serving "
                              "replica (roofline at the best batch)",
                              figure_svg(cost_vs_context_of(scenario)),
                              plot_command_line("cost-vs-context", name, args)});
  }
  if (!scenario.compare_models.empty()) {
    inputs.figures.push_back(
        {"cost-vs-context-models",
         "Cost per token against context, 8K to 1M, for the models of inference.compare_models "
         "on the same chip (each on its own replica of whole nodes)",
         figure_svg(cost_vs_context_models_of(scenario)),
         plot_command_line("cost-vs-context-models", name, args)});
  }
  add_analyses(inputs, scenario, args);
  const std::string html = report_html(inputs);
  if (const std::string defect = report_html_defect(html, inputs.figures.size()); !defect.empty()) {
    throw InputError("--out: " + args.out + ": the report is not whole (" + defect +
                     "); nothing written");
  }
  write_file_atomically(args.out, html, "--out", read_files);
  out << "Wrote " << args.out << " (" << inputs.figures.size() << " figures)\n";
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "report", "Write one self-contained HTML report of a scenario: answer, costs, figures");
  auto args = std::make_shared<ReportArgs>();
  add_scenario_arguments(*command, args->scenario, args->overrides, args->law_file);
  command->add_option("--out", args->out, "The report: FILE.html")
      ->type_name("FILE")
      ->check(refuse_empty_file_name)
      ->required();
  add_solver_flags(*command, args->solver);
  command->footer(
      "One HTML file, no network and no JavaScript needed: the question, the answer as\n"
      "'scaleopt solve' prints it, costs by phase, the Chinchilla-style model of equal quality,\n"
      "the figures of 'scaleopt plot' inline, and every input with its source.\n"
      "Examples:\n"
      "  scaleopt report examples/frontier_100x.toml --out report.html\n"
      "  scaleopt report examples/budget_plan.toml --out budget.html --set "
      "problem.budget_usd=1B\n"
      "  scaleopt report examples/sardana_cost.toml --law-file fitted.toml --out fitted.html\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) {
      return run_report(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
