// The foundation commands (laws, optimal, loss) as a user meets them: tables, JSON, exit
// statuses and one-line errors.

#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "help_examples.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"

using namespace scaleopt;

TEST_CASE("optimal --json prints the documented keys with the library's numbers", "[cli]") {
  const CliRun run = run_cli({"optimal", "--law", "epoch2024", "--compute", "1e24", "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  for (const char* key :
       {"params", "tokens", "compute_flops", "loss", "tokens_per_param", "status"}) {
    CHECK(json.contains(key));
  }
  const Allocation expected = optimal_for_compute({loss_law_preset("epoch2024"), {}}, 1e24);
  CHECK(json["params"].get<double>() == expected.params);
  CHECK(json["tokens"].get<double>() == expected.tokens);
  CHECK(json["status"] == "converged");
  CHECK(json["law"]["name"] == "epoch2024");
}

TEST_CASE("optimal answers the size and loss questions with suffixed numbers", "[cli]") {
  const CliRun by_params = run_cli({"optimal", "--params", "70B", "--json"});
  REQUIRE(by_params.status == 0);
  CHECK(by_params.json()["params"].get<double>() == 70e9);

  const CliRun by_loss = run_cli({"optimal", "--loss", "1.947", "--law", "sardana2024", "--json"});
  REQUIRE(by_loss.status == 0);
  CHECK(by_loss.json()["loss"].get<double>() == Approx(1.947).epsilon(1e-13));

  const CliRun rule =
      run_cli({"optimal", "--compute", "1.2e24", "--tokens-per-param", "20", "--json"});
  REQUIRE(rule.status == 0);
  CHECK(rule.json()["tokens_per_param"].get<double>() == Approx(20.0).epsilon(1e-15));
}

TEST_CASE("the table says which law and rule were assumed", "[cli]") {
  const CliRun run = run_cli({"optimal", "--compute", "5.76e23", "--law", "hoffmann2022"});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("hoffmann2022") && Catch::Contains("3.219e10") &&
                          Catch::Contains("32.2B") && Catch::Contains("92.65") &&
                          Catch::Contains("'20 tokens per parameter' rule"));
}

TEST_CASE("loss --params 70B --tokens 1T --law sardana2024 gives 1.947", "[cli]") {
  const CliRun run =
      run_cli({"loss", "--params", "70B", "--tokens", "1T", "--law", "sardana2024", "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  CHECK(json["loss"].get<double>() == Approx(1.947).margin(5e-4));
  CHECK(json["compute_flops"].get<double>() == Approx(4.2e23).epsilon(1e-15));
  CHECK(json["over_chinchilla"].get<double>() ==
        Approx(1e12 / json["chinchilla_tokens"].get<double>()).epsilon(1e-15));
}

TEST_CASE("laws lists every preset with its source", "[cli]") {
  const CliRun run = run_cli({"laws", "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json()["laws"];
  REQUIRE(json.size() ==
          5);  // hoffmann2022, sardana2024, epoch2024, hoffmann2022-a3, muennighoff2023
  CHECK(json[3]["name"] == "hoffmann2022-a3");
  CHECK(json[4]["name"] == "muennighoff2023");
  for (const auto& law : json) CHECK_FALSE(law["source"].get<std::string>().empty());
  CHECK(run_cli({"laws"}).out.find("Besiroglu") != std::string::npos);
}

TEST_CASE("a solve that does not converge prints its status first, not an optimum", "[cli]") {
  const CliRun run =
      run_cli({"optimal", "--compute", "1e24", "--max-evaluations", "1", "--no-polish"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out,
             Catch::StartsWith("STATUS: not_converged") && Catch::Contains("NOT an optimum"));
  const CliRun json =
      run_cli({"optimal", "--compute", "1e24", "--max-evaluations", "1", "--no-polish", "--json"});
  CHECK(json.status == 1);
  CHECK(json.json()["status"] == "not_converged");
}

TEST_CASE("bad input: one line on stderr, exit 2, nothing on stdout", "[cli]") {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  const Case cases[] = {
      {{"optimal", "--compute", "0"}, "--compute: must be positive, got '0'"},
      {{"optimal", "--compute", "-1e24"}, "--compute: must be positive"},
      {{"optimal", "--compute", "nan"}, "--compute: cannot read 'nan' (not a finite number)"},
      {{"optimal", "--compute", "1e24x"}, "--compute: cannot read '1e24x'"},
      {{"optimal", "--params", "seventy"}, "--params: cannot read 'seventy'"},
      {{"optimal", "--compute", "1e24", "--law", "gpt"}, "unknown loss law 'gpt'"},
      {{"optimal", "--loss", "1.5", "--law", "sardana2024"},
       "at or below the irreducible loss E = 1.69"},
      {{"optimal", "--loss", "1.69", "--law", "sardana2024"}, "lowest reachable loss"},
      {{"optimal"}, "give exactly one of --compute, --budget-usd, --gpu-hours, --params or --loss"},
      {{"optimal", "--compute", "1e24", "--params", "70B"}, "give exactly one of"},
      {{"optimal", "--compute", "1e24", "--alpha", "-0.3"}, "--alpha: must be positive"},
      {{"optimal", "--compute", "1e24", "--tokens-per-param", "0"},
       "--tokens-per-param: must be positive"},
      {{"optimal", "--compute", "1e24", "--algorithm", "LD_MMA"},
       "does not take equality constraints"},
      {{"loss", "--params", "70B"}, "--tokens is required"},
      {{"loss", "--params", "70B", "--tokens", "-1T"}, "--tokens: must be positive"},
      {{"optimal", "--compute", "1e24", "--frobnicate"}, "--frobnicate"},
      {{"frobnicate"}, "unknown command 'frobnicate'"},
      {{}, "A subcommand is required"},
  };
  for (const Case& c : cases) {
    const CliRun run = run_cli(c.args);
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::StartsWith("scaleopt: error: ") && Catch::Contains(c.message));
  }
}

TEST_CASE("--help exits 0 and teaches by example", "[cli]") {
  const CliRun run = run_cli({"optimal", "--help"});
  CHECK(run.status == 0);
  // Every example runs as printed, and one shows the rule of thumb's flag.
  const auto examples = help_examples(run.out, "never written");
  CHECK(examples.size() >= 3);
  for (const auto& args : examples) {
    const CliRun ran = run_cli(args);
    INFO(ran.err);
    CHECK(ran.status == 0);
  }
  CHECK_THAT(run.out,
             Catch::Contains("  scaleopt optimal --compute 5.76e23 --tokens-per-param 20"));
}
