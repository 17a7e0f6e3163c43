// Speed of the joint dense/MoE fit (`fit --experts-col`, problems/fit/joint_law_fit.hpp) on the
// 48 synthetic runs of examples/joint_moe_synthetic.csv: the full fit from its 2,187 starts
// (on every hardware thread) and 100 warm-started bootstrap refits. No target is set (issue 26
// sets none for the fit); docs/performance.md has the medians.

#include <benchmark/benchmark.h>

#include <string>

#include "scaleopt/problems/fit/joint_law_fit.hpp"
#include "scaleopt/scenario/runs_csv.hpp"

namespace {

using namespace scaleopt;

std::vector<TrainingRun> synthetic_moe_runs() {
  const std::string path = std::string(SCALEOPT_SOURCE_DIR) + "/examples/joint_moe_synthetic.csv";
  return read_runs_csv(path, {.params = "active_params",
                              .tokens = "tokens",
                              .flops = "",
                              .loss = "loss",
                              .experts = "experts"})
      .runs;
}

void BM_JointFit2187Starts48Runs(benchmark::State& state) {
  const std::vector<TrainingRun> runs = synthetic_moe_runs();
  long evaluations = 0;
  for (auto _ : state) {
    const JointFitResult fit = fit_joint_law(runs);
    evaluations = fit.evaluations;
    benchmark::DoNotOptimize(fit.objective);
  }
  state.counters["evaluations"] = static_cast<double>(evaluations);
}
BENCHMARK(BM_JointFit2187Starts48Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_JointBootstrap100Refits48Runs(benchmark::State& state) {
  const std::vector<TrainingRun> runs = synthetic_moe_runs();
  const JointFitOptions options;
  const JointFitResult fit = fit_joint_law(runs, options);
  for (auto _ : state) {
    const JointBootstrapResult boot =
        bootstrap_joint_law(runs, fit, options, BootstrapOptions{.replicates = 100, .seed = 1});
    benchmark::DoNotOptimize(boot.converged);
  }
}
BENCHMARK(BM_JointBootstrap100Refits48Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
