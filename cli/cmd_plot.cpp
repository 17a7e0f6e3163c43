// scaleopt plot: a figure of a scenario, computed here and drawn by gnuplot (SVG or PNG), or
// its gnuplot script and data files for users who restyle (docs/plots.md).

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/cli/analysis_flags.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/scenario_flags.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/analysis_figures.hpp"
#include "scaleopt/report/gnuplot_runner.hpp"
#include "scaleopt/report/plot_figures.hpp"
#include "scaleopt/report/sweep_plot.hpp"
#include "scaleopt/report/uncertainty_output.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct PlotArgs {
  std::string kind;
  std::string scenario;
  std::vector<std::string> overrides;
  std::string law_file;
  std::string out;
  std::string script;
  SweepChoice sweep;
  std::vector<std::string> marks;  // --mark X,Y[,LABEL], parsed by sweep_marks
  bool sweep_options = false;      // --x, --y, --series or --mark given
  std::string tornado = "20%";
  std::string rank_by = "params";
  std::vector<std::string> inputs, exclude;  // --inputs, --exclude
  bool tornado_options = false;              // --tornado, --rank-by, --inputs or --exclude given
  long long samples = 10000;
  std::string seed = "1";
  bool uncertainty_options = false;  // --samples or --seed given
  int threads = 0;
  SolverOptions solver;
};

// --mark X,Y[,LABEL]: numbers in the sweep file's units (suffixes as everywhere: 3.27T), the
// label free text (it reaches gnuplot only as a quoted string).
std::vector<plots::SweepMark> sweep_marks(const std::vector<std::string>& texts) {
  if (texts.size() > kMaxMarks) {
    throw InputError("--mark: at most " + std::to_string(kMaxMarks) + " points, got " +
                     std::to_string(texts.size()));
  }
  std::vector<plots::SweepMark> marks;
  for (const std::string& text : texts) {
    const std::size_t first = text.find(',');
    const std::size_t second = first == std::string::npos ? first : text.find(',', first + 1);
    if (first == std::string::npos) {
      throw InputError("--mark: expected X,Y[,LABEL] (e.g. 0.02,100,the talk), got '" + text + "'");
    }
    plots::SweepMark mark;
    try {
      mark.x = parse_quantity(std::string_view(text).substr(0, first), Unit::count);
      mark.y =
          parse_quantity(std::string_view(text).substr(first + 1, second - first - 1), Unit::count);
    } catch (const InputError& error) {
      throw InputError("--mark '" + text + "': " + error.what());
    }
    if (second != std::string::npos) mark.label = text.substr(second + 1);
    if (mark.label.size() > kMaxMarkLabelBytes) {
      throw InputError("--mark: a label of at most " + std::to_string(kMaxMarkLabelBytes) +
                       " bytes");
    }
    marks.push_back(std::move(mark));
  }
  return marks;
}

// Draws the figure, or writes its script and data with --script; none of `inputs` (the files
// read) is written. The figure's notes (what it leaves out) follow.
int finish(const PlotArgs& args, const plots::Figure& figure, PlotKind kind,
           plots::FigureFormat format, const std::vector<ReadFile>& inputs, std::ostream& out) {
  if (!args.script.empty()) {
    const std::string output = std::filesystem::path(args.out).filename().string();
    const auto written = write_figure_script(figure, args.script, output, format, inputs);
    out << "Wrote " << written.front() << " and " << written.size() - 1 << " data files; "
        << "'gnuplot " << figure.name << ".gp' in " << args.script << " draws " << output << "\n";
  } else {
    const std::string said = draw_figure(figure, args.out, inputs);
    out << "Wrote " << args.out << " (" << to_string(kind) << ")\n";
    if (!said.empty()) out << "gnuplot said: " << said;
  }
  for (const std::string& note : figure.notes) out << "Note: " << note << "\n";
  return kExitOk;
}

int run_plot(const PlotArgs& args, std::ostream& out, std::ostream& notes) {
  const PlotKind kind = parse_plot_kind(args.kind);
  const plots::FigureFormat format = plots::figure_format_of(args.out, "--out");
  if (args.sweep_options && kind != PlotKind::sweep) {
    throw InputError("--x, --y, --series and --mark: only for plot sweep");
  }
  if (args.tornado_options && kind != PlotKind::tornado) {
    throw InputError("--tornado, --rank-by, --inputs and --exclude: only for plot tornado");
  }
  if (args.uncertainty_options && kind != PlotKind::uncertainty) {
    throw InputError("--samples and --seed: only for plot uncertainty");
  }
  // With --script, --out only names the image in the script: nothing is written there.
  if (kind == PlotKind::sweep) {
    if (!args.overrides.empty()) throw InputError("--set: plot sweep reads a sweep file");
    if (!args.law_file.empty()) throw InputError("--law-file: plot sweep reads a sweep file");
    const std::vector<ReadFile> inputs{{args.scenario, "the sweep file"}};
    if (args.script.empty()) check_output(args.out, "--out", inputs);
    SweepChoice choice = args.sweep;
    choice.marks = sweep_marks(args.marks);
    return finish(args, sweep_of(args.scenario, choice), kind, format, inputs, out);
  }
  if (args.script.empty()) {
    // Before reading the scenario (its law file is checked once it is known, below).
    check_output(args.out, "--out", {{args.scenario, "the scenario file"}});
  }
  const Scenario scenario = load_scenario(args.scenario, args.overrides, {args.law_file});
  print_scenario_warnings(scenario, notes);
  const std::vector<ReadFile> inputs = scenario_inputs(scenario);
  if (args.script.empty()) check_output(args.out, "--out", inputs);
  if (kind == PlotKind::cost_vs_context) {
    return finish(args, cost_vs_context_of(scenario), kind, format, inputs, out);
  }
  if (kind == PlotKind::cost_vs_context_models) {
    return finish(args, cost_vs_context_models_of(scenario), kind, format, inputs, out);
  }
  if (kind == PlotKind::rl_shares) {
    return finish(args, rl_shares_of(scenario, args.solver), kind, format, inputs, out);
  }
  const QuestionSolution solution = solve_scenario(scenario, args.solver);
  if (kind == PlotKind::tornado) {
    SensitivityAnalysisOptions options;
    options.tornado_fraction = parse_flag("--tornado", args.tornado, Unit::number);
    options.rank_by = parse_elasticity_output(args.rank_by, "--rank-by");
    options.threads = parse_threads_flag("--threads", args.threads);
    options.solver = args.solver;
    options.inputs = args.inputs;
    options.exclude = args.exclude;
    options.validate();
    const SensitivityResult result = analyse_sensitivity(scenario, options);
    if (result.status != Status::converged) {
      out << "STATUS: " << to_string(result.status) << ": " << result.message << "\n"
          << "No figure drawn: the base case did not converge.\n";
      return kExitNotConverged;
    }
    return finish(args, tornado_of(scenario, result.report, options), kind, format, inputs, out);
  }
  if (kind == PlotKind::uncertainty) {
    MonteCarloOptions options;
    options.samples = static_cast<std::size_t>(args.samples);
    options.seed = parse_seed_flag("--seed", args.seed);
    options.threads = parse_threads_flag("--threads", args.threads);
    options.solver = args.solver;
    options.keep_outputs = true;
    const MonteCarloReport report = run_monte_carlo(scenario, options);
    if (report.converged == 0) {
      out << "STATUS: not_converged: " << no_converged_sample_message(report) << "\n"
          << "No figure drawn: there is nothing to histogram.\n";
      return kExitNotConverged;
    }
    return finish(args, uncertainty_of(scenario, report, options), kind, format, inputs, out);
  }
  if (solution.status() != Status::converged) {
    out << "STATUS: " << to_string(solution.status()) << ": " << solution.message() << "\n"
        << "No figure drawn: the solver's last iterate is not an optimum.\n";
    return kExitNotConverged;
  }
  return finish(
      args,
      kind == PlotKind::isoloss ? isoloss_of(scenario, solution) : phases_of(scenario, solution),
      kind, format, inputs, out);
}

// What `plot KIND --help` adds for one kind: what it draws, what it needs, its flags and an
// example whose input files exist (a sweep file is made by the example before).
std::string kind_help(PlotKind kind) {
  switch (kind) {
    case PlotKind::isoloss:
      return "plot isoloss: loss contours over log N x log D, lines of equal training compute\n"
             "and of equal lifetime cost, the compute-optimal frontier (or the rule), the\n"
             "optimum, the Chinchilla-style model of equal quality and (equal-cost) the\n"
             "heuristic, labelled. Needs a scenario whose [problem] solves.\n"
             "Example:\n"
             "  scaleopt plot isoloss examples/sardana_compute.toml --out isoloss.svg\n"
             "  scaleopt plot isoloss examples/sardana_compute.toml --law-file fitted.toml --out "
             "f.svg\n";
    case PlotKind::cost_vs_context:
      return "plot cost-vs-context: cost per input and output token (USD per million) against\n"
             "context (log axes) at the best batch and the large-batch limit, S*, the knee,\n"
             "the scenario's context and its [pricing] list. Needs a model and a serving\n"
             "setup; no [problem].\n"
             "Example:\n"
             "  scaleopt plot cost-vs-context examples/gemini_200k.toml --out curve.png\n";
    case PlotKind::cost_vs_context_models:
      return "plot cost-vs-context-models: cost per output (solid) and input (dashed) token\n"
             "(USD per million) against context from 8K to 1M, a line per model of\n"
             "inference.compare_models, each on the scenario's chip, precisions and price on\n"
             "the fewest whole nodes holding its weights twice; a line ends where a sequence\n"
             "no longer fits. Needs inference.compare_models; no [problem].\n"
             "Example:\n"
             "  scaleopt plot cost-vs-context-models examples/long_context_1m.toml --out m.svg\n";
    case PlotKind::phases:
      return "plot phases: stacked bars of the pretraining, RL and inference cost of each plan\n"
             "(the optimum, the Chinchilla-style model, the heuristic). Needs a scenario whose\n"
             "[problem] solves.\n"
             "Example:\n"
             "  scaleopt plot phases examples/frontier_100x.toml --out phases.svg\n";
    case PlotKind::sweep:
      return "plot sweep: one column of a sweep file (--y, default params) against a varied\n"
             "input (--x, default the first), one line per value of another (--series,\n"
             "default the second, or none), the lowest value labelled when it is an interior\n"
             "minimum (a curve that only falls or rises has none: the key and the output say\n"
             "so). Reads the CSV of 'scaleopt sweep --out'; no --set. --mark X,Y,LABEL\n"
             "(repeatable) draws a point of your own beside the lines, e.g. a published claim\n"
             "to compare against.\n"
             "Examples (the sweep first):\n"
             "  scaleopt sweep examples/sardana_cost.toml --vary "
             "inference.requests=1e8..1e12:log:20 "
             "\\\n"
             "      --vary inference.decode_mfu=0.1..0.3:3 --out sweep.csv\n"
             "  scaleopt plot sweep sweep.csv --y cost.total.usd --out sweep.png\n";
    case PlotKind::tornado:
      return "plot tornado: the output --rank-by (default params) with each input moved by\n"
             "-+--tornado (default 20%) and re-solved, ranked by swing around the base. Needs a\n"
             "scenario whose [problem] solves; --threads splits the re-solves.\n"
             "Example:\n"
             "  scaleopt plot tornado examples/sardana_cost.toml --rank-by cost_total --out "
             "t.svg\n";
    case PlotKind::uncertainty:
      return "plot uncertainty: histograms of the optimum's outputs over --samples (default\n"
             "10000, at most 1e6) Monte Carlo samples of the [uncertainty] table (--seed,\n"
             "default 1), with the 5/50/95% quantiles. Exit 1 without a figure when no sample\n"
             "converges.\n"
             "Example:\n"
             "  scaleopt plot uncertainty examples/frontier_uncertain.toml --out mc.png\n";
    case PlotKind::rl_shares:
      return "plot rl-shares: the optimum's RL share of the lifetime cost against\n"
             "rl.returns.max_gain, one line per rl.returns.half_ratio, each point re-solved\n"
             "(docs/model.md, \"RL returns\"). Needs a scenario whose [problem] solves; without\n"
             "[rl.returns] its defaults are used.\n"
             "Example:\n"
             "  scaleopt plot rl-shares examples/frontier_rl.toml --out rl_shares.svg\n";
  }
  return "";
}

}  // namespace

void add_plot_command(CLI::App& app, Action& chosen) {
  auto* command =
      app.add_subcommand("plot", "Draw a figure of a scenario with gnuplot: " + plot_kind_names());
  auto args = std::make_shared<PlotArgs>();
  command->add_option("kind", args->kind, "What to draw: " + plot_kind_names())
      ->type_name("KIND")
      ->required();
  add_scenario_arguments(*command, args->scenario, args->overrides, args->law_file,
                         "SCENARIO.toml|SWEEP.csv",
                         "Scenario file (TOML, docs/scenario.md), or for sweep the file of "
                         "'scaleopt sweep --out'");
  command->add_option("--out", args->out, "The figure: FILE.svg or FILE.png (format from the name)")
      ->type_name("FILE")
      ->check(refuse_empty_file_name)
      ->required();
  command
      ->add_option("--script", args->script,
                   "Write the gnuplot script and its data files into DIR instead of drawing")
      ->type_name("DIR")
      ->check(refuse_empty_file_name);
  auto* x =
      command
          ->add_option("--x", args->sweep.x, "sweep: the varied input along x (default: the first)")
          ->type_name("PATH")
          ->group("Sweep");
  auto* y = command
                ->add_option("--y", args->sweep.y,
                             "sweep: the column drawn (e.g. pretrain_tokens, cost.total.usd)")
                ->type_name("COLUMN")
                ->default_str("params")
                ->group("Sweep");
  auto* series =
      command
          ->add_option(
              "--series", args->sweep.series,
              "sweep: one line per value of this varied input (default: the second), or none")
          ->type_name("PATH")
          ->group("Sweep");
  auto* mark =
      command
          ->add_option("--mark", args->marks,
                       "sweep: also draw the point X,Y with LABEL, in the file's units (e.g. a "
                       "published claim: --mark '0.02,100,the talk'); repeatable")
          ->type_name("X,Y[,LABEL]")
          ->group("Sweep");
  for (CLI::Option* option : {x, y, series, mark}) {
    option->each([args](const std::string&) { args->sweep_options = true; });
  }
  auto* tornado =
      command
          ->add_option(
              "--tornado", args->tornado,
              "tornado: move each input down and up by this fraction of its value, e.g. 20%")
          ->type_name("FRACTION")
          ->default_str("20%")
          ->group("Tornado");
  auto* rank_by = command
                      ->add_option("--rank-by", args->rank_by,
                                   "tornado: the output drawn and ranked by: params, "
                                   "pretrain_tokens, loss, cost_total or over_chinchilla")
                      ->type_name("OUTPUT")
                      ->default_str("params")
                      ->group("Tornado");
  const auto [inputs, exclude] =
      add_input_choice_flags(*command, args->inputs, args->exclude, "Tornado");
  for (CLI::Option* option : {tornado, rank_by, inputs, exclude}) {
    option->each([args](const std::string&) { args->tornado_options = true; });
  }
  auto* samples =
      command
          ->add_option("--samples", args->samples,
                       "uncertainty: samples to draw from [uncertainty] and solve (a count)")
          ->type_name("COUNT")
          ->transform(count_check(1, kMaxSamples))
          ->default_str("10000")
          ->group("Uncertainty");
  auto* seed = command
                   ->add_option("--seed", args->seed,
                                "uncertainty: sample i draws from its own stream of (seed, i)")
                   ->type_name("S")
                   ->default_str("1")
                   ->group("Uncertainty");
  for (CLI::Option* option : {samples, seed}) {
    option->each([args](const std::string&) { args->uncertainty_options = true; });
  }
  command
      ->add_option("--threads", args->threads,
                   "tornado, uncertainty: threads (0: one per hardware thread)")
      ->default_str("0")
      ->type_name("COUNT")
      ->transform(count_check(0, kMaxThreads));
  add_solver_flags(*command, args->solver);
  // `plot KIND --help`: CLI11 stores the kind (running this check) before it answers --help,
  // so the help shows that kind's options and text alone.
  const std::vector<std::pair<PlotKind, std::vector<CLI::Option*>>> kind_options = {
      {PlotKind::sweep, {x, y, series, mark}},
      {PlotKind::tornado, {tornado, rank_by}},
      {PlotKind::uncertainty, {samples, seed}}};
  command->get_option("kind")->each([command, kind_options](const std::string& text) {
    PlotKind kind{};
    try {
      kind = parse_plot_kind(text);
    } catch (const InputError&) {
      return;  // run_plot names the unknown kind
    }
    for (const auto& [owner, options] : kind_options) {
      if (owner == kind) continue;
      for (CLI::Option* option : options) option->group("");  // hidden from this help
    }
    command->footer(kind_help(kind) + "See 'scaleopt plot --help' for every kind.\n");
  });
  command->footer(
      "Kinds (docs/plots.md; 'scaleopt plot KIND --help' for one):\n"
      "  isoloss          loss contours over log N x log D, iso-FLOP and lifetime-cost lines,\n"
      "                   the frontier, the optimum and the Chinchilla model of equal quality\n"
      "  cost-vs-context  cost per input and output token against context, S*, price list\n"
      "  cost-vs-context-models\n"
      "                   the same from 8K to 1M, a line per model of inference.compare_models\n"
      "  phases           pretraining / RL / inference cost of each plan, stacked\n"
      "  sweep            one output against a varied input from a sweep file, a line per\n"
      "                   value of a second input (--x, --y, --series)\n"
      "  tornado          the output at each input -+20%, re-solved, ranked (--rank-by)\n"
      "  uncertainty      Monte Carlo histograms with 5/50/95% marks ([uncertainty], --samples)\n"
      "gnuplot draws (scripts/install-deps installs it); --script leaves the script instead.\n"
      "Examples:\n"
      "  scaleopt plot isoloss examples/sardana_compute.toml --out isoloss.svg\n"
      "  scaleopt plot cost-vs-context examples/gemini_200k.toml --out curve.png\n"
      "  scaleopt plot cost-vs-context-models examples/long_context_1m.toml --out m.svg\n"
      "  scaleopt plot phases examples/frontier_100x.toml --out phases.svg --script plot-src\n"
      "  scaleopt sweep examples/sardana_cost.toml --vary inference.requests=1e8..1e12:log:20 \\\n"
      "      --vary inference.decode_mfu=0.1..0.3:3 --out sweep.csv\n"
      "  scaleopt plot sweep sweep.csv --y pretrain_tokens --out sweep.png\n"
      "  scaleopt plot tornado examples/sardana_cost.toml --rank-by cost_total --out t.svg\n"
      "  scaleopt plot uncertainty examples/frontier_uncertain.toml --out mc.png\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) { return run_plot(*args, out, notes); };
  });
}

}  // namespace scaleopt::cli
