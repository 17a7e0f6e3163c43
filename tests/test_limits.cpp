// The limits of solver/limits.hpp, checked by the library calls themselves (docs/reliability.md,
// "Bounded work"): every front end (the command line, the Python module, a program) is bounded
// alike, and a refusal names the library's parameter, which the command line maps to its flag.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/analysis/monte_carlo.hpp"
#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/analysis/stress_check.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/fit/scaling_law_bootstrap.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"
#include "scaleopt/report/sweep_plot.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/solver/limits.hpp"

using namespace scaleopt;

namespace {

// Runs on the law epoch2024 over a 3 x 3 grid of (N, D): enough to fit.
std::vector<TrainingRun> grid_runs() {
  std::vector<TrainingRun> runs;
  for (double n : {1e8, 1e9, 1e10}) {
    for (double d : {2e9, 2e10, 2e11}) {
      runs.push_back({n, d, 1.8172 + 482.01 / std::pow(n, 0.3478) + 2085.43 / std::pow(d, 0.3658)});
    }
  }
  return runs;
}

}  // namespace

TEST_CASE("a count limit names its parameter, the limit and the count", "[limits]") {
  CHECK_THROWS_WITH(kStartsLimit.check(1e9), "starts: at most 100 (the limit), got 1000000000");
  CHECK_THROWS_WITH(kStartsLimit.check(0), "starts: must be from 1 to 100, got 0");
  CHECK_THROWS_WITH(kStartsLimit.check(2.5),
                    "starts: must be a whole number (from 1 to 100), got 2.5");
  CHECK_THROWS_WITH(kStartsLimit.check(std::nan("")),
                    Catch::StartsWith("starts: must be a whole number"));
  CHECK_THROWS_WITH(kSamplesLimit.check(1e30),
                    "samples: at most 1e6 (the limit), got 1e+30");  // not an integer's digits
  CHECK_NOTHROW(kStartsLimit.check(1));
  CHECK_NOTHROW(kStartsLimit.check(100));
  CHECK_NOTHROW(kThreadsLimit.check(0));  // one per hardware thread
}

TEST_CASE("every count limit is listed once, by a name of its own", "[limits]") {
  std::set<std::string_view> names;
  for (const CountLimit& limit : count_limits()) {
    CHECK(names.insert(limit.parameter).second);
    CHECK(limit.lowest <= limit.highest);
    CHECK(find_count_limit(limit.parameter) == &limit);
  }
  CHECK(find_count_limit("no such count") == nullptr);
  // The ones the Python module checks by keyword.
  for (const char* keyword :
       {"starts", "max_evaluations", "threads", "samples", "bootstrap", "instances"}) {
    CHECK(names.count(keyword) == 1);
  }
}

TEST_CASE("the library refuses a count above its limit, naming the parameter", "[limits]") {
  const Scenario sardana = load_scenario(example("sardana_cost.toml"));
  SECTION("starts, max_evaluations and fallback_starts of a solve") {
    SolverOptions options;
    options.starts = 1'000'000'000;
    CHECK_THROWS_WITH(solve_scenario(sardana, options),
                      "starts: at most 100 (the limit), got 1000000000");
    options = {};
    options.max_evaluations = 2'000'000;
    CHECK_THROWS_WITH(solve_scenario(sardana, options),
                      "max_evaluations: at most 1e6 (the limit), got 2000000");
    options = {};
    options.fallback_starts = 1000;
    CHECK_THROWS_WITH(solve_scenario(sardana, options),
                      "fallback_starts: at most 100 (the limit), got 1000");
  }
  SECTION("Monte Carlo samples and threads") {
    const Scenario uncertain = load_scenario(example("frontier_uncertain.toml"));
    MonteCarloOptions options;
    options.samples = 1'000'001;
    CHECK_THROWS_WITH(run_monte_carlo(uncertain, options),
                      "samples: at most 1e6 (the limit), got 1000001");
    options.samples = 10;
    options.threads = 5000;
    CHECK_THROWS_WITH(run_monte_carlo(uncertain, options),
                      "threads: at most 1024 (the limit), got 5000");
  }
  SECTION("the threads of a sweep and of the sensitivities") {
    const SweepGrid grid({parse_vary(sardana, "training.mfu=0.3..0.5:3")});
    SweepOptions sweep;
    sweep.threads = 2000;
    CHECK_THROWS_WITH(SweepRunner(sardana, grid, sweep),
                      "threads: at most 1024 (the limit), got 2000");
    SensitivityAnalysisOptions sensitivity;
    sensitivity.threads = 1025;
    CHECK_THROWS_WITH(analyse_sensitivity(sardana, sensitivity),
                      "threads: at most 1024 (the limit), got 1025");
  }
  SECTION("a fit's threads and bootstrap replicates") {
    FitOptions options;
    options.threads = 4096;
    CHECK_THROWS_WITH(fit_scaling_law(grid_runs(), options),
                      "threads: at most 1024 (the limit), got 4096");
    CHECK_THROWS_WITH(BootstrapOptions{.replicates = 100'001}.validate(),
                      "bootstrap: at most 100000 (the limit), got 100001");
  }
  SECTION("the stress run's instances, failures kept and threads") {
    StressRunOptions options;
    options.instances = 2'000'000'000;
    CHECK_THROWS_WITH(run_stress(options), "instances: at most 1e9 (the limit), got 2000000000");
    options.instances = 1;
    options.failures_kept = 1001;
    CHECK_THROWS_WITH(run_stress(options), "failures_kept: at most 1000 (the limit), got 1001");
    options.failures_kept = 10;
    options.threads = 1025;
    CHECK_THROWS_WITH(run_stress(options), "threads: at most 1024 (the limit), got 1025");
  }
  SECTION("the contexts of a pricing curve and the marks of a sweep's figure") {
    CHECK_THROWS_WITH(log_spaced_contexts(1e3, 1e5, 20'000),
                      "points: at most 10000 (the limit), got 20000");
    report::SweepChoice choice;
    choice.marks.resize(21);
    CHECK_THROWS_WITH(report::sweep_of("never read.csv", choice),
                      "marks: at most 20 (the limit), got 21");
  }
}

TEST_CASE("the command line names the flag of a parameter the library refused", "[limits][cli]") {
  CHECK(cli::flag_message("starts: at most 100 (the limit), got 1000") ==
        "--starts: at most 100 (the limit), got 1000");
  CHECK(cli::flag_message("max_evaluations: at most 1e6 (the limit), got 2000000") ==
        "--max-evaluations: at most 1e6 (the limit), got 2000000");
  CHECK(cli::flag_message("marks: at most 20 (the limit), got 21") ==
        "--mark: at most 20 (the limit), got 21");
  // Anything else as it is: a file's message, a key that merely starts like a parameter.
  CHECK(cli::flag_message("q.toml:3: inference.rate: must be positive") ==
        "q.toml:3: inference.rate: must be positive");
  CHECK(cli::flag_message("startsafter: x") == "startsafter: x");
  // The parameters the library's other refusals open with, and a runs column named mid-text.
  CHECK(cli::flag_message("vary training.mfu: must be in (0, 1], got 2") ==
        "--vary training.mfu: must be in (0, 1], got 2");
  CHECK(cli::flag_message("out: s.csv needs about 5GB") == "--out: s.csv needs about 5GB");
  CHECK(cli::flag_message("set infrence.rate: unknown key") == "--set infrence.rate: unknown key");
  CHECK(cli::flag_message("tokens_col: same column as params_col ('N')") ==
        "--tokens-col: same column as --params-col ('N')");
  // A scenario key that is also a parameter's name stays a key where it does not open the
  // message, and a longer word that merely contains a column's name is left alone.
  CHECK(cli::flag_message("f.toml:7: known keys: requests, input_tokens, output_tokens") ==
        "f.toml:7: known keys: requests, input_tokens, output_tokens");
  CHECK(cli::flag_message("x: not params_colour") == "--x: not params_colour");
  // The flags still check first, with the same limit and the value as typed.
  const CliRun run = run_cli({"solve", example("sardana_cost.toml"), "--starts", "1e9"});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("--starts: at most 100 (the limit), got '1e9'"));
}

TEST_CASE("the memory limit of an answer held in memory is half the machine's", "[limits]") {
  // Independent of sysconf: the kernel's MemTotal (kB) in /proc/meminfo, the same count of
  // physical pages (totalram_pages), so the two agree exactly.
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  std::uint64_t total_kb = 0;
  while (std::getline(meminfo, line)) {
    if (line.starts_with("MemTotal:")) std::istringstream(line.substr(9)) >> total_kb;
  }
  REQUIRE(total_kb > 0);
  CHECK(in_memory_limit_bytes() == total_kb * 1024 / 2);
}
