// What `scaleopt serve` does when a slider of the planner page moves: one re-solve with the
// changed input and a 200-point sweep of the optimum against one input, answered server-side by
// the API handler itself (server/api_handler.hpp: parsing the JSON body, loading the scenario
// with its `set`, solving, building the answers' JSON), without the socket. Issue 28's target:
// <= 16 ms median for the fast-path examples. Wall-clock time, one re-solve and one sweep per
// iteration; `make bench` reports the median of 5 repetitions.

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "scaleopt/server/api_handler.hpp"

namespace {

struct SliderMove {
  const char* example;
  const char* set;   // the input the slider moved, as {"set": {...}}
  const char* vary;  // the chart's axis, 200 points
};

// The fast-path examples of each kind: Sardana's cost question (min-lifetime-cost, fixed
// MFUs), its FLOPs question, the talk's equal-cost heuristic beside its optimum, and a
// max-quality budget priced by the roofline.
constexpr SliderMove kMoves[] = {
    {"sardana_cost", R"({"inference.requests": "2e10"})", "inference.requests=1e9..1e12:log:200"},
    {"sardana_compute", R"({"inference.tokens": "3T"})", "inference.tokens=1e10..1e15:log:200"},
    {"frontier_100x", R"({"inference.rate": "80M/s"})", "inference.rate=1M/s..1G/s:log:200"},
    {"budget_plan", R"({"problem.budget_usd": "2e8"})", "problem.budget_usd=1e7..1e10:log:200"},
};

// The columns the page's chart draws (server/page/page.js, SERIES): N, D and the lifetime cost,
// and for equal-cost the optimum's N and D beside them. The page asks for them alone once the
// scenario's first sweep has said which it has.
const char* chart_columns(const SliderMove& move) {
  return std::string_view(move.example) == "frontier_100x"
             ? R"(["params", "pretrain_tokens", "cost.total.usd", "optimum.params", )"
               R"("optimum.pretrain_tokens"])"
             : R"(["params", "pretrain_tokens", "cost.total.usd"])";
}

// One move: the re-solve and the sweep, with every column (the first sweep of a scenario) or
// the chart's alone (every later one).
void slider_move(benchmark::State& state, bool chart_columns_only) {
  const SliderMove& move = kMoves[state.range(0)];
  const scaleopt::server::Api api(scaleopt::server::ServeOptions{});
  const std::string solve =
      std::string(R"({"example": ")") + move.example + R"(", "set": )" + move.set + "}";
  std::string sweep = std::string(R"({"example": ")") + move.example + R"(", "set": )" + move.set +
                      R"(, "vary": ")" + move.vary + R"(")";
  if (chart_columns_only) sweep += std::string(R"(, "columns": )") + chart_columns(move);
  sweep += "}";
  for (auto _ : state) {
    const auto solved = api.handle("POST", "/api/solve", solve);
    const auto swept = api.handle("POST", "/api/sweep", sweep);
    if (solved.status != 200 || swept.status != 200) {
      state.SkipWithError((solved.body + " " + swept.body).substr(0, 200).c_str());
      break;
    }
    benchmark::DoNotOptimize(solved.body.data());
    benchmark::DoNotOptimize(swept.body.data());
  }
  state.SetLabel(move.example);
}

void BM_ServeSliderMove(benchmark::State& state) {
  slider_move(state, false);
}
BENCHMARK(BM_ServeSliderMove)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ServeSliderMoveChartColumns(benchmark::State& state) {
  slider_move(state, true);
}
BENCHMARK(BM_ServeSliderMoveChartColumns)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
