// sensitivity on a scenario whose replica size is chosen (inference.chips absent): the size is
// a discrete choice, so it is not an input, and the elasticities hold it where the optimum
// chose it; checked against central differences of our own solves with that size given.

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "cli_runner.hpp"
#include "input_rows.hpp"
#include "llama3_70b_h100_scenario.hpp"
#include "temp_file.hpp"

TEST_CASE("sensitivity holds a chosen replica size and says so", "[sensitivity][fleet][cli]") {
  // Roofline-priced, so the optimum's N moves with the serving price.
  const TempFile scenario("chosen_replica_sensitivity.toml",
                          llama3_70b_h100_scenario("pricing = \"roofline\"\n"));
  const CliRun solved = run_cli({"solve", scenario.path(), "--json"});
  INFO(solved.err);
  REQUIRE(solved.status == 0);
  const double chips = solved.json()["replica_chips"].get<double>();

  const CliRun run = run_cli(
      {"sensitivity", scenario.path(), "--inputs", "inference.usd_per_chip_hour", "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto j = run.json();
  CHECK(j["replica_chips_held"].get<double>() == chips);
  const auto* row = input_row(j["elasticities"], "inference.usd_per_chip_hour");
  REQUIRE(row);

  // d ln N / d ln p by two solves of our own at p (1 -+ h), the size given where it was
  // chosen: the IFT's derivative against a central difference, whose truncation (~h^2, 1e-6)
  // and the solves' own agreement (~1e-12 / h) are both far below 1e-4.
  const double h = 1e-3;
  const auto log_params_at = [&](double scale) {
    const CliRun at = run_cli({"solve", scenario.path(), "--json", "--set",
                               "inference.chips=" + std::to_string(chips), "--set",
                               "inference.usd_per_chip_hour=" + std::to_string(2.0 * scale)});
    INFO(at.err);
    REQUIRE(at.status == 0);
    return std::log(at.json()["params"].get<double>());
  };
  const double secant = (log_params_at(1 + h) - log_params_at(1 - h)) / std::log((1 + h) / (1 - h));
  CHECK(std::fabs(secant) > 0.01);  // N moves: the check is not of a zero
  CHECK((*row)["params"].get<double>() == Approx(secant).epsilon(1e-4));

  // Chosen, inference.chips has no value: not an input to analyse.
  const CliRun chips_input =
      run_cli({"sensitivity", scenario.path(), "--inputs", "inference.chips"});
  CHECK(chips_input.status == 2);
  CHECK(chips_input.out.empty());
  // The text says the size is held.
  const CliRun text = run_cli({"sensitivity", scenario.path(), "--inputs", "inference.*"});
  REQUIRE(text.status == 0);
  CHECK(text.out.find("inference.chips: chosen with N") != std::string::npos);
}
