// sensitivity's choice of inputs (--inputs, --exclude), whole steps for counts, inputs without
// an answer left out with a note, and the law's coefficients ranked as a group of their own.

#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "input_rows.hpp"

TEST_CASE("sensitivity --inputs and --exclude choose the inputs by name or glob", "[sensitivity]") {
  const std::string scenario = example("frontier_derived.toml");
  const CliRun chosen =
      run_cli({"sensitivity", scenario, "--inputs", "inference.*,training.mfu", "--json"});
  INFO(chosen.err);
  REQUIRE(chosen.status == 0);
  const auto j = chosen.json();
  REQUIRE(j["elasticities"].size() >= 5);
  for (const auto& row : j["elasticities"]) {
    const std::string input = row["input"];
    CHECK((input.starts_with("inference.") || input == "training.mfu"));
  }
  CHECK(input_row(j["elasticities"], "inference.chips"));
  CHECK(input_row(j["tornado"], "training.mfu"));

  // Repeated flags add up; --exclude takes globs too.
  const CliRun excluded = run_cli(
      {"sensitivity", scenario, "--exclude", "law.*", "--exclude", "architecture.*", "--json"});
  REQUIRE(excluded.status == 0);
  // The document is kept: a range-for over a member of a temporary would read freed memory.
  const auto excluded_json = excluded.json();
  for (const auto& row : excluded_json["tornado"]) {
    const std::string input = row["input"];
    CHECK_FALSE(input.starts_with("law."));
    CHECK_FALSE(input.starts_with("architecture."));
    CHECK(row["group"] == "inputs");
  }

  // A pattern that matches nothing: one line naming the flag (and a near miss).
  const CliRun glob = run_cli({"sensitivity", scenario, "--inputs", "nope.*"});
  CHECK(is_one_line_error(glob));
  CHECK_THAT(glob.err, Catch::Contains("--inputs: 'nope.*': matches no numeric input"));
  const CliRun typo = run_cli({"sensitivity", scenario, "--inputs", "inference.rat"});
  CHECK(is_one_line_error(typo));
  CHECK_THAT(typo.err, Catch::Contains("--inputs: 'inference.rat'") &&
                           Catch::Contains("did you mean 'inference.rate'"));
  const CliRun none = run_cli({"sensitivity", scenario, "--exclude", "*"});
  CHECK(is_one_line_error(none));
  CHECK_THAT(none.err, Catch::Contains("--exclude: leaves no input"));
}

TEST_CASE("sensitivity moves whole numbers by whole steps", "[sensitivity]") {
  // frontier_derived serves on a replica of 88 chips: -20% and +20% are 70.4 and 105.6 chips,
  // which do not exist; the tornado takes 70 and 106. At 16.5 ms per token the latency target
  // binds (one step reads the weights in 15.8 ms on 88 chips, 16.0 ms on 87, 19.9 ms on 70: no
  // answer there), so the chips move the answer (docs/validation.md, "The ~100x, assumed and
  // derived").
  const std::string scenario = example("frontier_derived.toml");
  const std::string latency = "inference.latency_per_token=16.5ms";
  const CliRun run = run_cli({"sensitivity", scenario, "--set", latency, "--inputs",
                              "inference.chips", "--rank-by", "cost_total", "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto j = run.json();
  const auto* row = input_row(j["tornado"], "inference.chips");
  REQUIRE(row);
  CHECK((*row)["whole_number"] == true);
  CHECK((*row)["low_value"].get<double>() == 70.0);
  CHECK((*row)["high_value"].get<double>() == 106.0);
  CHECK((*row)["low_status"] == "invalid_input");
  const auto cost_at = [&](const std::string& chips) {
    const CliRun solve = run_cli(
        {"solve", scenario, "--json", "--set", latency, "--set", "inference.chips=" + chips});
    INFO(chips << ": " << solve.err);
    REQUIRE(solve.status == 0);
    return solve.json()["optimum"]["cost"]["total"]["usd"].get<double>();
  };
  // A side against a solve of its own at that whole count (fast path against NLopt: 1e-9).
  CHECK((*row)["high"]["cost_total"].get<double>() == Approx(cost_at("106")).epsilon(1e-9));

  // The elasticity: a secant over 87 and 89 chips, against two solves of our own. Two chips
  // move ln(cost) by ~6e-4, so the solves' 1e-9 agreement leaves ~3e-6 on the secant: 1e-5.
  const auto* e = input_row(j["elasticities"], "inference.chips");
  REQUIRE(e);
  CHECK((*e)["stencil"] == "whole steps");
  const double secant =
      (std::log(cost_at("89")) - std::log(cost_at("87"))) / (std::log(89.0) - std::log(87.0));
  CHECK(std::fabs(secant) > 0.01);
  CHECK((*e)["cost_total"].get<double>() == Approx(secant).epsilon(1e-5));

  // The text says so.
  const CliRun text =
      run_cli({"sensitivity", scenario, "--set", latency, "--inputs", "inference.chips"});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("70 -> ") && Catch::Contains("106 -> ") &&
                           Catch::Contains("whole numbers, as secants over one whole step"));
}

TEST_CASE("sensitivity ranks the law's coefficients apart and leaves out inputs without an answer",
          "[sensitivity]") {
  const std::string scenario = example("frontier_100x.toml");
  const CliRun run = run_cli({"sensitivity", scenario, "--json"});
  REQUIRE(run.status == 0);
  const auto j = run.json();
  // The scenario's inputs first, then the law's, each ranked by swing.
  bool law_seen = false;
  double previous = INFINITY;
  for (const auto& row : j["tornado"]) {
    const bool law = row["group"] == "law";
    CHECK(law == std::string(row["input"]).starts_with("law."));
    if (law && !law_seen) {
      law_seen = true;
      previous = INFINITY;
    }
    CHECK((law || !law_seen));
    if (row["swing"].is_null()) continue;
    CHECK(row["swing"].get<double>() <= previous);
    previous = row["swing"].get<double>();
  }
  CHECK(law_seen);

  const CliRun text = run_cli({"sensitivity", scenario});
  REQUIRE(text.status == 0);
  const std::string& out = text.out;
  const auto law_table = out.find("Tornado: the law's coefficients");
  REQUIRE(law_table != std::string::npos);
  const auto inputs_table = out.find("Tornado: each input");
  REQUIRE(inputs_table < law_table);
  // law.beta is only in the law's table.
  const std::string inputs_part = out.substr(inputs_table, law_table - inputs_table);
  CHECK_THAT(inputs_part, !Catch::Contains("law.beta"));
  CHECK_THAT(out.substr(law_table), Catch::Contains("law.beta"));
  // A share alone cannot move (the shares sum to 1): no row, one note.
  CHECK_THAT(inputs_part, Catch::Contains("n/a either way, left out: problem.shares.pretrain"));
  CHECK_THAT(inputs_part, !Catch::Contains("  problem.shares.pretrain  "));
  CHECK_THAT(out, Catch::Contains("n/a, left out: problem.shares.pretrain"));
}
