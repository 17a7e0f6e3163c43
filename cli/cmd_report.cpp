// scaleopt report: one self-contained HTML page about a scenario: the question, the answer,
// costs by phase, the comparison with Chinchilla, the figures (inline SVG drawn by gnuplot)
// and every input with its source (cli/report_html.hpp).

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli/app.hpp"
#include "cli/atomic_file.hpp"
#include "cli/command.hpp"
#include "cli/gnuplot_runner.hpp"
#include "cli/plot_figures.hpp"
#include "cli/report_html.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/solve_scenario.hpp"
#include "cli/solver_flags.hpp"
#include "costmodel/input_error.hpp"

namespace scaleopt::cli {
namespace {

struct ReportArgs {
  std::string scenario;
  std::vector<std::string> overrides;
  std::string out;
  SolverOptions solver;
};

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// "scaleopt plot KIND FILE --out KIND.svg [--set ...]": how to draw one figure alone.
std::string plot_command_line(std::string_view kind, const std::string& file,
                              const std::vector<std::string>& overrides) {
  std::string line =
      "scaleopt plot " + std::string(kind) + " " + file + " --out " + std::string(kind) + ".svg";
  for (const std::string& o : overrides) line += " --set " + o;
  return line;
}

int run_report(const ReportArgs& args, std::ostream& out) {
  if (!args.out.ends_with(".html") && !args.out.ends_with(".htm")) {
    throw InputError("--out: expected FILE.html, got '" + args.out + "'");
  }
  const Scenario scenario = load_scenario(args.scenario, args.overrides);
  const LifecycleSolution solution = solve_scenario(scenario, args.solver);
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
  inputs.scenario_text = read_text(args.scenario);
  inputs.figures.push_back({"phases", "Lifetime cost by phase of each plan",
                            figure_svg(phases_of(scenario, solution)),
                            plot_command_line("phases", name, args.overrides)});
  inputs.figures.push_back({"isoloss",
                            "Iso-loss map: loss contours, training compute, lifetime cost, the "
                            "frontier and the plans",
                            figure_svg(isoloss_of(scenario, solution)),
                            plot_command_line("isoloss", name, args.overrides)});
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
                              plot_command_line("cost-vs-context", name, args.overrides)});
  }
  write_file_atomically(args.out, report_html(inputs), "--out");
  out << "Wrote " << args.out << " (" << inputs.figures.size() << " figures)\n";
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "report", "Write one self-contained HTML report of a scenario: answer, costs, figures");
  auto args = std::make_shared<ReportArgs>();
  add_scenario_arguments(*command, args->scenario, args->overrides);
  command->add_option("--out", args->out, "The report: FILE.html")->type_name("FILE")->required();
  add_solver_flags(*command, args->solver);
  command->footer(
      "One HTML file, no network and no JavaScript needed: the question, the answer as\n"
      "'scaleopt solve' prints it, costs by phase, the Chinchilla-style model of equal quality,\n"
      "the figures of 'scaleopt plot' inline, and every input with its source.\n"
      "Examples:\n"
      "  scaleopt report examples/frontier_100x.toml --out report.html\n"
      "  scaleopt report examples/budget_plan.toml --out budget.html --set "
      "problem.budget_usd=1B\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_report(*args, out); }; });
}

}  // namespace scaleopt::cli
