// A single solve of each lifecycle problem, as `scaleopt solve` does it (NLopt: SLSQP + KKT
// polish + verification + the 1-D cross-check + the Chinchilla comparison) and as sweeps and
// Monte Carlo do it (the fast path: Newton on the 1-D reduction, a light summary), on the
// examples: min-lifetime-flops (Sardana Eq. 3), min-lifetime-cost (Sardana's cost example),
// equal-cost (the talk's frontier model, heuristic + true optimum) and max-quality (a budget,
// inference priced by the roofline: NLopt only).

#include <benchmark/benchmark.h>

#include <string>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/lifecycle_output.hpp"

namespace {

using namespace scaleopt;

QuestionSetup example_setup(const char* name) {
  const scaleopt::Scenario scenario =
      scaleopt::load_scenario(std::string(SCALEOPT_SOURCE_DIR) + "/examples/" + name);
  return scaleopt::scenario_setup(scenario);
}

void BM_NloptPath(benchmark::State& state, const char* name) {
  const QuestionSetup setup = example_setup(name);
  for (auto _ : state) benchmark::DoNotOptimize(solve_question(setup));
}

void BM_FastPath(benchmark::State& state, const char* name) {
  const QuestionSetup setup = example_setup(name);
  for (auto _ : state) benchmark::DoNotOptimize(solve_question_fast(setup));
}

// The setup itself (validation, cost model from the scenario's setups): what each sweep point
// pays besides the solve.
void BM_Setup(benchmark::State& state, const char* name) {
  const scaleopt::Scenario scenario =
      scaleopt::load_scenario(std::string(SCALEOPT_SOURCE_DIR) + "/examples/" + name);
  for (auto _ : state) benchmark::DoNotOptimize(scaleopt::scenario_setup(scenario));
}

// What `scaleopt solve --json` computes for a loaded scenario, and what the Python module's
// scaleopt.solve computes before converting to Python objects (bench/python_bench.py compares).
void BM_SolveJson(benchmark::State& state, const char* name) {
  const scaleopt::Scenario scenario =
      scaleopt::load_scenario(std::string(SCALEOPT_SOURCE_DIR) + "/examples/" + name);
  const SolverOptions options;
  for (auto _ : state) {
    const QuestionSolution solution = solve_scenario(scenario, options);
    benchmark::DoNotOptimize(report::solution_json(scenario, *scenario.law, solution));
  }
}

BENCHMARK_CAPTURE(BM_NloptPath, min_lifetime_flops, "sardana_compute.toml");
BENCHMARK_CAPTURE(BM_FastPath, min_lifetime_flops, "sardana_compute.toml");
BENCHMARK_CAPTURE(BM_NloptPath, min_lifetime_cost, "sardana_cost.toml");
BENCHMARK_CAPTURE(BM_FastPath, min_lifetime_cost, "sardana_cost.toml");
BENCHMARK_CAPTURE(BM_NloptPath, equal_cost, "frontier_100x.toml");
BENCHMARK_CAPTURE(BM_FastPath, equal_cost, "frontier_100x.toml");
BENCHMARK_CAPTURE(BM_NloptPath, max_quality_roofline, "budget_plan.toml")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Setup, min_lifetime_cost, "sardana_cost.toml");
BENCHMARK_CAPTURE(BM_SolveJson, min_lifetime_cost, "sardana_cost.toml");
BENCHMARK_CAPTURE(BM_SolveJson, equal_cost, "frontier_100x.toml");

}  // namespace

BENCHMARK_MAIN();
