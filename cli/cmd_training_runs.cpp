// scaleopt training-runs: the published pretraining runs of the catalog, the MFU each run's
// GPU-hours imply, and how well the default MFU (and, leave-one-out, the other runs) predicts
// them (docs/validation.md, Training efficiency of published runs).

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/costmodel/published_run_check.hpp"
#include "scaleopt/costmodel/training_setup.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/training_runs_output.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/training_run_catalog.hpp"

namespace scaleopt::cli {
namespace {

struct TrainingRunsArgs {
  bool json = false;
  std::string mfu;
};

int run_training_runs(const TrainingRunsArgs& args, std::ostream& out) {
  double mfu = TrainingSetup{}.mfu;  // the default the predictions test
  if (!args.mfu.empty()) {
    mfu = parse_positive_flag("--mfu", args.mfu, Unit::number);
    if (mfu > 1.0) throw field_error("--mfu", "must be at most 1, got " + args.mfu);
  }
  const PublishedRunsCheck check =
      check_published_runs(builtin_training_runs(), builtin_hardware(), mfu);
  if (args.json) {
    out << report::training_runs_json(check).dump(2) << "\n";
  } else {
    out << report::training_runs_text(check);
  }
  return kExitOk;
}

}  // namespace

void add_training_runs_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "training-runs",
      "Published pretraining runs: the MFU their GPU-hours imply, and the default's error");
  auto args = std::make_shared<TrainingRunsArgs>();
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->add_option("--mfu", args->mfu,
                      "The MFU to predict each run's GPU-hours at (default: training.mfu's "
                      "default, 0.4)");
  command->footer(
      "Each run's published GPU-hours are paid hours, so the MFU they imply holds the run's\n"
      "goodput losses: use it as training.mfu with training.goodput = 1. The spread of the\n"
      "MFUs is printed as an [uncertainty] line for `scaleopt uncertainty`.\n"
      "Examples:\n"
      "  scaleopt training-runs\n"
      "  scaleopt training-runs --mfu 0.35\n"
      "  scaleopt training-runs --json\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out) { return run_training_runs(*args, out); };
  });
}

}  // namespace scaleopt::cli
