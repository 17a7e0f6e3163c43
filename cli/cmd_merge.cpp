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
  const std::string merged = merge_sweep_files(args.files);
  write_file_atomically(args.out, merged, "--out", inputs);
  const std::size_t rows = static_cast<std::size_t>(std::count(merged.begin(), merged.end(), '\n'));
  out << "wrote " << args.out << ": " << rows - 1 << " points from " << args.files.size()
      << " files, each point once\n";
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
      "The headers must be equal; rows are ordered by point, so the merge of the shards is\n"
      "byte for byte the unsharded sweep.\n"
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
