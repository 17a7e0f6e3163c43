// Speed of the Approach 3 fit on Epoch AI's 240 Chinchilla runs (tests/data): one objective
// evaluation, the full fit from Hoffmann's 4,500 starts (on every hardware thread and on one),
// and 1,000 warm-started bootstrap refits. Targets (issue 8): fit <= 2 s, bootstrap <= 30 s
// on the 2-core development machine.

#include <benchmark/benchmark.h>

#include <string>

#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"
#include "scaleopt/scenario/runs_csv.hpp"

namespace {

using namespace scaleopt;

std::vector<TrainingRun> epoch_runs() {
  const std::string path =
      std::string(SCALEOPT_SOURCE_DIR) + "/tests/data/chinchilla_fig4_epoch.csv";
  const scaleopt::RunsCsv csv = scaleopt::read_runs_csv(
      path, {.params = "Model Size", .tokens = "", .flops = "Training FLOP", .loss = "loss"});
  return without_highest_loss(csv.runs, 5);
}

void BM_ObjectiveAndGradient240Runs(benchmark::State& state) {
  const ScalingLawFitProblem problem(log_runs(epoch_runs()), 1e-3);
  const std::vector<double> x = {0.6, 6.2, 7.6, 0.35, 0.37};
  std::vector<double> gradient(kFitVariables);
  for (auto _ : state) {
    benchmark::DoNotOptimize(problem.objective(x, gradient));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ObjectiveAndGradient240Runs);

void fit_benchmark(benchmark::State& state, unsigned threads) {
  const std::vector<TrainingRun> runs = epoch_runs();
  FitOptions options;
  options.threads = threads;
  long evaluations = 0;
  for (auto _ : state) {
    const FitResult fit = fit_scaling_law(runs, options);
    evaluations = fit.evaluations;
    benchmark::DoNotOptimize(fit.objective);
  }
  state.counters["evaluations"] = static_cast<double>(evaluations);
}

void BM_Fit4500Starts240Runs(benchmark::State& state) {
  fit_benchmark(state, 0);  // one thread per hardware thread
}
BENCHMARK(BM_Fit4500Starts240Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Fit4500Starts240RunsOneThread(benchmark::State& state) {
  fit_benchmark(state, 1);
}
BENCHMARK(BM_Fit4500Starts240RunsOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bootstrap1000Refits240Runs(benchmark::State& state) {
  const std::vector<TrainingRun> runs = epoch_runs();
  const FitResult fit = fit_scaling_law(runs);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        bootstrap_scaling_law(runs, fit, FitOptions{}, {.replicates = 1000, .seed = 1}));
  }
}
BENCHMARK(BM_Bootstrap1000Refits240Runs)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
