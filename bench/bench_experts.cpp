// A joint-law question with the experts chosen (problems/lifecycle/experts_solve.hpp): NLopt on
// (ln N, ln D, ln m) with its KKT check, held to the reference over E (the fixed-E reductions
// minimised over ln E), as `scaleopt solve` runs it. Served at fixed MFUs (the cost does not
// see the total) and priced by the roofline; the whole answer adds the dense model of the same
// loss and the Chinchilla comparison.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/problems/lifecycle/experts_solve.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
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

BENCHMARK_CAPTURE(BM_ExpertsSolve, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsSolve, roofline, &kRoofline)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsSolve, roofline_interior, &kInterior)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsReference, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsReference, roofline, &kRoofline)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsAnswer, mfu, &kMfu)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ExpertsAnswer, roofline, &kRoofline)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
