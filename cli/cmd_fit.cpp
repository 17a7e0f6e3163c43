// scaleopt fit: fit L(N, D) = E + A / N^alpha + B / D^beta to training runs in a CSV file
// (Approach 3 of Hoffmann et al. 2022), optionally bootstrap its uncertainty, and write the
// law for --law-file.

#include <limits>
#include <memory>
#include <sstream>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/cli/progress_bar.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/report/fit_output.hpp"
#include "scaleopt/report/joint_fit_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/scenario/atomic_file.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "scaleopt/scenario/runs_csv.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct FitArgs {
  std::string file;
  RunsCsvColumns columns;
  int drop_highest_loss = 0;
  std::string huber_delta = "1e-3";
  int bootstrap = 0;
  std::string seed = "1";
  int threads = 0;
  long long subsample_runs = static_cast<long long>(FitOptions{}.subsample_runs);
  std::string emit_law;
  bool json = false;
};

// The source line of an emitted law: enough to redo the fit.
std::string law_source(const FitArgs& args, const FitReport& report) {
  std::ostringstream source;
  source << "scaleopt fit of " << args.file << ": " << report.fit.runs << " runs";
  if (report.runs_dropped > 0) source << " (" << report.runs_dropped << " highest-loss dropped)";
  source << ", summed Huber delta " << report.huber_delta << ", " << report.fit.starts << " starts";
  if (report.bootstrap) {
    source << "; bootstrap " << report.bootstrap->replicates << " replicates, seed "
           << report.bootstrap->seed;
  }
  return source.str();
}

// Why --emit-law wrote nothing, after the table of a fit that did not converge.
void note_no_law_written(std::ostream& out, const std::string& emit_law, Status status) {
  if (status == Status::converged || emit_law.empty()) return;
  out << "note: no law written to " << emit_law << ": the fit "
      << (status == Status::not_identifiable ? "is not identifiable" : "did not converge") << ".\n";
}

// `fit --experts-col`: the joint dense/MoE law (problems/fit/joint_law_fit.hpp) from the same
// runs, flags and outputs as the law of N and D.
int run_joint_fit(const FitArgs& args, const std::vector<TrainingRun>& runs, std::size_t runs_read,
                  const JointFitOptions& options, std::uint64_t seed,
                  const std::vector<ReadFile>& inputs, std::ostream& out) {
  JointFitReport report;
  report.file = args.file;
  report.runs_read = runs_read;
  report.runs_dropped = static_cast<std::size_t>(args.drop_highest_loss);
  report.huber_delta = options.huber_delta;
  report.fit = fit_joint_law(runs, options);
  if (report.fit.converged() && args.bootstrap > 0) {
    report.bootstrap = bootstrap_joint_law(
        runs, report.fit, options, BootstrapOptions{.replicates = args.bootstrap, .seed = seed});
  }
  if (report.fit.converged() && !args.emit_law.empty()) {
    JointLossLaw joint = report.fit.law;
    std::ostringstream source;
    source << "scaleopt fit --experts-col of " << args.file << ": " << report.fit.runs << " runs";
    if (report.runs_dropped > 0) source << " (" << report.runs_dropped << " highest-loss dropped)";
    source << ", summed Huber delta " << report.huber_delta << ", " << report.fit.starts
           << " starts, E_start and E_max held at Ludziejewski et al. 2025's";
    if (report.bootstrap) {
      source << "; bootstrap " << report.bootstrap->replicates << " replicates, seed "
             << report.bootstrap->seed;
      joint.standard_errors = report.bootstrap->standard_errors();
    }
    joint.source = source.str();
    LossLaw law = law_at_experts(joint, 1.0);
    law.experts.reset();  // the file states no expert count: the scenario's law.experts does
    write_file_atomically(args.emit_law, law_to_toml(law), "--emit-law", inputs);
    report.law_file = args.emit_law;
  }
  if (args.json) {
    out << joint_fit_json(report).dump(2) << "\n";
  } else {
    out << joint_fit_text(report);
    note_no_law_written(out, args.emit_law, report.fit.status);
  }
  return report.fit.converged() ? kExitOk : kExitNotConverged;
}

int run_fit(const FitArgs& args, std::ostream& out, std::ostream& notes,
            const RunContext& context) {
  if (args.drop_highest_loss < 0) {
    throw InputError("--drop-highest-loss: must be >= 0, got " +
                     std::to_string(args.drop_highest_loss));
  }
  if (args.bootstrap < 0 || args.bootstrap == 1) {
    throw InputError("--bootstrap: must be 0 (none) or at least 2 replicates, got " +
                     std::to_string(args.bootstrap));
  }
  const unsigned threads = parse_threads_flag("--threads", args.threads);
  const std::uint64_t seed = parse_seed_flag("--seed", args.seed);
  FitOptions options;
  options.huber_delta = parse_positive_flag("--huber-delta", args.huber_delta, Unit::number);
  options.threads = threads;
  options.lbfgs.stop = context.stop;
  if (args.subsample_runs > 0 && static_cast<std::size_t>(args.subsample_runs) < kMinimumRuns) {
    throw InputError("--subsample-runs: 0 (every start on every run) or at least " +
                     std::to_string(kMinimumRuns) + " runs, got " +
                     std::to_string(args.subsample_runs));
  }
  options.subsample_runs = static_cast<std::size_t>(args.subsample_runs);

  // Runs given in memory name no file (the name only stands for them in messages).
  const std::vector<ReadFile> inputs =
      context.runs ? std::vector<ReadFile>{} : std::vector<ReadFile>{{args.file, "the runs file"}};
  if (!args.emit_law.empty()) check_output(args.emit_law, "--emit-law", inputs);
  RunsCsv csv;
  if (context.runs) {
    args.columns.validate();
    csv.runs = *context.runs;
  } else {
    csv = read_runs_csv(args.file, args.columns);
  }
  FitReport report;
  report.file = args.file;
  report.runs_read = csv.runs.size();
  report.huber_delta = options.huber_delta;
  const auto drop = static_cast<std::size_t>(args.drop_highest_loss);
  if (drop > 0 && drop >= csv.runs.size()) {
    throw InputError("--drop-highest-loss: drops " + std::to_string(drop) + " of the " +
                     std::to_string(csv.runs.size()) + " runs in " + args.file +
                     ", leaving none to fit");
  }
  const std::vector<TrainingRun> runs = without_highest_loss(csv.runs, drop);
  report.runs_dropped = drop;
  if (!args.columns.experts.empty()) {
    JointFitOptions joint_options;
    joint_options.huber_delta = options.huber_delta;
    joint_options.threads = threads;
    joint_options.lbfgs.stop = context.stop;
    return run_joint_fit(args, runs, csv.runs.size(), joint_options, seed, inputs, out);
  }

  if (options.subsample_runs > 0 && runs.size() > options.subsample_runs) {
    notes << "scaleopt: note: fitting " << runs.size() << " runs: the " << options.starts.size()
          << " starts on " << options.subsample_runs << " of them (evenly spaced by N and D), "
          << "the best " << options.refined_starts << " optima refined on every run\n"
          << std::flush;
  }
  {
    // Minutes for large files: a bar on stderr when it is a terminal (cli/progress_bar.hpp).
    ProgressBar bar(fit_steps(runs.size(), options));
    options.progress = [&bar](std::size_t n) { bar.add(n); };
    report.fit = fit_scaling_law(runs, options);
    options.progress = nullptr;
  }
  if (report.fit.status == Status::not_identifiable) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();  // JSON null
    report.implied = {kNaN, kNaN, kNaN};
  } else {
    report.implied = law_implications(report.fit.law);
  }
  if (report.fit.converged() && args.bootstrap > 0) {
    ProgressBar bar(static_cast<std::size_t>(args.bootstrap));
    report.bootstrap = bootstrap_scaling_law(
        runs, report.fit, options, BootstrapOptions{.replicates = args.bootstrap, .seed = seed},
        [&bar](std::size_t n) { bar.add(n); });
  }
  if (report.fit.converged() && !args.emit_law.empty()) {
    LossLaw law = report.fit.law;
    law.source = law_source(args, report);
    if (report.bootstrap) law.uncertainty = report.bootstrap->uncertainty();
    write_file_atomically(args.emit_law, law_to_toml(law), "--emit-law", inputs);
    report.law_file = args.emit_law;
  }

  if (args.json) {
    out << fit_json(report).dump(2) << "\n";
  } else {
    print_fit(out, report);
    note_no_law_written(out, args.emit_law, report.fit.status);
  }
  return report.fit.converged() ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_fit_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "fit", "Fit the loss law L(N, D) = E + A/N^alpha + B/D^beta to training runs (CSV)");
  auto args = std::make_shared<FitArgs>();
  command->add_option("RUNS.csv", args->file, "CSV file with a header line and one run per row")
      ->type_name("FILE")
      ->required();
  command->add_option("--params-col", args->columns.params, "Column of model sizes N (parameters)")
      ->type_name("NAME")
      ->required();
  command
      ->add_option("--tokens-col", args->columns.tokens,
                   "Column of training tokens D (this or --flops-col is required)")
      ->type_name("NAME");
  command
      ->add_option("--flops-col", args->columns.flops,
                   "Column of training compute C in FLOPs, instead of D (D = C / (6 N))")
      ->type_name("NAME");
  command->add_option("--loss-col", args->columns.loss, "Column of final losses L (nats per token)")
      ->type_name("NAME")
      ->required();
  command
      ->add_option("--experts-col", args->columns.experts,
                   "Column of expert counts E (1 = dense): fit the joint dense/MoE law of "
                   "Ludziejewski et al. 2025 instead")
      ->type_name("NAME");
  command
      ->add_option("--drop-highest-loss", args->drop_highest_loss,
                   "Leave out this many runs of highest loss (Epoch AI drop 5 of Hoffmann's)")
      ->default_str("0")
      ->type_name("COUNT")
      ->transform(count_check(0, kMaxShapeCount));
  command
      ->add_option("--huber-delta", args->huber_delta,
                   "Huber threshold on residuals of ln L, a plain number (Hoffmann et al.: 1e-3)")
      ->default_str("1e-3")
      ->type_name("NUMBER");
  command
      ->add_option(
          "--bootstrap", args->bootstrap,
          "Resamples of the runs to refit, for standard errors and 10/90% intervals (0: none)")
      ->default_str("0")
      ->type_name("COUNT")
      ->transform(count_check(0, kMaxBootstrap));
  command
      ->add_option("--seed", args->seed,
                   "Seed of the bootstrap resampling (same seed, same output at any --threads)")
      ->default_str("1")
      ->type_name("UINT");
  command
      ->add_option("--threads", args->threads,
                   "Threads for the starts and refits (0: one per hardware thread)")
      ->default_str("0")
      ->type_name("COUNT")
      ->transform(count_check(0, kMaxThreads));
  command
      ->add_option("--subsample-runs", args->subsample_runs,
                   "Above this many runs, run the 4,500 starts on this many (evenly spaced by N "
                   "and D) and refine the best 8 optima on every run; 0: every start on every "
                   "run, however many")
      ->default_str(std::to_string(FitOptions{}.subsample_runs))
      ->type_name("COUNT")
      ->transform(count_check(0, kMaxShapeCount));
  command
      ->add_option("--emit-law", args->emit_law,
                   "Write the fitted law (with the bootstrap's uncertainty) as a TOML [law] "
                   "block for --law-file")
      ->type_name("FILE")
      ->check(refuse_empty_file_name);
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "Minimises the summed Huber loss of ln L against ln(E + A/N^alpha + B/D^beta) by L-BFGS\n"
      "from each of Hoffmann et al.'s 4,500 grid starts (App. D.2), in parallel. See\n"
      "docs/fitting.md.\n"
      "Above --subsample-runs runs (1,000) the starts run on a subsample and the best\n"
      "optima are refined on every run: 10^6 runs take about a minute, not hours.\n"
      "Runs that cannot determine the law (fewer than 5, or fewer than 3 distinct model\n"
      "sizes or token counts) give status not_identifiable and exit 1.\n"
      "Examples (examples/chinchilla_fig4_epoch.csv: Hoffmann et al.'s runs as Epoch AI\n"
      "digitised them; see examples/README.md):\n"
      "  scaleopt fit examples/chinchilla_fig4_epoch.csv --params-col 'Model Size' \\\n"
      "      --flops-col 'Training FLOP' --loss-col loss --drop-highest-loss 5\n"
      "  scaleopt fit examples/chinchilla_fig4_epoch.csv --params-col 'Model Size' \\\n"
      "      --flops-col 'Training FLOP' --loss-col loss --drop-highest-loss 5 \\\n"
      "      --bootstrap 1000 --emit-law fitted.toml\n"
      "  scaleopt optimal --compute 1e24 --law-file fitted.toml\n"
      "With --experts-col the joint law L = a E^^delta N^(alpha + gamma ln E^) +\n"
      "b E^^omega D^(beta + zeta ln E^) + E is fitted from a grid of 2,187 starts, E_start and\n"
      "E_max of E^ held at the paper's values; --emit-law writes [law.joint].\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes, const RunContext& context) {
      return run_fit(*args, out, notes, context);
    };
  });
}

}  // namespace scaleopt::cli
