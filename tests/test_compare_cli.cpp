// scaleopt compare: two answers side by side, checked against the two solves' own JSON and the
// ratios against hand arithmetic on them.

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"

namespace {

nlohmann::json solved(const std::string& scenario, const std::vector<std::string>& more = {}) {
  const CliRun run = run_cli(with({"solve", scenario, "--json"}, more));
  INFO(scenario << ": " << run.err);
  REQUIRE(run.status == 0);
  nlohmann::json json = run.json();
  json.erase("schema_version");
  return json;
}

const nlohmann::json& figure(const nlohmann::json& plan, const std::string& key) {
  for (const auto& f : plan["figures"]) {
    if (f["key"] == key) return f;
  }
  FAIL("no figure " << key);
  return plan;
}

}  // namespace

TEST_CASE("compare --json: both answers as solve gives them, the figures and their ratios",
          "[compare]") {
  const std::string a = example("frontier_100x.toml"), b = example("frontier_derived.toml");
  const CliRun run = run_cli({"compare", a, b, "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto j = run.json();
  const auto sa = solved(a), sb = solved(b);
  CHECK(j["a"] == sa);
  CHECK(j["b"] == sb);
  CHECK(j["scenarios"] == nlohmann::json({a, b}));
  CHECK(j["status"] == "converged");
  CHECK_THAT(j["inference"][0].get<std::string>(), Catch::StartsWith("typed MFUs: prefill 0.133"));
  CHECK_THAT(j["inference"][1].get<std::string>(),
             Catch::StartsWith("the roofline: 88 x h100-sxm"));
  // Both equal-cost: the heuristics first, then the optima.
  REQUIRE(j["plans"].size() == 2);
  const auto& answer = j["plans"][0];
  const auto& optimum = j["plans"][1];
  CHECK(answer["a_label"] == "heuristic");
  CHECK(optimum["b_label"] == "optimum");
  // The figures are the solves' own, the ratio B / A.
  for (const char* key : {"pretrain_tokens", "over_chinchilla", "loss", "params"}) {
    INFO(key);
    const auto& f = figure(answer, key);
    CHECK(f["a"].get<double>() == sa[key].get<double>());
    CHECK(f["b"].get<double>() == sb[key].get<double>());
    CHECK(f["ratio"].get<double>() == sb[key].get<double>() / sa[key].get<double>());
    const auto& o = figure(optimum, key);
    CHECK(o["a"].get<double>() == sa["optimum"][key].get<double>());
    CHECK(o["b"].get<double>() == sb["optimum"][key].get<double>());
  }
  const auto& cost = figure(answer, "cost_total_usd");
  CHECK(cost["a"].get<double>() == sa["cost"]["total"]["usd"].get<double>());
  CHECK(cost["ratio"].get<double>() ==
        sb["cost"]["total"]["usd"].get<double>() / sa["cost"]["total"]["usd"].get<double>());
  // The talk's headline, assumed and derived: 131.5x and 17.5x of Chinchilla's tokens.
  CHECK(figure(answer, "over_chinchilla")["a"].get<double>() == Approx(131.5).epsilon(1e-3));
  CHECK(figure(answer, "over_chinchilla")["b"].get<double>() == Approx(17.52).epsilon(1e-3));
  // The same active parameters (100B, the scenario's N) and served tokens: not differences;
  // the totals differ (dense 100B against a 3.27T mixture of experts).
  const auto differences = j["differences"].get<std::vector<std::string>>();
  CHECK(std::find(differences.begin(), differences.end(), "active_params") == differences.end());
  CHECK(std::find(differences.begin(), differences.end(), "params") != differences.end());
  CHECK(std::find(differences.begin(), differences.end(), "inference_tokens") == differences.end());
  CHECK(std::find(differences.begin(), differences.end(), "pretrain_tokens") != differences.end());
  CHECK(figure(answer, "active_params")["differs"] == false);
  CHECK(figure(answer, "pretrain_tokens")["differs"] == true);
}

namespace {

// Runs of spaces squeezed to one, so a check names the words of a line and not its padding.
std::string squeezed(const std::string& line) {
  std::string out;
  for (const char c : line) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

bool has_line(const std::string& text, const std::string& words) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (squeezed(line) == words) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("compare prints the lines beside each other and marks those that differ", "[compare]") {
  const CliRun run =
      run_cli({"compare", example("frontier_100x.toml"), example("frontier_derived.toml")});
  REQUIRE(run.status == 0);
  const std::string& out = run.out;
  CHECK_THAT(out, Catch::Contains("A: heuristic") && Catch::Contains("B: heuristic") &&
                      Catch::Contains("A: optimum"));
  // Each line of solve's table, A's value then B's; '*' where they differ.
  // Whole lines, padding squeezed, and no std::regex: libstdc++'s executor recursed once per
  // character and overflowed the stack under ASan, and its compiler warns (maybe-uninitialized)
  // at -O1 with sanitizers.
  CHECK(has_line(out, " * over Chinchilla 131.5x (rule: 2T) 17.52x (rule: 2T)"));
  CHECK(has_line(out, " params (active) 100B 100B"));
  CHECK_THAT(out, Catch::Contains("inference priced by"));

  // A scenario beside itself (after the same --set): nothing marked.
  const CliRun same =
      run_cli({"compare", example("sardana_cost.toml"), example("sardana_cost.toml"), "--set",
               "inference.requests=2e10", "--json"});
  REQUIRE(same.status == 0);
  const auto j = same.json();
  CHECK(j["differences"].empty());
  CHECK(j["plans"].size() == 1);
  // --set reached both: as solve with it.
  CHECK(j["a"] == solved(example("sardana_cost.toml"), {"--set", "inference.requests=2e10"}));
  const CliRun text =
      run_cli({"compare", example("sardana_cost.toml"), example("sardana_cost.toml")});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, !Catch::Contains("\n  *  "));
}

TEST_CASE("compare refuses a missing or bad scenario in one line", "[compare]") {
  const CliRun missing = run_cli({"compare", example("frontier_100x.toml")});
  CHECK(missing.status == 2);
  const CliRun bad = run_cli({"compare", example("frontier_100x.toml"), "no-such.toml"});
  CHECK(is_one_line_error(bad));
  CHECK_THAT(bad.err, Catch::Contains("no-such.toml"));
}
