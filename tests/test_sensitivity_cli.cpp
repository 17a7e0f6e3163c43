// scaleopt sensitivity: every input reported, the tornado against solves of its own, the ranks,
// and bad flags.

#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "example_path.hpp"

namespace {

double solved_params(const std::string& scenario, const std::string& set) {
  const CliRun run = run_cli({"solve", scenario, "--json", "--set", set});
  REQUIRE(run.status == 0);
  return run.json()["params"].get<double>();
}

}  // namespace

TEST_CASE("sensitivity --json: every numeric input, elasticities and a ranked tornado",
          "[sensitivity]") {
  const std::string scenario = example("sardana_cost.toml");
  const CliRun run = run_cli({"sensitivity", scenario, "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const nlohmann::json j = run.json();
  CHECK(j["problem"] == "min-lifetime-cost");
  CHECK(j["rank_by"] == "params");
  CHECK(j["tornado_fraction"].get<double>() == 0.2);
  const auto& elasticities = j["elasticities"];
  const auto& tornado = j["tornado"];
  REQUIRE(elasticities.size() == tornado.size());
  CHECK(elasticities.size() >= 30);
  CHECK_FALSE(j.contains("heuristic_elasticities"));
  for (const auto& e : elasticities) {
    INFO(e.dump());
    CHECK(e["status"] == "converged");  // every input of this example can move both ways
  }
  // Ranked by swing, largest first; unknown swings (an infeasible side) last; the law's
  // coefficients after the scenario's inputs, ranked apart.
  double previous = INFINITY;
  bool unknown_seen = false;
  std::string group = "inputs";
  for (const auto& row : tornado) {
    if (row["group"] != group) {
      CHECK(row["group"] == "law");
      group = row["group"];
      previous = INFINITY;
      unknown_seen = false;
    }
    if (row["swing"].is_null()) {
      unknown_seen = true;
      continue;
    }
    CHECK_FALSE(unknown_seen);
    CHECK(row["swing"].get<double>() <= previous);
    previous = row["swing"].get<double>();
  }
  // A tornado row against two solves of its own (NLopt): the training price +-20%.
  for (const auto& row : tornado) {
    if (row["input"] != "training.usd_per_chip_hour") continue;
    CHECK(row["low_value"].get<double>() == Approx(1.4 * 0.8).epsilon(1e-15));
    const double low = solved_params(scenario, "training.usd_per_chip_hour=1.12");
    const double high = solved_params(scenario, "training.usd_per_chip_hour=1.68");
    const double base = j["base"]["params"].get<double>();
    // The fast path against NLopt: 1e-9 each.
    CHECK(row["low"]["params"].get<double>() == Approx(low).epsilon(1e-9));
    CHECK(row["high"]["params"].get<double>() == Approx(high).epsilon(1e-9));
    CHECK(row["swing"].get<double>() == Approx(std::fabs(high - low) / base).epsilon(1e-7));
  }
}

TEST_CASE("sensitivity: the equal-cost heuristic's elasticities come with the optimum's",
          "[sensitivity]") {
  const CliRun run = run_cli({"sensitivity", example("frontier_100x.toml"), "--json", "--tornado",
                              "10%", "--rank-by", "cost_total"});
  REQUIRE(run.status == 0);
  const nlohmann::json j = run.json();
  REQUIRE(j.contains("heuristic_elasticities"));
  CHECK(j["rank_by"] == "cost_total");
  for (const auto& e : j["heuristic_elasticities"]) {
    if (e["input"] == "inference.rate") {
      // D of the heuristic is proportional to the served tokens; N is given.
      CHECK(e["pretrain_tokens"].get<double>() == Approx(1.0).epsilon(1e-8));
      CHECK(e["params"].get<double>() == Approx(0.0).margin(1e-8));
    }
    if (e["input"] == "problem.shares.pretrain") {
      // The shares must sum to 1: one alone cannot move.
      CHECK(e["status"] == "invalid_input");
      CHECK(e["message"].get<std::string>().find("sum to 1") != std::string::npos);
    }
  }
  // The text form lists the inputs without effect on one line.
  const CliRun text = run_cli({"sensitivity", example("frontier_100x.toml")});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("no effect (elasticities exactly 0): "));
  CHECK_THAT(text.out, Catch::Contains("Tornado: each input -20% and +20%"));
}

TEST_CASE("sensitivity: bad flags are one line and exit 2", "[sensitivity]") {
  const std::string scenario = example("sardana_cost.toml");
  for (const std::vector<std::string>& flags : {std::vector<std::string>{"--tornado", "150%"},
                                                {"--tornado", "0"},
                                                {"--tornado", "x"},
                                                {"--rank-by", "size"},
                                                {"--threads", "-1"},
                                                {"--method", "fast"}}) {
    const CliRun run = run_cli({"sensitivity", scenario, flags[0], flags[1]});
    INFO(flags[0] << " " << flags[1] << ": " << run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(flags[0]));
  }
  // A scenario without a [problem] has no optimum to differentiate.
  const CliRun cost = run_cli({"sensitivity", example("frontier.toml")});
  CHECK(is_one_line_error(cost));
  CHECK_THAT(cost.err, Catch::Contains("problem.kind"));
}

TEST_CASE("sensitivity covers the RL returns: elasticities against re-solves",
          "[sensitivity][rl_returns]") {
  // The elasticity of the optimum's N to each returns parameter from the KKT system over
  // (ln N, ln D, ln D_RL), against central differences of two independent solves at +-1%.
  const std::string scenario = example("frontier_rl.toml");
  const CliRun run = run_cli({"sensitivity", scenario, "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const nlohmann::json j = run.json();
  int seen = 0;
  for (const auto& e : j["elasticities"]) {
    const std::string path = e["input"].get<std::string>();
    if (path.rfind("rl.returns.", 0) != 0) continue;
    ++seen;
    INFO(path);
    REQUIRE(e["status"] == "converged");
    const double value = e["value"].get<double>();
    const auto optimum_params = [&](double v) {
      const CliRun r =
          run_cli({"solve", scenario, "--json", "--set", path + "=" + std::to_string(v)});
      REQUIRE(r.status == 0);
      return r.json()["optimum"]["params"].get<double>();
    };
    const double h = 0.01;
    const double numeric =
        (std::log(optimum_params(value * (1 + h))) - std::log(optimum_params(value * (1 - h)))) /
        (std::log1p(h) - std::log1p(-h));
    // Central differences at 1%: truncation ~h^2 times the curvature, well below 1e-3 here.
    CHECK(e["params"].get<double>() == Approx(numeric).margin(1e-3));
  }
  CHECK(seen == 3);
}
