// Speed of the inference-aware optimum (Sardana Eq. 3, loss 1.947, 2e12 inference tokens):
// the NLopt solve (SLSQP + KKT polish + verification + 1-D cross-check), the 1-D reduction by
// TOMS 748, and the fast path (Newton on the reduction, with the KKT residual and constraint
// verified afresh); the same for max-quality at a budget.

#include <benchmark/benchmark.h>

#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/lifecycle/accelerators/lifetime_newton.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"

namespace {

using namespace scaleopt;

void BM_LifetimeFlopsNlopt(benchmark::State& state) {
  const LossLaw law = loss_law_preset("sardana2024");
  const LifetimeCostModel model = flops_cost_model(2e12);
  for (auto _ : state) {
    benchmark::DoNotOptimize(min_lifetime_cost_at_loss(law, 1.947, model, CostUnit::flops));
  }
}
BENCHMARK(BM_LifetimeFlopsNlopt);

void BM_LifetimeFlopsReduced(benchmark::State& state) {
  const LossLaw law = loss_law_preset("sardana2024");
  const LifetimeCostModel model = flops_cost_model(2e12);
  for (auto _ : state) {
    benchmark::DoNotOptimize(min_lifetime_cost_at_loss_reduced(law, 1.947, model, CostUnit::flops));
  }
}
BENCHMARK(BM_LifetimeFlopsReduced);

void BM_LifetimeFlopsNewton(benchmark::State& state) {
  const LossLaw law = loss_law_preset("sardana2024");
  const LinearCost cost = *flops_cost_model(2e12).linear(CostUnit::flops);
  for (auto _ : state) {
    benchmark::DoNotOptimize(min_cost_at_loss_newton(law, 1.947, cost));
  }
}
BENCHMARK(BM_LifetimeFlopsNewton);

void BM_MaxQualityNewton(benchmark::State& state) {
  const LossLaw law = loss_law_preset("sardana2024");
  const LinearCost cost = *flops_cost_model(2e12).linear(CostUnit::flops);
  for (auto _ : state) {
    benchmark::DoNotOptimize(max_quality_at_budget_newton(law, cost, 4e23, 1e7));
  }
}
BENCHMARK(BM_MaxQualityNewton);

void BM_MaxQualityNlopt(benchmark::State& state) {
  const LossLaw law = loss_law_preset("sardana2024");
  const LifetimeCostModel model = flops_cost_model(2e12);
  for (auto _ : state) {
    benchmark::DoNotOptimize(max_quality_at_budget(law, model, CostUnit::flops, 4e23));
  }
}
BENCHMARK(BM_MaxQualityNlopt);

}  // namespace

BENCHMARK_MAIN();
