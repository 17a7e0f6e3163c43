// A 10^5-sample Monte Carlo through the command itself: examples/frontier_uncertain.toml (five
// uncertain inputs and the law drawn from Epoch's standard errors), on every hardware thread.
// Target (issue 5): <= 0.2 s on the 2-core development machine. Wall-clock time.

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

#include "scaleopt/cli/app.hpp"

namespace {

void BM_MonteCarlo100kSamples(benchmark::State& state) {
  const std::vector<std::string> args = {
      "uncertainty", std::string(SCALEOPT_SOURCE_DIR) + "/examples/frontier_uncertain.toml",
      "--samples",   "100000",
      "--seed",      "1"};
  for (auto _ : state) {
    std::ostringstream sink, errors;
    if (scaleopt::cli::run(args, sink, errors) != 0) state.SkipWithError(errors.str().c_str());
  }
  state.SetItemsProcessed(state.iterations() * 100'000);
}
BENCHMARK(BM_MonteCarlo100kSamples)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
