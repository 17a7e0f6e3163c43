// Lifetime problems with inference priced by the roofline: one solve by the fast
// path (the closed form of problems/lifecycle/accelerators/roofline_pricing.hpp, Newton on the
// convex 1-D reduction, a light summary) against NLopt on the same setup; the setup each sweep
// point or Monte Carlo sample pays; a 10^6-point sweep with its CSV over replica size, context and
// latency target; and 10^5 Monte Carlo samples with roofline pricing. Targets:
// <= 2 us a solve, <= 4 s the sweep, <= 0.5 s the Monte Carlo, on the 2-core machine. With the
// replica size chosen (inference.chips absent): <= 5 us a solve by the fast path, <= 10 s a
// 10^6-point sweep with its CSV.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/cli/app.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace {

using namespace scaleopt;

std::string example(const char* name) {
  return std::string(SCALEOPT_SOURCE_DIR) + "/examples/" + name;
}

// The talk's frontier model (examples/frontier.toml: B200 replicas, 32K context, fp8) with a
// question: the cheapest life at the quality of a Chinchilla-style 100B model, the best model
// $3B buys, or equal-cost at its 100B; optionally a 30 ms latency target.
const std::vector<std::string> kMinCost = {"problem.kind=min-lifetime-cost",
                                           "problem.target_params=100B"};
const std::vector<std::string> kMaxQuality = {"problem.kind=max-quality", "problem.budget_usd=3e9"};
const std::vector<std::string> kEqualCost = {"problem.kind=equal-cost"};

std::vector<std::string> with_latency(std::vector<std::string> set) {
  set.push_back("inference.latency_per_token=30ms");
  return set;
}

// The same scenario with inference.chips absent: the replica size chosen with N, whole B200
// nodes up to inference.max_replica_nodes (32 by default).
std::string frontier_chosen_replica_text() {
  std::ifstream file(example("frontier.toml"));
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::string text = buffer.str();
  const std::size_t at = text.find("\nchips = 8 ");
  if (at == std::string::npos) throw std::runtime_error("frontier.toml: no replica chips line");
  text.erase(at + 1, text.find('\n', at + 1) - at);
  return text;
}

Scenario frontier_chosen_replica(const std::vector<std::string>& set) {
  Scenario scenario =
      load_scenario_text(frontier_chosen_replica_text(), "frontier-chosen-replica.toml", set);
  if (!scenario.serving.replica_chosen) throw std::runtime_error("the replica is still given");
  return scenario;
}

// The replica of frontier.toml as given (8 chips), or chosen with N (inference.chips absent).
enum class Replica { given, chosen };

Scenario frontier_scenario(Replica replica, const std::vector<std::string>& set) {
  return replica == Replica::given ? load_scenario(example("frontier.toml"), set)
                                   : frontier_chosen_replica(set);
}

void BM_RooflineFastPath(benchmark::State& state, Replica replica, std::vector<std::string> set) {
  const QuestionSetup setup = scenario_setup(frontier_scenario(replica, set));
  if (!solve_question_fast(setup)) state.SkipWithError("the fast path does not apply");
  for (auto _ : state) benchmark::DoNotOptimize(solve_question_fast(setup));
}

// With the replica chosen: every whole-node size solved by NLopt and verified, the best kept.
void BM_RooflineNlopt(benchmark::State& state, Replica replica, std::vector<std::string> set) {
  const QuestionSetup setup = scenario_setup(frontier_scenario(replica, set));
  for (auto _ : state) benchmark::DoNotOptimize(solve_question(setup));
}

// What a sweep point pays before its solve (the scenario is read once, as a sweep does).
void BM_RooflineSetup(benchmark::State& state, Replica replica, std::vector<std::string> set) {
  const Scenario scenario = frontier_scenario(replica, set);
  for (auto _ : state) benchmark::DoNotOptimize(scenario_setup(scenario));
}

BENCHMARK_CAPTURE(BM_RooflineFastPath, min_lifetime_cost, Replica::given, kMinCost);
BENCHMARK_CAPTURE(BM_RooflineFastPath, min_lifetime_cost_latency, Replica::given,
                  with_latency(kMinCost));
BENCHMARK_CAPTURE(BM_RooflineFastPath, max_quality, Replica::given, kMaxQuality);
BENCHMARK_CAPTURE(BM_RooflineFastPath, equal_cost, Replica::given, kEqualCost);
BENCHMARK_CAPTURE(BM_RooflineFastPath, chosen_replica_min_lifetime_cost, Replica::chosen, kMinCost);
BENCHMARK_CAPTURE(BM_RooflineFastPath, chosen_replica_min_lifetime_cost_latency, Replica::chosen,
                  with_latency(kMinCost));
BENCHMARK_CAPTURE(BM_RooflineFastPath, chosen_replica_max_quality, Replica::chosen, kMaxQuality);
BENCHMARK_CAPTURE(BM_RooflineNlopt, min_lifetime_cost, Replica::given, kMinCost)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RooflineNlopt, max_quality, Replica::given, kMaxQuality)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RooflineNlopt, chosen_replica_min_lifetime_cost, Replica::chosen, kMinCost)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RooflineSetup, min_lifetime_cost, Replica::given, kMinCost);
BENCHMARK_CAPTURE(BM_RooflineSetup, min_lifetime_cost_latency, Replica::given,
                  with_latency(kMinCost));
BENCHMARK_CAPTURE(BM_RooflineSetup, chosen_replica_min_lifetime_cost, Replica::chosen, kMinCost);

// The command itself, in-process, on every hardware thread. Wall-clock time.
void run_command(benchmark::State& state, const std::vector<std::string>& args, double items) {
  for (auto _ : state) {
    std::ostringstream sink, errors;
    if (cli::run(args, sink, errors) != 0) state.SkipWithError(errors.str().c_str());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * items));
}

// 100 replica sizes x 100 contexts x 100 latency targets, the cheapest life at 100B quality.
void BM_RooflineSweep1MPointsWithCsv(benchmark::State& state) {
  const std::string out =
      (std::filesystem::temp_directory_path() / "scaleopt_bench_roofline_sweep.csv").string();
  std::vector<std::string> args = {"sweep",  example("frontier.toml"),
                                   "--vary", "inference.chips=8..64:100",
                                   "--vary", "inference.context=1K..128K:log:100",
                                   "--vary", "inference.latency_per_token=20ms..200ms:log:100",
                                   "--out",  out};
  for (const std::string& key : kMinCost) args.insert(args.end(), {"--set", key});
  run_command(state, args, 1e6);
  std::filesystem::remove(out);
}
BENCHMARK(BM_RooflineSweep1MPointsWithCsv)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// The chosen-replica scenario: 100 contexts x 100 latency targets x 100 serving rates, the
// cheapest life at 100B quality, the replica size chosen at every point.
void BM_ChosenReplicaSweep1MPointsWithCsv(benchmark::State& state) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string scenario = (dir / "scaleopt_bench_chosen_replica.toml").string();
  const std::string out = (dir / "scaleopt_bench_chosen_replica_sweep.csv").string();
  std::ofstream(scenario) << frontier_chosen_replica_text();
  std::vector<std::string> args = {"sweep",  scenario,
                                   "--vary", "inference.context=1K..128K:log:100",
                                   "--vary", "inference.latency_per_token=20ms..200ms:log:100",
                                   "--vary", "inference.rate=5M/s..500M/s:log:100",
                                   "--out",  out};
  for (const std::string& key : kMinCost) args.insert(args.end(), {"--set", key});
  run_command(state, args, 1e6);
  std::filesystem::remove(out);
  std::filesystem::remove(scenario);
}
BENCHMARK(BM_ChosenReplicaSweep1MPointsWithCsv)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// examples/frontier_uncertain.toml priced by the roofline (its decode MFU is drawn but unused).
void BM_RooflineMonteCarlo100kSamples(benchmark::State& state) {
  run_command(state,
              {"uncertainty", example("frontier_uncertain.toml"), "--set",
               "inference.pricing=roofline", "--samples", "100000", "--seed", "1"},
              1e5);
}
BENCHMARK(BM_RooflineMonteCarlo100kSamples)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
