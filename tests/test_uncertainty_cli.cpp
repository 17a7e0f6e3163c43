// scaleopt uncertainty: the same seed gives the same answer with 1 and 2 threads, a sample
// re-solved on its own agrees with its row, the infeasible share matches the probability of
// an unreachable target, and bad distributions are one line and exit 2.

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "temp_file.hpp"

namespace {

// Sardana's compute example, with an [uncertainty] table to come.
const std::string kSardanaCompute = R"(
[law]
preset = "sardana2024"
[inference]
tokens = "2T"
output_fraction = 0.75
[problem]
kind = "min-lifetime-flops"
target_loss = 1.947
[uncertainty]
)";

// ... with an uncertain demand and target.
const std::string kScenario = kSardanaCompute + R"(
"inference.tokens" = { dist = "lognormal", median = "2T", sigma = 1.0 }
"problem.target_loss" = { dist = "uniform", lo = 1.6, hi = 2.0 }
)";

}  // namespace

TEST_CASE("uncertainty: same seed, same answer and samples with 1 and 2 threads", "[uncertainty]") {
  const std::string scenario = example("frontier_uncertain.toml");
  const std::string dir = std::filesystem::temp_directory_path().string();
  const std::string one = dir + "/scaleopt_test_mc_one.csv",
                    two = dir + "/scaleopt_test_mc_two.csv";
  const CliRun a = run_cli({"uncertainty", scenario, "--samples", "3000", "--seed", "5",
                            "--threads", "1", "--json", "--out", one});
  const CliRun b = run_cli({"uncertainty", scenario, "--samples", "3000", "--seed", "5",
                            "--threads", "2", "--json", "--out", two});
  INFO(a.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  auto j1 = a.json(), j2 = b.json();
  j1.erase("samples_file");
  j2.erase("samples_file");
  CHECK(j1 == j2);  // every quantile to the last bit
  CHECK(read_file(one) == read_file(two));
  const CliRun c = run_cli({"uncertainty", scenario, "--samples", "3000", "--seed", "6", "--json"});
  CHECK(c.json()["quantiles"] != j1["quantiles"]);
  CHECK(j1["law"] == "bootstrap");
  CHECK(j1["converged"].get<int>() + j1["invalid"].get<int>() + j1["infeasible"].get<int>() +
            j1["not_converged"].get<int>() ==
        3000);
  std::filesystem::remove(one);
  std::filesystem::remove(two);
}

TEST_CASE("uncertainty: a sample's row is what solve gives for its drawn inputs", "[uncertainty]") {
  const TempFile scenario("mc_sardana.toml", kScenario);
  const std::string out =
      std::filesystem::temp_directory_path().string() + "/scaleopt_test_mc_rows.csv";
  const CliRun run = run_cli({"uncertainty", scenario.path(), "--samples", "50", "--out", out});
  REQUIRE(run.status == 0);
  std::istringstream lines(read_file(out));
  std::string header, row;
  while (std::getline(lines, header) && header.starts_with("#")) {  // provenance lines
  }
  const auto columns = split(header);
  REQUIRE(columns[0] == "sample");
  REQUIRE(columns[1] == "inference.tokens");  // drawn inputs in path order
  REQUIRE(columns[2] == "problem.target_loss");
  int checked = 0;
  while (std::getline(lines, row) && checked < 5) {
    const auto cells = split(row);
    const std::size_t status =
        std::find(columns.begin(), columns.end(), "status") - columns.begin();
    if (cells[status] != "converged") continue;
    const CliRun solve =
        run_cli({"solve", scenario.path(), "--json", "--set", "inference.tokens=" + cells[1],
                 "--set", "problem.target_loss=" + cells[2]});
    REQUIRE(solve.status == 0);
    // The fast path against NLopt: 1e-9 (tests/test_question_fast.cpp).
    CHECK(std::stod(cells[3]) == Approx(solve.json()["params"].get<double>()).epsilon(1e-9));
    ++checked;
  }
  CHECK(checked == 5);
  std::filesystem::remove(out);
}

TEST_CASE("uncertainty: the infeasible share is the chance of a target at or below E",
          "[uncertainty]") {
  // target ~ uniform(1.6, 2.0) and E = 1.69: P(target <= E) = 0.09 / 0.4 = 0.225. Standard
  // error of the share over 4,000 samples: sqrt(0.225 * 0.775 / 4000) = 0.0066; 5 of them.
  const TempFile scenario("mc_share.toml", kScenario);
  const CliRun run =
      run_cli({"uncertainty", scenario.path(), "--samples", "4000", "--seed", "2", "--json"});
  REQUIRE(run.status == 0);
  const auto j = run.json();
  CHECK(std::fabs(j["infeasible_share"].get<double>() - 0.225) < 5 * 0.0066);
  CHECK(j["invalid"] == 0);
  CHECK(j["law"].is_null());
  // Every converged sample reaches its target: the loss quantiles lie within (E, 2.0).
  CHECK(j["quantiles"]["loss"]["p05"].get<double>() > 1.69);
  CHECK(j["quantiles"]["loss"]["p95"].get<double>() < 2.0);
  // More inference demand, a smaller model: the params spread is wide, with a median near
  // Sardana's 2.4e10 at the median demand and a target near 1.85.
  CHECK(j["quantiles"]["params"]["p05"].get<double>() <
        j["quantiles"]["params"]["p95"].get<double>());
}

TEST_CASE("uncertainty: bad distributions are one line and exit 2", "[uncertainty]") {
  const std::string& base = kSardanaCompute;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("inference.tokens" = { dist = "lognormal", median = "2T", sigma = -0.5 })",
       "uncertainty.inference.tokens.sigma: must be >= 0, got -0.5"},
      {R"("inference.tokens" = { dist = "uniform", lo = "3T", hi = "2T" })",
       "uncertainty.inference.tokens: lo must be below hi"},
      {R"("inference.tokens" = { dist = "gamma", shape = 2 })",
       "uncertainty.inference.tokens.dist: unknown distribution 'gamma'"},
      {R"("inference.tokenz" = { dist = "normal", mean = "2T", sd = "1T" })",
       "uncertainty.inference.tokenz: inference.tokenz: unknown numeric input (did you mean "
       "'inference.tokens'?)"},
      {R"("inference.tokens" = { dist = "normal", mean = "2T" })",
       "uncertainty.inference.tokens: needs sd for a normal distribution"},
      {R"("inference.tokens" = { dist = "normal", mean = "2T", sd = "1T", median = 3 })",
       "uncertainty.inference.tokens.median: unknown key"},
      {R"(law = "bootstrap")", "needs the law's uncertainty"},
      {R"(law = "jackknife")", "uncertainty.law: expected \"bootstrap\""},
      {R"("inference.tokens" = 3)", "uncertainty.inference.tokens: expected a distribution"},
  };
  for (const auto& [line, message] : cases) {
    const TempFile scenario("mc_bad.toml", base + line + "\n");
    const CliRun run = run_cli({"uncertainty", scenario.path()});
    INFO(line << " -> " << run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(message));
    CHECK_THAT(run.err, Catch::Contains("mc_bad.toml:"));  // file and line
  }
  const CliRun none = run_cli({"uncertainty", example("sardana_cost.toml")});
  CHECK(is_one_line_error(none));
  CHECK_THAT(none.err, Catch::Contains("no [uncertainty] table"));
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--samples", "0"}, {"--seed", "-1"}, {"--threads", "-2"}}) {
    const CliRun run =
        run_cli({"uncertainty", example("frontier_uncertain.toml"), flags[0], flags[1]});
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(flags[0]));
  }
}

TEST_CASE("uncertainty over the RL returns: a sample's row is what solve gives",
          "[uncertainty][rl_returns]") {
  // The returns parameters go through the key registry like any input: drawn, set, re-solved.
  const TempFile scenario("mc_returns.toml", kSardanaCompute + R"(
"rl.returns.max_gain" = { dist = "lognormal", median = 20, sigma = 0.5 }
"rl.returns.half_ratio" = { dist = "lognormal", median = 0.005, sigma = 1.0 }
[rl.returns]
)");
  const std::string out =
      std::filesystem::temp_directory_path().string() + "/scaleopt_test_mc_returns.csv";
  const CliRun run = run_cli({"uncertainty", scenario.path(), "--samples", "20", "--out", out});
  INFO(run.err);
  REQUIRE(run.status == 0);
  std::istringstream lines(read_file(out));
  std::string header, row;
  while (std::getline(lines, header) && header.starts_with("#")) {  // provenance lines
  }
  const auto columns = split(header);
  REQUIRE(columns.size() > 3);
  REQUIRE(columns[1] == "rl.returns.half_ratio");  // drawn inputs in path order
  REQUIRE(columns[2] == "rl.returns.max_gain");
  const std::size_t status = std::find(columns.begin(), columns.end(), "status") - columns.begin();
  int checked = 0;
  while (std::getline(lines, row) && checked < 3) {
    const auto cells = split(row);
    REQUIRE(cells[status] == "converged");
    const CliRun solve =
        run_cli({"solve", scenario.path(), "--json", "--set", "rl.returns.half_ratio=" + cells[1],
                 "--set", "rl.returns.max_gain=" + cells[2]});
    REQUIRE(solve.status == 0);
    // Both NLopt on the same problem: the polish leaves ~1e-15, well inside 1e-9.
    CHECK(std::stod(cells[3]) == Approx(solve.json()["params"].get<double>()).epsilon(1e-9));
    ++checked;
  }
  CHECK(checked == 3);
  std::filesystem::remove(out);
}

TEST_CASE("uncertainty: the stock of unique tokens is printed as an assumption", "[uncertainty]") {
  // examples/frontier_data_uncertain.toml draws data.unique_tokens from lognormal(median 50T,
  // sigma 0.7): a guess at a lab's own stock, which the output must call one, in text and JSON.
  const std::string scenario = example("frontier_data_uncertain.toml");
  const CliRun text = run_cli({"uncertainty", scenario, "--samples", "20", "--seed", "1"});
  INFO(text.err);
  REQUIRE(text.status == 0);
  const auto at = text.out.find("Assumptions (");
  REQUIRE(at != std::string::npos);
  const std::string assumptions = text.out.substr(at);
  CHECK_THAT(
      assumptions,
      Catch::Contains("data.unique_tokens ~ lognormal(median 50T, sigma 0.7): an "
                      "assumption of the scenario's [uncertainty] table, not a measurement"));
  CHECK_THAT(assumptions, Catch::Contains("inference.rate ~ lognormal(median 50M/s, sigma 0.7)"));
  // The defaults the scenario did not set follow, as `solve` lists them.
  CHECK_THAT(assumptions, Catch::Contains("law.repeat_decay_tokens"));
  const CliRun json =
      run_cli({"uncertainty", scenario, "--samples", "20", "--seed", "1", "--json"});
  REQUIRE(json.status == 0);
  const auto list = json.json()["assumptions"];
  REQUIRE(list.is_array());
  REQUIRE(list.size() >= 2);
  CHECK(list[0].get<std::string>().starts_with("data.unique_tokens ~ lognormal(median 50T"));
  CHECK_THAT(list[0].get<std::string>(), Catch::Contains("not a measurement"));
}
