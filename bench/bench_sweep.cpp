// A 10^6-point sweep through the command itself, writing its CSV (~500 MB) to the temporary
// directory: Sardana's compute example (min-lifetime-flops) on a 1000 x 1000 grid of demand
// (log) and target loss, on every hardware thread. Target (issue 5): <= 2 s on the 2-core
// development machine. Wall-clock time; one sweep per iteration.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "scaleopt/cli/app.hpp"

namespace {

void BM_Sweep1MPointsWithCsv(benchmark::State& state) {
  const std::string out =
      (std::filesystem::temp_directory_path() / "scaleopt_bench_sweep.csv").string();
  const std::vector<std::string> args = {
      "sweep",  std::string(SCALEOPT_SOURCE_DIR) + "/examples/sardana_compute.toml",
      "--vary", "inference.tokens=1e9..1e15:log:1000",
      "--vary", "problem.target_loss=1.9..2.5:1000",
      "--out",  out};
  for (auto _ : state) {
    std::ostringstream sink, errors;
    if (scaleopt::cli::run(args, sink, errors) != 0) state.SkipWithError(errors.str().c_str());
  }
  std::filesystem::remove(out);
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_Sweep1MPointsWithCsv)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
