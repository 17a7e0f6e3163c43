// scaleopt merge: the shards of a sweep joined into one file, every point checked present
// exactly once.

#include <memory>

#include "scaleopt/analysis/sweep_merge.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> files;
  std::string out;
};

int run_merge(const MergeArgs& args, std::ostream& out) {
  std::vector<ReadFile> inputs;
  for (const std::string& file : args.files) inputs.push_back({file, "one of the shards"});
  check_output(args.out, "--out", inputs);
  // Streamed into the temporary file: memory does not grow with the number of points.
  AtomicOutput output(args.out, "--out", inputs);
  const std::size_t points =
      merge_sweep_files(args.files, [&output](std::string_view text) { output.append(text); });
  output.commit();
  out << "wrote " << args.out << ": " << points << " points from " << args.files.size()
      << " files, each point once, all of one question (provenance)\n";
  return kExitOk;
}

}  // namespace

void add_merge_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "merge", "Join the CSV files of a sharded sweep, checking every point is there once");
  auto args = std::make_shared<MergeArgs>();
  command->add_option("files", args->files, "Shard files (scaleopt sweep --shard i/n --out ...)")
      ->type_name("SHARD.csv ...")
      ->required();
  command->add_option("-o,--out", args->out, "Merged CSV file (written atomically)")
      ->type_name("FILE")
      ->check(refuse_empty_file_name)
      ->required();
  command->footer(
      "The files' provenance lines must agree in every field but the shard (same scenario\n"
      "after --set, grid, solver options, version), the headers must be equal, every row's\n"
      "varied values must be the grid's, each block of 64 rows must match its checksum line\n"
      "(an edited, cut or mixed file is refused at its line), and every point must be there\n"
      "once. The merge is\n"
      "streamed in point order (memory independent of the number of points) and equals the\n"
      "unsharded sweep byte for byte (its provenance says shard=all).\n"
      "Examples (two shards, then the merge):\n"
      "  scaleopt sweep examples/sardana_cost.toml --vary inference.decode_mfu=0.1..0.3:200 \\\n"
      "      --shard 1/2 --out shard1.csv\n"
      "  scaleopt sweep examples/sardana_cost.toml --vary inference.decode_mfu=0.1..0.3:200 \\\n"
      "      --shard 2/2 --out shard2.csv\n"
      "  scaleopt merge shard1.csv shard2.csv -o all.csv\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_merge(*args, out); }; });
}

}  // namespace scaleopt::cli
