// Speed of the Approach 3 fit on Epoch AI's 240 Chinchilla runs (tests/data): one objective
// evaluation, the full fit from Hoffmann's 4,500 starts (on every hardware thread and on one),
// and 1,000 warm-started bootstrap refits. Targets (issue 8): fit <= 2 s, bootstrap <= 30 s
// on the 2-core development machine. And fits of many synthetic runs: every start on every run
// against the starts on a subsample refined on every run (FitOptions::subsample_runs).

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
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

// `count` runs of hoffmann2022's law, N log-uniform over 7e7..1.6e10 and D/N over 2..100, each
// loss times exp(0.01 z): the file of 10^6 runs `fit` took 900 s over.
std::vector<TrainingRun> synthetic_runs(std::size_t count) {
  const LossLaw law = loss_law_preset("hoffmann2022");
  std::mt19937_64 generator(1);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<TrainingRun> runs;
  runs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double params = 7e7 * std::pow(1.6e10 / 7e7, uniform(generator));
    const double tokens = params * 2.0 * std::pow(50.0, uniform(generator));
    runs.push_back({params, tokens, law.loss(params, tokens) * std::exp(0.01 * normal(generator))});
  }
  return runs;
}

// Many runs: state.range(0) runs, the starts on a subsample of state.range(1) (0: every start
// on every run), on every hardware thread.
void BM_FitManyRuns(benchmark::State& state) {
  const std::vector<TrainingRun> runs = synthetic_runs(static_cast<std::size_t>(state.range(0)));
  FitOptions options;
  options.subsample_runs = static_cast<std::size_t>(state.range(1));
  for (auto _ : state) {
    const FitResult fit = fit_scaling_law(runs, options);
    if (!fit.converged()) state.SkipWithError("the fit did not converge");
    benchmark::DoNotOptimize(fit.objective);
  }
}
BENCHMARK(BM_FitManyRuns)
    ->Args({10'000, 0})
    ->Args({10'000, 1'000})
    ->Args({1'000'000, 1'000})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

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
