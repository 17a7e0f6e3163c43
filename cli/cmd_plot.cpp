// scaleopt plot: a figure of a scenario, computed here and drawn by gnuplot (SVG or PNG), or
// its gnuplot script and data files for users who restyle (docs/plots.md).

#include <filesystem>
#include <memory>

#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/gnuplot_runner.hpp"
#include "cli/plot_figures.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/solve_scenario.hpp"
#include "cli/solver_flags.hpp"

namespace scaleopt::cli {
namespace {

struct PlotArgs {
  std::string kind;
  std::string scenario;
  std::vector<std::string> overrides;
  std::string out;
  std::string script;
  SolverOptions solver;
};

int run_plot(const PlotArgs& args, std::ostream& out) {
  const PlotKind kind = parse_plot_kind(args.kind);
  const plots::FigureFormat format = plots::figure_format_of(args.out, "--out");
  const Scenario scenario = load_scenario(args.scenario, args.overrides);
  plots::Figure figure;
  if (kind == PlotKind::cost_vs_context) {
    figure = cost_vs_context_of(scenario);
  } else {
    const LifecycleSolution solution = solve_scenario(scenario, args.solver);
    if (solution.status() != Status::converged) {
      out << "STATUS: " << to_string(solution.status()) << ": " << solution.message() << "\n"
          << "No figure drawn: the solver's last iterate is not an optimum.\n";
      return kExitNotConverged;
    }
    figure =
        kind == PlotKind::isoloss ? isoloss_of(scenario, solution) : phases_of(scenario, solution);
  }
  if (!args.script.empty()) {
    const std::string output = std::filesystem::path(args.out).filename().string();
    const auto written = write_figure_script(figure, args.script, output, format);
    out << "Wrote " << written.front() << " and " << written.size() - 1 << " data files; "
        << "'gnuplot " << figure.name << ".gp' in " << args.script << " draws " << output << "\n";
    return kExitOk;
  }
  const std::string said = draw_figure(figure, args.out);
  out << "Wrote " << args.out << " (" << to_string(kind) << ")\n";
  if (!said.empty()) out << "gnuplot said: " << said;
  return kExitOk;
}

}  // namespace

void add_plot_command(CLI::App& app, Action& chosen) {
  auto* command =
      app.add_subcommand("plot", "Draw a figure of a scenario with gnuplot: " + plot_kind_names());
  auto args = std::make_shared<PlotArgs>();
  command->add_option("kind", args->kind, "What to draw: " + plot_kind_names())
      ->type_name("KIND")
      ->required();
  add_scenario_arguments(*command, args->scenario, args->overrides);
  command->add_option("--out", args->out, "The figure: FILE.svg or FILE.png (format from the name)")
      ->type_name("FILE")
      ->required();
  command
      ->add_option("--script", args->script,
                   "Write the gnuplot script and its data files into DIR instead of drawing")
      ->type_name("DIR");
  add_solver_flags(*command, args->solver);
  command->footer(
      "Kinds (docs/plots.md):\n"
      "  isoloss          loss contours over log N x log D, iso-FLOP and lifetime-cost lines,\n"
      "                   the frontier, the optimum and the Chinchilla model of equal quality\n"
      "  cost-vs-context  cost per input and output token against context, S*, price list\n"
      "  phases           pretraining / RL / inference cost of each plan, stacked\n"
      "gnuplot draws (scripts/install-deps installs it); --script leaves the script instead.\n"
      "Examples:\n"
      "  scaleopt plot isoloss examples/sardana_compute.toml --out isoloss.svg\n"
      "  scaleopt plot cost-vs-context examples/gemini_200k.toml --out curve.png\n"
      "  scaleopt plot phases examples/frontier_100x.toml --out phases.svg --script plot-src\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_plot(*args, out); }; });
}

}  // namespace scaleopt::cli
