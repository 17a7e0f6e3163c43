// `scaleopt solve` on the examples: the published numbers through the whole path (scenario
// file -> cost model -> NLopt -> output), the talk's 100x, a budget plan, and bad scenarios.

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "cli_runner.hpp"

namespace {

std::string example(const char* name) {
  return std::string(SCALEOPT_SOURCE_DIR) + "/examples/" + name;
}

CliRun solve_json(const char* name, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"solve", example(name), "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

// A scenario written to a temporary file, removed when the test ends.
struct TempScenario {
  std::string path;
  explicit TempScenario(const std::string& text) : path("scaleopt_test_solve.toml") {
    std::ofstream(path) << text;
  }
  ~TempScenario() { std::remove(path.c_str()); }
};

constexpr double kFourDigits = 5e-4;  // published to 4 significant digits

}  // namespace

TEST_CASE("solve examples/sardana_compute.toml reproduces the README", "[solve][published]") {
  const CliRun run = solve_json("sardana_compute.toml");
  REQUIRE(run.status == 0);
  const auto j = run.json();
  CHECK(j["problem"] == "min-lifetime-flops");
  CHECK(j["active_params"].get<double>() == Approx(2.418e10).epsilon(kFourDigits));
  CHECK(j["pretrain_tokens"].get<double>() == Approx(2.657e12).epsilon(kFourDigits));
  CHECK(100 * j["vs_chinchilla"]["params"].get<double>() == Approx(70.96).margin(0.005));
  CHECK(100 * j["vs_chinchilla"]["tokens"].get<double>() == Approx(146.77).margin(0.005));
  CHECK(100 * j["vs_chinchilla"]["cost"].get<double>() == Approx(95.22).margin(0.005));
  CHECK(j["cost"]["total"]["usd"].is_null());  // a FLOPs question quotes no dollars
  CHECK(j["status"] == "converged");
}

TEST_CASE("solve examples/sardana_cost.toml reproduces the README", "[solve][published]") {
  const CliRun run = solve_json("sardana_cost.toml");
  REQUIRE(run.status == 0);
  const auto j = run.json();
  CHECK(j["active_params"].get<double>() == Approx(2.053e10).epsilon(kFourDigits));
  CHECK(j["pretrain_tokens"].get<double>() == Approx(3.302e12).epsilon(kFourDigits));
  CHECK(100 * j["vs_chinchilla"]["params"].get<double>() == Approx(60.23).margin(0.005));
  CHECK(100 * j["vs_chinchilla"]["tokens"].get<double>() == Approx(182.41).margin(0.005));
  CHECK(100 * j["vs_chinchilla"]["cost"].get<double>() == Approx(88.76).margin(0.005));
  CHECK(j["inference_tokens"].get<double>() == 1e10 * 1250);
  // The NLopt answer and the independent 1-D reduction agree.
  CHECK(j["reference_relative_difference"].get<double>() < 1e-9);
}

TEST_CASE("solve examples/frontier_100x.toml: ~2.6e14 tokens, ~100x over Chinchilla",
          "[solve][published]") {
  const CliRun run = solve_json("frontier_100x.toml");
  REQUIRE(run.status == 0);
  const auto j = run.json();
  const double served = 50e6 * 2 * 365.25 * 86400 / 12;  // 50M/s for two months
  CHECK(j["inference_tokens"].get<double>() == Approx(served).epsilon(1e-15));
  // Equal thirds, serving at a third of the training MFU: pretrain on as many tokens as served.
  CHECK(j["pretrain_tokens"].get<double>() == Approx(served).epsilon(1e-12));
  CHECK(j["rl_tokens"].get<double>() == Approx(served).epsilon(1e-12));
  CHECK(j["chinchilla_tokens"].get<double>() == Approx(2e12).epsilon(1e-15));  // 20 x 100B
  CHECK(j["over_chinchilla"].get<double>() == Approx(served / 2e12).epsilon(1e-12));
  CHECK(j["cost_shares"]["pretrain"].get<double>() == Approx(1.0 / 3).epsilon(1e-12));
  // The true optimum: same loss, no dearer, and its shares are reported.
  const auto& optimum = j["optimum"];
  CHECK(optimum["status"] == "converged");
  CHECK(optimum["loss"].get<double>() == Approx(j["loss"].get<double>()).epsilon(1e-12));
  CHECK(optimum["cost"]["total"]["usd"].get<double>() <= j["cost"]["total"]["usd"].get<double>());
  CHECK(j["heuristic_overpay"].get<double>() ==
        Approx(j["cost"]["total"]["usd"].get<double>() /
                   optimum["cost"]["total"]["usd"].get<double>() -
               1)
            .epsilon(1e-12));
  const auto& shares = optimum["cost_shares"];
  CHECK(shares["pretrain"].get<double>() + shares["rl"].get<double>() +
            shares["inference"].get<double>() ==
        Approx(1.0).epsilon(1e-14));
}

TEST_CASE("the frontier table tells the story in one screen", "[solve]") {
  const CliRun run = run_cli({"solve", example("frontier_100x.toml")});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("inference tokens") && Catch::Contains("263T") &&
                          Catch::Contains("over Chinchilla") && Catch::Contains("131.5x") &&
                          Catch::Contains("heuristic overpays") &&
                          Catch::Contains("optimum (same loss)"));
}

TEST_CASE("solve examples/budget_plan.toml spends exactly the budget", "[solve]") {
  const CliRun run = solve_json("budget_plan.toml");
  REQUIRE(run.status == 0);
  const auto j = run.json();
  CHECK(j["problem"] == "max-quality");
  CHECK(j["cost"]["total"]["usd"].get<double>() == Approx(100e6).epsilon(1e-9));
  CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
  const CliRun table = run_cli({"solve", example("budget_plan.toml")});
  CHECK_THAT(table.out, Catch::Contains("pretraining wall-clock") &&
                            Catch::Contains("on 16K chips") && Catch::Contains("serving fleet"));
}

TEST_CASE("roofline-priced lifetime cost: NLopt agrees with the 1-D reduction", "[solve]") {
  // Costs per token depend on N through the roofline (numerical slopes in ln N).
  for (const char* target : {"1.95", "2.0", "2.1"}) {
    const CliRun run = run_cli({"solve", example("frontier.toml"), "--json", "--set",
                                "problem.kind=min-lifetime-cost", "--set",
                                std::string("problem.target_loss=") + target});
    REQUIRE(run.status == 0);
    const auto j = run.json();
    CHECK(j["status"] == "converged");
    CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
    CHECK(j["loss"].get<double>() == Approx(std::stod(target)).epsilon(1e-12));
  }
}

TEST_CASE("solve: bad problems get one line and exit status 2", "[solve]") {
  struct Case {
    std::vector<std::string> extra;
    const char* message;
  };
  const Case cases[] = {
      {{"--set", "problem.target_loss=1.5"}, "infeasible: target loss 1.5 is at or below"},
      {{"--set", "problem.kind=max-quality", "--set", "problem.budget_usd=$1K", "--set",
        "problem.min_params=1B"},
       "cannot serve the inference demand"},
      {{"--set", "problem.kind=equal-cost", "--set", "problem.shares.rl=0.5"},
       "problem.shares must sum to 1"},
      {{"--set", "problem.kind=nonsense"}, "unknown problem 'nonsense'"},
      {{"--set", "problem.kind=max-quality"}, "give exactly one budget"},
      {{"--set", "inference.tokens=1T"}, "one form only"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"solve", example("sardana_cost.toml")};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const CliRun run = run_cli(args);
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(c.message));
  }
  const TempScenario no_duration(
      "[law]\npreset = \"sardana2024\"\n[inference]\nrate = \"50M/s\"\noutput_fraction = "
      "0.5\n[problem]\nkind = \"min-lifetime-flops\"\ntarget_loss = 2\n");
  const CliRun run = run_cli({"solve", no_duration.path});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("inference.duration: rate and duration go together"));
  const TempScenario no_problem(
      "[law]\npreset = \"sardana2024\"\n[architecture]\npreset = \"llama3-70b\"\n");
  CHECK_THAT(run_cli({"solve", no_problem.path}).err,
             Catch::Contains("problem.kind: required by solve"));
}
