// scaleopt sweep: a scenario's question answered on a grid of inputs, one CSV row per point,
// on all cores, sharded across machines, interruptible and resumable.

#include <sys/stat.h>

#include <chrono>
#include <memory>
#include <sstream>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/sweep_csv_writer.hpp"
#include "scaleopt/analysis/sweep_file.hpp"
#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/cli/analysis_flags.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/interrupt.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/progress_bar.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/sweep_summary.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt::cli {
using report::sweep_summary_json;
using report::SweepSummary;
namespace {

struct SweepArgs {
  AnalysisArgs common;
  std::vector<std::string> vary;
  std::string out;
  std::string shard = "1/1";
  bool resume = false;
  std::string stop_after;  // empty: solve every point
};

std::vector<SweepAxis> parse_axes(const Scenario& scenario, const std::vector<std::string>& vary) {
  std::vector<SweepAxis> axes;
  for (const std::string& argument : vary) {
    axes.push_back(parse_vary(scenario, argument));
    for (std::size_t a = 0; a + 1 < axes.size(); ++a) {
      if (axes[a].input.path() == axes.back().input.path()) {
        throw InputError("--vary " + argument + ": " + axes.back().input.path() +
                         " is varied twice");
      }
    }
  }
  return axes;
}

struct Progress {
  std::size_t todo = 0;
  std::size_t resumed = 0;
  SweepTally tally;
  bool interrupted = false;
  bool stopped = false;  // --stop-after reached
  double seconds = 0.0;
};

void print_summary(std::ostream& out, const SweepArgs& args, const SweepGrid& grid,
                   const Shard& shard, const Progress& p, bool json) {
  const std::string partial = partial_path(args.out);
  const bool finished = !p.interrupted && !p.stopped;
  if (json) {
    SweepSummary summary;
    summary.file = finished ? args.out : partial;
    summary.complete = finished;
    summary.grid_points = grid.size();
    summary.shard = std::to_string(shard.index) + "/" + std::to_string(shard.count);
    summary.resumed_points = p.resumed;
    summary.tally = p.tally;
    summary.seconds = p.seconds;
    out << sweep_summary_json(summary).dump(2) << "\n";
    return;
  }
  if (p.interrupted) {
    out << "interrupted: " << p.tally.points << " of " << p.todo
        << " points solved; every finished row is in " << partial
        << " (continue with the same command and --resume)\n";
  } else if (p.stopped) {
    out << "stopped after " << p.tally.points << " points (--stop-after); the rows so far are in "
        << partial << " (continue with the same command and --resume)\n";
  } else {
    out << "wrote " << args.out << ": " << grid.size() << " grid points";
    if (shard.count > 1) out << ", shard " << shard.index << "/" << shard.count;
    out << "\n";
  }
  out << "  solved " << p.tally.points << " points in " << p.seconds << " s";
  if (p.resumed > 0) out << " (" << p.resumed << " were already in " << partial << ")";
  out << ": " << p.tally.converged << " converged, " << p.tally.infeasible << " infeasible, "
      << p.tally.not_converged << " not converged, " << p.tally.invalid_input
      << " with invalid inputs; " << p.tally.fast_path << " by the 1-D Newton fast path\n";
  if (p.tally.not_converged > 0) {
    out << "  rows whose status is not \"converged\" are not optima (see the status column)\n";
  }
}

// Whether --out exists; refuses what a sweep cannot finish into. The rows wait in OUT.partial
// beside OUT (to resume), which cannot be beside a device or a FIFO (in /dev, say).
bool check_sweep_output(const std::string& out, const std::vector<ReadFile>& inputs) {
  const OutputKind kind = check_output(out, "--out", inputs);
  struct stat status {};
  if (kind == OutputKind::in_place &&
      (::stat(out.c_str(), &status) != 0 || !S_ISREG(status.st_mode))) {
    throw InputError("--out: " + out +
                     " is not a regular file (a device or FIFO): a sweep keeps its rows in "
                     "OUT.partial beside OUT; write to a file");
  }
  return kind != OutputKind::absent;
}

// Whether OUT.partial exists. It is appended to (--resume) or created, so it must be a plain
// regular file: through a symbolic link a sweep would write into someone else's file.
bool check_partial(const std::string& partial, const std::vector<ReadFile>& inputs) {
  const OutputKind kind = check_output(partial, "--out", inputs);
  if (kind == OutputKind::in_place) {
    throw InputError("--out: " + partial +
                     " is not a regular file (a symbolic link, device or FIFO): remove it");
  }
  return kind == OutputKind::file;
}

// A sweep this large writes gigabytes: say how much before the first point is solved, from the
// length of point 0's row (rows differ by a few digits only).
void note_output_size(std::ostream& notes, const SweepRunner& runner, const SweepCsvWriter& csv,
                      std::size_t rows, const std::string& file) {
  std::string first_row;
  const std::size_t first[] = {0};
  (void)runner.solve(
      first, nullptr, [&](const SweepBlock& block) { first_row += csv.rows(block.answers); },
      [] { return false; }, [](std::size_t) {});
  const double bytes = static_cast<double>(csv.header().size() + 1) +
                       static_cast<double>(first_row.size()) * static_cast<double>(rows);
  notes << "scaleopt: note: " << file << " will hold " << rows << " rows, about "
        << format_quantity(bytes, Unit::bytes, 3) << " (" << first_row.size() << " bytes a row)\n"
        << std::flush;
}

int run_sweep(const SweepArgs& args, std::ostream& out, std::ostream& notes) {
  if (args.vary.empty()) throw InputError("--vary: give at least one PATH=LO..HI");
  const Shard shard = parse_shard(args.shard);
  const std::uint64_t stop_after =
      args.stop_after.empty() ? 0
                              : parse_count_flag("--stop-after", args.stop_after, 1,
                                                 static_cast<std::uint64_t>(kMaxGridPoints));
  SweepOptions options;
  options.threads = parse_threads_flag("--threads", args.common.threads);
  options.solver = args.common.solver;
  options.method = parse_method(args.common.method);
  const Scenario scenario = load_analysis_scenario(args.common);
  const SweepGrid grid(parse_axes(scenario, args.vary));
  check_first_point(scenario, grid);
  const SweepRunner runner(scenario, grid, options);
  const SweepCsvWriter csv(grid, runner.layout(), options.solver.algorithm);
  const std::string header = csv.header();
  // The file's first lines say which question it answers, so that --resume and merge can
  // refuse rows of another (analysis/sweep_provenance.hpp).
  const Provenance provenance =
      sweep_provenance(scenario, grid, shard, options.method, options.solver);

  const std::vector<ReadFile> inputs{{args.common.scenario, "the scenario file"}};
  const bool have_out = check_sweep_output(args.out, inputs);
  const std::string partial = partial_path(args.out);
  const bool have_partial = check_partial(partial, inputs);
  if (have_partial && !args.resume) {
    throw InputError(partial + ": an interrupted sweep's rows are there: add --resume to " +
                     "continue it, or remove the file to start again");
  }
  if (!have_partial && args.resume && have_out) {
    // A finished shard resubmitted with the rest of a job array: nothing left to do.
    // Room for another grid's longer provenance lines; a longer head is not this sweep's.
    const std::string text = read_input_head(
        args.out, provenance.text().size() + header.size() + 1 + (std::size_t{1} << 16), "--out");
    Provenance found;
    const std::size_t header_begin = read_provenance(text, found);
    check_provenance(args.out, found, provenance);
    if (text.compare(header_begin, header.size() + 1, header + "\n") != 0) {
      throw InputError(args.out + ": exists with other columns: it is not this sweep's output");
    }
    out << args.out << " is complete: nothing to resume\n";
    return kExitOk;
  }
  PartialRows done;
  if (have_partial) {
    done = read_partial(
        partial, provenance, header, grid.size(), [&](std::size_t p) { return in_shard(p, shard); },
        [&](std::size_t p) { return csv.values_text(p); });
  }
  Progress progress;
  progress.resumed = done.points.size();
  progress.todo = shard_points(grid.size(), shard) - done.points.size();
  std::size_t limit = progress.todo;
  if (stop_after > 0 && stop_after < limit) {
    limit = stop_after;
    progress.stopped = true;
  }
  if (const std::size_t rows = shard_points(grid.size(), shard); rows > kSweepSizeNotePoints) {
    note_output_size(notes, runner, csv, rows, args.out);
  }

  PartialFile file(partial, provenance.text() + header, have_partial);
  bool ordered = done.ordered;
  const auto start = std::chrono::steady_clock::now();
  {
    const InterruptGuard guard;
    ProgressBar bar(limit);
    const auto stop = [] { return InterruptGuard::interrupted(); };
    const auto finished = [&bar](std::size_t n) { bar.add(n); };
    std::vector<std::size_t> chunk;
    // The rows are formatted on the workers, blocks at once; written in order.
    const auto rows = [&csv](SweepBlock& block) { block.text = csv.rows(block.answers); };
    const auto write = [&file](const SweepBlock& block) { file.append(block.text); };
    auto skip = done.points.begin();
    std::size_t taken = 0;
    // This shard's points in increasing order, less those already done, chunk by chunk.
    for (std::size_t b = shard.index - 1; b * kShardBlock < grid.size() && taken < limit;
         b += shard.count) {
      const std::size_t end = std::min(grid.size(), (b + 1) * kShardBlock);
      for (std::size_t p = b * kShardBlock; p < end && taken < limit; ++p) {
        while (skip != done.points.end() && *skip < p) ++skip;
        if (skip != done.points.end() && *skip == p) continue;
        if (!done.points.empty() && p < done.points.back()) ordered = false;
        chunk.push_back(p);
        ++taken;
        if (chunk.size() == runner.chunk_points()) {
          progress.tally.add(runner.solve(chunk, rows, write, stop, finished));
          chunk.clear();
          if (InterruptGuard::interrupted()) break;
        }
      }
      if (InterruptGuard::interrupted()) break;
    }
    if (!chunk.empty() && !InterruptGuard::interrupted()) {
      progress.tally.add(runner.solve(chunk, rows, write, stop, finished));
    }
    progress.interrupted = InterruptGuard::interrupted();
  }
  progress.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress.interrupted) progress.stopped = false;
  if (!progress.interrupted && !progress.stopped)
    finish_partial(partial, args.out, ordered, inputs);
  print_summary(out, args, grid, shard, progress, args.common.json);
  if (progress.interrupted) return kExitInterrupted;
  return progress.tally.not_converged > 0 ? kExitNotConverged : kExitOk;
}

}  // namespace

void add_sweep_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "sweep", "Solve a scenario's question on a grid of inputs: one CSV row per point");
  auto args = std::make_shared<SweepArgs>();
  add_analysis_flags(*command, args->common, true);
  command
      ->add_option("--vary", args->vary,
                   "An input and its grid: PATH=LO..HI[:lin|log][:COUNT], LO and HI in the "
                   "input's unit (e.g. inference.rate=1M/s..1G/s:log:50; default lin, 11 points, "
                   "at most 1e9); repeatable, the first varies slowest")
      ->type_name("PATH=LO..HI")
      ->required()
      ->allow_extra_args(false);
  command->add_option("--out", args->out, "CSV file to write (through OUT.partial)")
      ->type_name("FILE")
      ->check(refuse_empty_file_name)
      ->required();
  command
      ->add_option("--shard", args->shard,
                   "Solve only the i-th of n interleaved slices (i from 1 to n), for job arrays")
      ->type_name("i/n")
      ->default_str("1/1");
  command->add_flag("--resume", args->resume,
                    "Continue an interrupted sweep from OUT.partial, without solving its rows "
                    "again");
  command
      ->add_option("--stop-after", args->stop_after,
                   "Solve at most this many new points, then stop as an interrupt would "
                   "(for time-limited jobs; continue with --resume)")
      ->type_name("COUNT");
  command->footer(
      "The file starts with '# scaleopt-provenance: KEY=VALUE' lines (the scenario's\n"
      "fingerprint after --set, the grid, the shard, the solver, the version; pandas:\n"
      "read_csv(FILE, comment='#')): --resume and merge refuse a file of another question.\n"
      "Columns: point, points (the grid's size), the varied inputs, then the JSON keys of\n"
      "'scaleopt solve' flattened (params, active_params, pretrain_tokens, ..., cost.total.usd,\n"
      "..., status, algorithm, ...). Numbers are printed to full precision, so shards merge\n"
      "byte for byte (scaleopt merge). Ctrl-C or SIGTERM keeps every finished row in\n"
      "OUT.partial; --resume continues. See docs/scaling-out.md.\n"
      "Examples:\n"
      "  scaleopt sweep examples/sardana_cost.toml --vary inference.requests=1e8..1e12:log:50 \\\n"
      "      --vary inference.decode_mfu=0.1..0.3:3 --out sweep.csv\n"
      "  scaleopt sweep examples/frontier_100x.toml --vary inference.rate=1M/s..1G/s:log:100 \\\n"
      "      --shard 2/8 --out shard2.csv\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) {
      return run_sweep(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
