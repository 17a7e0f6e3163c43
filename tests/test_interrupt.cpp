// Long work stops when its StopCheck says so (solver/stop.hpp): it throws Interrupted within a
// step, on one thread or several, and returns nothing half-made; the command line passes an
// in-process caller's check on to the work of its commands.

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/analysis/stress_check.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/stop.hpp"

using namespace scaleopt;

namespace {

// Says stop from its `after`-th question on, counting the questions (from any thread).
struct StopAfter {
  int after;
  std::shared_ptr<std::atomic<int>> asked = std::make_shared<std::atomic<int>>(0);
  bool operator()() const { return ++*asked > after; }
};

}  // namespace

TEST_CASE("a solve stops at its next objective evaluation once asked", "[stop][solver]") {
  const Scenario sardana = load_scenario(example("sardana_cost.toml"));
  SolverOptions options;
  const StopAfter stop{5};
  options.stop = stop;
  // NLopt: the fast path (the default for this linear-cost question) evaluates no objective.
  CHECK_THROWS_AS(solve_scenario(sardana, options, SolveMethod::nlopt), Interrupted);
  // Asked before each start and each evaluation: no evaluation after the first "stop".
  CHECK(*stop.asked == 6);
  // Not asked to stop, the same solve converges (the check does not change the answer).
  options.stop = [] { return false; };
  CHECK(solve_scenario(sardana, options).status() == Status::converged);
}

TEST_CASE("Monte Carlo, sweeps, sensitivities and the stress run stop on every thread",
          "[stop][analysis]") {
  const Scenario uncertain = load_scenario(example("frontier_uncertain.toml"));
  for (unsigned threads : {1u, 2u}) {
    INFO("threads " << threads);
    MonteCarloOptions monte_carlo;
    monte_carlo.samples = 100'000;
    monte_carlo.threads = threads;
    monte_carlo.solver.stop = StopAfter{50};
    CHECK_THROWS_AS(run_monte_carlo(uncertain, monte_carlo), Interrupted);

    const SweepGrid grid({parse_vary(uncertain, "inference.rate=1M/s..1G/s:log:10000")});
    SweepOptions sweep;
    sweep.threads = threads;
    sweep.method = SolveMethod::nlopt;  // the points' solves ask the check too
    sweep.solver.stop = StopAfter{200};
    CHECK_THROWS_AS(solve_sweep(uncertain, grid, sweep), Interrupted);

    SensitivityAnalysisOptions sensitivity;
    sensitivity.threads = threads;
    sensitivity.solver.stop = StopAfter{3};
    CHECK_THROWS_AS(analyse_sensitivity(uncertain, sensitivity), Interrupted);

    StressRunOptions stress;
    stress.instances = 1'000'000;
    stress.threads = threads;
    stress.check.solver.stop = StopAfter{100};
    // Not counted as a failed instance: the run itself stops.
    CHECK_THROWS_AS(run_stress(stress), Interrupted);
  }
}

TEST_CASE("a fit stops at its next evaluation once asked", "[stop][fit]") {
  std::vector<TrainingRun> runs;
  for (double n : {1e8, 1e9, 1e10}) {
    for (double d : {2e9, 2e10, 2e11}) {
      runs.push_back({n, d, 1.8172 + 482.01 / std::pow(n, 0.3478) + 2085.43 / std::pow(d, 0.3658)});
    }
  }
  FitOptions options;
  options.threads = 2;
  options.lbfgs.stop = StopAfter{1000};
  CHECK_THROWS_AS(fit_scaling_law(runs, options), Interrupted);
}

TEST_CASE("the command line passes an in-process caller's stop check to the work", "[stop][cli]") {
  const std::string uncertain = example("frontier_uncertain.toml");
  const std::vector<std::vector<std::string>> commands = {
      {"uncertainty", uncertain, "--samples", "1000000", "--json"},
      {"sensitivity", uncertain, "--json"},
      {"selftest", "--instances", "1000000", "--json"},
      {"optimal", "--compute", "1e24", "--json"},
      {"fit", example("chinchilla_fig4_epoch.csv"), "--params-col", "Model Size", "--flops-col",
       "Training FLOP", "--loss-col", "loss", "--json"},
  };
  for (const auto& args : commands) {
    INFO(args.front());
    std::ostringstream out, err;
    cli::RunContext context;
    context.stop = StopAfter{2};
    CHECK_THROWS_AS(cli::run(args, out, err, context), Interrupted);
    CHECK(out.str().empty());  // nothing printed: the answer was never made
    CHECK(err.str().empty());
  }
}
