// scaleopt selftest: the stress run. Random but valid problems across the range users meet,
// each solved by NLopt and by an independent method (docs/reliability.md).

#include <chrono>
#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/stress_output.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct SelftestArgs {
  std::string instances = "10000";
  std::string seed = "1";
  int threads = 0;
  bool json = false;
  StopCheck stop;  // the caller's (RunContext)
};

int run_selftest(const SelftestArgs& args, std::ostream& out) {
  StressRunOptions options;
  options.instances = parse_count_flag("--instances", args.instances, 1, kMaxInstances);
  options.failures_kept = kMaxFailuresKept;
  options.seed = parse_seed_flag("--seed", args.seed);
  options.threads = parse_threads_flag("--threads", args.threads);
  options.check.solver.stop = args.stop;
  const auto start = std::chrono::steady_clock::now();
  const StressSummary summary = run_stress(options);
  const StressTiming timing{
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
      resolve_thread_count(options.threads, options.instances)};
  if (args.json) {
    out << stress_json(summary, options, timing).dump(2) << "\n";
  } else {
    print_stress(out, summary, options, timing);
  }
  return summary.failure_count() == 0 ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_selftest_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "selftest", "Stress run: random problems solved by NLopt and by an independent method");
  auto args = std::make_shared<SelftestArgs>();
  command->add_option("--instances", args->instances, "How many random problems to solve")
      ->default_str("10000")
      ->type_name("COUNT:1 to 1e9");
  command
      ->add_option("--seed", args->seed,
                   "Seed of the instances (same seed, same instances and counts at any --threads)")
      ->default_str("1")
      ->type_name("UINT");
  command->add_option("--threads", args->threads, "Threads (0: one per hardware thread)")
      ->default_str("0")
      ->type_name("COUNT")
      ->transform(count_check(0, kMaxThreads));
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "Classes take turns: compute-optimal at a budget and at a loss (checked against\n"
      "Hoffmann's closed forms in 50 digits), min-lifetime and max-quality (against their 1-D\n"
      "reductions), equal-cost (the heuristic re-costed, its optimum against the 1-D\n"
      "reduction), and the three again with serving always priced by the roofline (latency\n"
      "targets, given batches, model shapes); RL tokens chosen, limited data, the replica\n"
      "chosen, and the experts chosen with a joint law (against the fixed-E reductions over\n"
      "E, agreeing in the objective). Where the fast path applies it is held to the\n"
      "same reference. Agreement means N and D within 1e-8 relative; unreachable targets and\n"
      "budgets must be reported infeasible by both. Exit 1 when any instance disagreed or\n"
      "failed; each is printed as a scenario file (or command) that reproduces it.\n"
      "Examples:\n"
      "  scaleopt selftest --instances 100000 --seed 1\n"
      "  scaleopt selftest --instances 2000 --threads 1 --json\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream&, const RunContext& context) {
      args->stop = context.stop;
      return run_selftest(*args, out);
    };
  });
}

}  // namespace scaleopt::cli
