// Speed of the compute-optimal questions: the closed form against the NLopt solve
// (SLSQP + KKT polish) that cross-checks it.

#include <benchmark/benchmark.h>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"

namespace {

using namespace scaleopt;

void BM_ClosedFormForCompute(benchmark::State& state) {
  const auto coefficients = coefficients_of<double>(loss_law_preset("epoch2024"));
  double compute = 1e24;
  for (auto _ : state) {
    benchmark::DoNotOptimize(compute);
    benchmark::DoNotOptimize(compute_optimal_allocation(coefficients, compute));
  }
}
BENCHMARK(BM_ClosedFormForCompute);

void BM_NloptForCompute(benchmark::State& state) {
  const AllocationRule rule{loss_law_preset("epoch2024"), std::nullopt};
  for (auto _ : state) benchmark::DoNotOptimize(optimal_for_compute(rule, 1e24));
}
BENCHMARK(BM_NloptForCompute);

void BM_NloptForLoss(benchmark::State& state) {
  const AllocationRule rule{loss_law_preset("sardana2024"), std::nullopt};
  for (auto _ : state) benchmark::DoNotOptimize(optimal_for_loss(rule, 1.947));
}
BENCHMARK(BM_NloptForLoss);

}  // namespace

BENCHMARK_MAIN();
