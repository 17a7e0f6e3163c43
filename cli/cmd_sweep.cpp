// scaleopt sweep: a scenario's question answered on a grid of inputs, one CSV row per point,
// on all cores, sharded across machines, interruptible and resumable.

#include <sys/stat.h>

#include <chrono>
#include <memory>
#include <optional>
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
#include "scaleopt/cli/scenario_flags.hpp"
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
  bool ignore_disk_space = false;
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
  std::size_t written = 0;  // rows written by this run
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
    out << "interrupted: " << p.written << " of " << p.todo << " points solved and written to "
        << partial << " (continue with the same command and --resume)\n";
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

// The bytes of a row, from the length of point 0's row (rows differ by a few digits only).
std::size_t row_bytes(const SweepRunner& runner, const SweepCsvWriter& csv) {
  std::string first_row;
  const std::size_t first[] = {0};
  (void)runner.solve(
      first, nullptr, [&](const SweepBlock& block) { first_row += csv.rows(block.answers); },
      [] { return false; }, [](std::size_t) {});
  return first_row.size();
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
  const Scenario scenario = load_analysis_scenario(args.common, notes);
  const SweepGrid grid(parse_axes(scenario, args.vary));
  check_first_point(scenario, grid);
  const SweepRunner runner(scenario, grid, options);
  const SweepCsvWriter csv(grid, runner.layout(), options.solver.algorithm);
  const std::string header = csv.header();
  // The file's first lines say which question it answers, so that --resume and merge can
  // refuse rows of another (analysis/sweep_provenance.hpp).
  const Provenance provenance =
      sweep_provenance(scenario, grid, shard, options.method, options.solver);

  const std::vector<ReadFile> inputs = scenario_inputs(scenario);
  const bool have_out = check_sweep_output(args.out, inputs);
  const std::string partial = partial_path(args.out);
  const bool have_partial = check_partial(partial, inputs);
  // OUT.partial is this process's alone from here on (flock): a second sweep on the same --out
  // is refused at once, naming this one's pid (analysis/sweep_file.hpp).
  std::optional<PartialFile> file;
  PartialRows done;
  if (have_partial) {
    if (!args.resume) {
      refuse_if_being_written(args.out);
      throw InputError(partial + ": an interrupted sweep's rows are there: add --resume to " +
                       "continue it, or remove the file to start again");
    }
    file.emplace(PartialFile::open_existing(args.out, inputs));
    done = read_partial(partial, provenance, header);
  } else if (args.resume && have_out) {
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
  Progress progress;
  progress.resumed = done.points;
  progress.todo = shard_points(grid.size(), shard) - done.points;
  std::size_t limit = progress.todo;
  if (stop_after > 0 && stop_after < limit) {
    limit = stop_after;
    progress.stopped = true;
  }
  // What the rows still to write need on disk, against what the disk has, before a byte is
  // written: a sweep larger than the disk would fail hours in.
  const std::size_t rows = shard_points(grid.size(), shard);
  const std::size_t bytes_a_row = row_bytes(runner, csv);
  const double needed_bytes =
      static_cast<double>(have_partial ? 0 : provenance.text().size() + header.size() + 1) +
      static_cast<double>(limit) * (static_cast<double>(bytes_a_row) +
                                    static_cast<double>(checksum_line(0, 0, 0).size() + 2 * 6) /
                                        static_cast<double>(kShardBlock));
  if (rows > kSweepSizeNotePoints) {
    notes << "scaleopt: note: " << args.out << " will hold " << rows << " rows, about "
          << format_quantity(static_cast<double>(bytes_a_row) * static_cast<double>(rows),
                             Unit::bytes, 3)
          << " (" << bytes_a_row << " bytes a row)\n"
          << std::flush;
  }
  if (!args.ignore_disk_space) {
    check_disk_space(args.out, needed_bytes, free_disk_bytes(partial, "--out"));
  }
  if (file) {
    file->keep(done.keep_bytes);  // cuts off rows after the last checksum line
  } else {
    file.emplace(PartialFile::create(args.out, provenance.text() + header + "\n", inputs));
  }
  SweepChecksums checksums(checksum_seed(provenance, header), grid.size());
  if (done.block_open)
    checksums.resume_block(done.block_first_point, done.block_last_point, done.block_crc);
  const auto start = std::chrono::steady_clock::now();
  {
    const InterruptGuard guard;
    ProgressBar bar(limit);
    const auto stop = [] { return InterruptGuard::interrupted(); };
    const auto finished = [&bar](std::size_t n) { bar.add(n); };
    std::vector<std::size_t> chunk;
    // The rows are formatted on the workers, blocks at once; written in order, with the
    // checksum line of each block of kShardBlock points.
    const auto format = [&csv](SweepBlock& block) {
      block.text.clear();
      csv.append_rows(block.text, block.answers);
    };
    // After an interrupt a block may stop short and the next ones start further on: only rows
    // that continue the file are written (--resume solves the others again).
    const auto write = [&](const SweepBlock& block) {
      if (block.answers.empty() ||
          block.answers.front().point !=
              shard_point(done.points + progress.written, grid.size(), shard)) {
        return;
      }
      file->append(checksums.add(block.answers, block.text));
      progress.written += block.answers.size();
    };
    // This shard's points in increasing order after those already done, chunk by chunk.
    for (std::size_t taken = 0; taken < limit && !InterruptGuard::interrupted(); ++taken) {
      chunk.push_back(shard_point(done.points + taken, grid.size(), shard));
      if (chunk.size() == runner.chunk_points() || taken + 1 == limit) {
        progress.tally.add(runner.solve(chunk, format, write, stop, finished));
        chunk.clear();
      }
    }
    progress.interrupted = InterruptGuard::interrupted();
  }
  progress.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress.interrupted) progress.stopped = false;
  if (!progress.interrupted && !progress.stopped) {
    // Every row of the shard counted before the file is named.
    const std::size_t rows_written = done.points + progress.written;
    if (rows_written != rows) {
      throw InputError("--out: " + partial + " holds " + std::to_string(rows_written) +
                       " of the shard's " + std::to_string(rows) + " rows: it is not renamed to " +
                       args.out + "; continue with --resume");
    }
    file->finish(inputs);
  } else {
    // An orderly stop: the unfinished block's rows get their checksum line, which --resume
    // checks and removes.
    file->append(checksums.close_unfinished());
  }
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
  command->add_flag("--ignore-disk-space", args->ignore_disk_space,
                    "Start even when the estimated size of the rows to write (from the first "
                    "row) exceeds the free space where OUT goes");
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
      "byte for byte (scaleopt merge). Each block of 64 rows is followed by a\n"
      "'# scaleopt-checksum:' line that merge and --resume check. Ctrl-C or SIGTERM keeps every\n"
      "finished row in OUT.partial; --resume continues. One sweep writes OUT at a time\n"
      "(OUT.partial is locked; a second is refused, naming the first's pid), and a sweep whose\n"
      "rows would not fit in the free space is refused before it starts. See\n"
      "docs/scaling-out.md.\n"
      "Examples:\n"
      "  scaleopt sweep examples/sardana_cost.toml --vary inference.requests=1e8..1e12:log:50 \\\n"
      "      --vary inference.decode_mfu=0.1..0.3:3 --out sweep.csv\n"
      "  scaleopt sweep examples/frontier_100x.toml --vary inference.rate=1M/s..1G/s:log:100 \\\n"
      "      --shard 2/8 --out shard2.csv\n"
      "  scaleopt sweep examples/sardana_cost.toml --law-file fitted.toml \\\n"
      "      --vary inference.requests=1e8..1e12:log:50 --out sweep.csv\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream& notes) {
      return run_sweep(*args, out, notes);
    };
  });
}

}  // namespace scaleopt::cli
