// A joint-law question with the experts chosen (problems/lifecycle/experts_solve.hpp): NLopt on
// (ln N, ln D, ln m) with its KKT check, held to the reference over E (the fixed-E reductions
// minimised over ln E), as `scaleopt solve` runs it. Served at fixed MFUs (the cost does not
// see the total) and priced by the roofline; the whole answer adds the dense model of the same
// loss and the Chinchilla comparison.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/problems/lifecycle/accelerators/experts_newton.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace {

using namespace scaleopt;

// examples/frontier.toml (the talk's serving on 8 x B200 replicas, 32K context, RL rollouts)
// with the joint law and a target: no key fixes the experts, so they are chosen.
const std::vector<std::string> kJoint = {
    "law.preset=ludziejewski2025", "problem.kind=min-lifetime-cost", "problem.target_loss=1.9"};

QuestionSetup moe_setup(const std::vector<std::string>& extra) {
  std::vector<std::string> overrides = kJoint;
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return scenario_setup(
      load_scenario(std::string(SCALEOPT_SOURCE_DIR) + "/examples/frontier.toml", overrides));
}

const std::vector<std::string> kMfu = {"inference.pricing=mfu", "inference.decode_mfu=0.3"};
const std::vector<std::string> kRoofline = {};
// Target 1.8 with E up to 64: an optimum below the bound.
const std::vector<std::string> kInterior = {"problem.target_loss=1.8", "problem.max_experts=64"};
// The best loss for $3B at fixed MFUs with E up to 512: an optimum below the bound (E = 119).
const std::vector<std::string> kMfuInterior = {"inference.pricing=mfu", "inference.decode_mfu=0.3",
                                               "problem.kind=max-quality", "problem.budget_usd=3e9",
                                               "problem.max_experts=512"};
// Target 1.6 at fixed MFUs with E up to 4096: the cheapest plan below the bound (E = 103).
const std::vector<std::string> kMfuInteriorAtLoss = {
    "inference.pricing=mfu", "inference.decode_mfu=0.3", "problem.target_loss=1.6",
    "problem.max_experts=4096"};

// The solve alone: NLopt with its KKT check and the reference over E.
void BM_ExpertsSolve(benchmark::State& state, const std::vector<std::string>* overrides) {
  const QuestionSetup setup = moe_setup(*overrides);
  const LifecycleTerms terms = setup.terms();
  const LifecycleQuestion question = setup.question();
  for (auto _ : state) benchmark::DoNotOptimize(solve_lifecycle(terms, question));
}

// The independent reference alone: the fixed-E reductions minimised over ln E.
void BM_ExpertsReference(benchmark::State& state, const std::vector<std::string>* overrides) {
  const QuestionSetup setup = moe_setup(*overrides);
  const LifecycleTerms terms = setup.terms();
  const LifecycleQuestion question = setup.question();
  for (auto _ : state) benchmark::DoNotOptimize(experts_reference(terms, question));
}

// The whole answer of `solve`: the solve, the dense model beside it, the comparisons.
void BM_ExpertsAnswer(benchmark::State& state, const std::vector<std::string>* overrides) {
  const QuestionSetup setup = moe_setup(*overrides);
  for (auto _ : state) benchmark::DoNotOptimize(solve_question(setup));
}

// The fast path of sweeps, Monte Carlo and tornado tables (fixed MFUs): the search over ln E of
// fixed-E Newton solves, verified by its KKT check in (ln N, ln D, ln m), with the light answer
// at its E (problems/lifecycle/accelerators/experts_newton.hpp).
void BM_ExpertsFastPath(benchmark::State& state, const std::vector<std::string>* overrides) {
  const QuestionSetup setup = moe_setup(*overrides);
  const std::optional<QuestionSummary> answer = solve_question_fast(setup);
  if (!answer) {
    state.SkipWithError("the fast path declined");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(solve_question_fast(setup));
  state.counters["experts"] = answer->answer.experts;
}

// The search over ln E alone (no answer read at its E), with the fixed-E solves it took.
void BM_ExpertsNewton(benchmark::State& state, const std::vector<std::string>* overrides) {
  const QuestionSetup setup = moe_setup(*overrides);
  const LinearCost cost = *setup.model.linear(setup.unit);
  auto search = [&]() {
    return minimises_loss(setup.kind)
               ? max_quality_choosing_experts(setup.law(), *setup.experts, cost, setup.budget,
                                              setup.min_params)
               : min_cost_at_loss_choosing_experts(setup.law(), *setup.experts, setup.target_loss,
                                                   cost);
  };
  const ExpertsNewtonPlan plan = search();
  for (auto _ : state) benchmark::DoNotOptimize(search());
  state.counters["reductions"] = plan.reductions;
  state.counters["newton_steps"] = plan.plan.iterations;
}

BENCHMARK_CAPTURE(BM_ExpertsSolve, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsSolve, roofline, &kRoofline)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsSolve, roofline_interior, &kInterior)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsReference, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsReference, roofline, &kRoofline)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsAnswer, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsAnswer, roofline, &kRoofline)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsNewton, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsNewton, mfu_interior, &kMfuInterior)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsNewton, mfu_interior_at_loss, &kMfuInteriorAtLoss)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsFastPath, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsFastPath, mfu_interior, &kMfuInterior)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsFastPath, mfu_interior_at_loss, &kMfuInteriorAtLoss)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
