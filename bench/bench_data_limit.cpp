// Speed of a lifecycle solve with limited data (25B unique tokens, muennighoff2023, loss 2.25,
// 1e11 inference tokens): NLopt with its KKT polish and check, and its independent 1-D reduction
// (Brent, then TOMS 748 on the stationary point) which the solve also runs to cross-check. No
// fast path exists for repeated data; the target is a median of at most ~300 microseconds a
// solve before one is written.

#include <benchmark/benchmark.h>

#include "scaleopt/problems/data_limit/data_limit_reduction.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"

namespace {

using namespace scaleopt;

LifecycleTerms repeated_terms() {
  const LossLaw law = loss_law_preset("muennighoff2023");
  LossTerm loss(law);
  loss.then(std::make_shared<const RepetitionTransform>(law, 25e9));
  return lifecycle_terms(loss, flops_cost_model(1e11), CostUnit::flops);
}

void BM_DataLimitNlopt(benchmark::State& state) {
  const LifecycleTerms terms = repeated_terms();
  const LifecycleQuestion question = LifecycleQuestion::at_target_loss(2.25);
  for (auto _ : state) benchmark::DoNotOptimize(solve_lifecycle(terms, question));
}
BENCHMARK(BM_DataLimitNlopt);

void BM_DataLimitReduced(benchmark::State& state) {
  const LifecycleTerms terms = repeated_terms();
  for (auto _ : state) benchmark::DoNotOptimize(min_cost_at_loss_repeated_reduced(terms, 2.25));
}
BENCHMARK(BM_DataLimitReduced);

}  // namespace

BENCHMARK_MAIN();
