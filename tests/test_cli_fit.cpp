// scaleopt fit as a user meets it: the Epoch reproduction in JSON, the emitted law read back
// by `optimal --law-file`, the same output at any thread count, and one-line errors.

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "cli_runner.hpp"
#include "fit_test_data.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

std::vector<std::string> epoch_args() {
  return {"fit",           epoch_csv_path(), "--params-col", "Model Size",          "--flops-col",
          "Training FLOP", "--loss-col",     "loss",         "--drop-highest-loss", "5"};
}

// A small CSV of runs from a known law (fast to fit).
std::string synthetic_csv() {
  std::ostringstream csv;
  csv.precision(17);
  csv << "params,tokens,loss\n";
  for (const TrainingRun& run : synthetic_runs(loss_law_preset("epoch2024"), 5, 4, 0.02, 3)) {
    csv << run.params << "," << run.tokens << "," << run.loss << "\n";
  }
  return csv.str();
}

}  // namespace

TEST_CASE("fit --json reproduces Epoch's fit and emits a law that optimal reads", "[cli][fit]") {
  const std::string law_path = temp_path("fitted.toml");
  std::filesystem::remove(law_path);
  const CliRun run = run_cli(
      with(epoch_args(), {"--bootstrap", "200", "--seed", "1", "--emit-law", law_path, "--json"}));
  REQUIRE(run.status == 0);
  const auto json = run.json();
  for (const char* key : {"E", "A", "B", "alpha", "beta", "objective", "runs", "starts_converged",
                          "a", "b", "tokens_per_param_at_1e24_flops", "bootstrap", "law_file"}) {
    CHECK(json.contains(key));
  }
  // Epoch's numbers (tests/test_fit_epoch.cpp explains the tolerances).
  CHECK(std::fabs(json["objective"].get<double>() - 0.0010183) <= 0.5e-7);
  CHECK(std::fabs(json["alpha"].get<double>() - 0.3473) <= 0.5e-4);
  CHECK(std::fabs(json["beta"].get<double>() - 0.3672) <= 0.5e-4);
  CHECK(std::fabs(json["E"].get<double>() - 1.8172) <= 0.5e-4);
  CHECK(std::fabs(json["A"].get<double>() - 477.8) <= 0.05);
  CHECK(json["runs"] == 240);
  CHECK(json["runs_read"] == 245);
  CHECK(json["starts"] == 4500);
  CHECK(json["status"] == "converged");
  CHECK(json["bootstrap"]["replicates"] == 200);

  // Written through a temporary file and a rename: none is left behind.
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
    CHECK_THAT(entry.path().filename().string(),
               !Catch::StartsWith("scaleopt_test_fitted.toml.tmp"));
  }
  // The emitted law: the fitted coefficients exactly, the bootstrap's errors and covariance.
  const LossLaw law = scaleopt::read_law_file(law_path);
  CHECK(law.E == json["E"].get<double>());
  CHECK(law.B == json["B"].get<double>());
  CHECK(law.beta == json["beta"].get<double>());
  REQUIRE(law.uncertainty);
  CHECK(law.uncertainty->standard_errors[1] ==
        json["bootstrap"]["spread"]["A"]["standard_error"].get<double>());
  REQUIRE(law.uncertainty->covariance);
  CHECK((*law.uncertainty->covariance)[2][3] ==
        json["bootstrap"]["covariance"][2][3].get<double>());

  // optimal --law-file solves with it: NLopt's D/N at 1e24 against the fit's closed form.
  const CliRun optimal =
      run_cli({"optimal", "--compute", "1e24", "--law-file", law_path, "--json"});
  // ... and so does a scenario's solve: the law it reports is the fit's, exactly.
  const CliRun solve =
      run_cli({"solve", std::string(SCALEOPT_SOURCE_DIR) + "/examples/sardana_cost.toml",
               "--law-file", law_path, "--json"});
  std::filesystem::remove(law_path);
  INFO(solve.err);
  REQUIRE(solve.status == 0);
  CHECK(solve.json()["law"]["A"].get<double>() == json["A"].get<double>());
  CHECK(solve.json()["law"]["alpha"].get<double>() == json["alpha"].get<double>());
  REQUIRE(optimal.status == 0);
  CHECK(optimal.json()["tokens_per_param"].get<double>() ==
        Approx(json["tokens_per_param_at_1e24_flops"].get<double>()).epsilon(1e-9));
}

TEST_CASE("fit output is the same at any --threads", "[cli][fit]") {
  const TempFile csv("threads.csv", synthetic_csv());
  const std::vector<std::string> args = {"fit",          csv.path(), "--params-col", "params",
                                         "--tokens-col", "tokens",   "--loss-col",   "loss",
                                         "--bootstrap",  "50",       "--json"};
  const CliRun one = run_cli(with(args, {"--threads", "1"}));
  const CliRun three = run_cli(with(args, {"--threads", "3"}));
  INFO(one.err << three.err);
  REQUIRE(one.status == 0);
  REQUIRE(three.status == 0);
  CHECK(one.out == three.out);
  const CliRun other_seed = run_cli(with(args, {"--seed", "2"}));
  CHECK(other_seed.out != one.out);
}

TEST_CASE("the fit table shows coefficients, spreads and how the fit went", "[cli][fit]") {
  const TempFile csv("table.csv", synthetic_csv());
  const std::string law_path = temp_path("no_bootstrap.toml");
  const CliRun run = run_cli({"fit", csv.path(), "--params-col", "params", "--tokens-col", "tokens",
                              "--loss-col", "loss", "--emit-law", law_path});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::StartsWith("L(N, D) = E + A / N^alpha + B / D^beta fitted to"));
  CHECK_THAT(run.out, Catch::Contains("alpha") && Catch::Contains("D/N at 1e24 FLOPs") &&
                          Catch::Contains("of 4500 converged") &&
                          Catch::Contains("[law] without uncertainty"));
  CHECK_THAT(run.out, !Catch::Contains("std error"));
  // Without --bootstrap the emitted law carries no [law.uncertainty].
  CHECK_FALSE(scaleopt::read_law_file(law_path).uncertainty);
  std::filesystem::remove(law_path);

  const CliRun boot = run_cli({"fit", csv.path(), "--params-col", "params", "--tokens-col",
                               "tokens", "--loss-col", "loss", "--bootstrap", "20"});
  REQUIRE(boot.status == 0);
  CHECK_THAT(boot.out, Catch::Contains("std error") && Catch::Contains("10%") &&
                           Catch::Contains("refits converged"));
}

TEST_CASE("fit refuses bad input with one line naming the file, line or flag", "[cli][fit]") {
  const std::vector<std::string> columns = {"--params-col", "N",   "--tokens-col", "D",
                                            "--loss-col",   "loss"};
  auto fit = [&](const std::string& path, const std::vector<std::string>& more = {}) {
    return run_cli(with(with({"fit", path}, columns), more));
  };
  const std::string five =
      "N,D,loss\n1e8,2e9,3.1\n2e8,4e9,2.9\n4e8,8e9,2.7\n8e8,2e10,2.5\n"
      "1.6e9,4e10,2.4\n";
  const TempFile good("five.csv", five);
  const TempFile missing("missing.csv", "N,tokens,loss\n1e8,2e9,3.1\n");
  const TempFile negative("negative.csv", "N,D,loss\n1e8,2e9,3.1\n2e8,-4e9,2.9\n");
  const TempFile text("text.csv", "N,D,loss\n1e8,2e9,three\n");
  const TempFile ragged("ragged.csv", "N,D,loss\n1e8,2e9,3.1\n2e8,4e9\n");
  const TempFile empty("empty.csv", "");
  const TempFile header_only("header_only.csv", "N,D,loss\n");
  const struct {
    CliRun run;
    std::string message;
  } cases[] = {
      {fit(missing.path()), missing.path() + ":1: no column 'D' (named by --tokens-col)"},
      {fit(negative.path()),
       negative.path() + ":3: column 'D' (--tokens-col): must be positive, got -4e+09"},
      {fit(text.path()), text.path() + ":2: column 'loss' (--loss-col): cannot read 'three'"},
      {fit(ragged.path()), ragged.path() + ":3: ragged row: fewer cells"},
      {fit(empty.path()), empty.path() + ":1: empty file"},
      {fit(header_only.path()), header_only.path() + ":1: no data rows after the header"},
      {fit(good.path(), {"--drop-highest-loss", "5"}),
       "--drop-highest-loss: drops 5 of the 5 runs in " + good.path() + ", leaving none to fit"},
      {fit(good.path(), {"--huber-delta", "-1"}), "--huber-delta: must be positive"},
      {fit(good.path(), {"--bootstrap", "1"}), "--bootstrap: must be 0 (none) or at least 2"},
      {fit(good.path(), {"--threads", "-2"}), "--threads: must be from 0 to 1024"},
      {fit(good.path(), {"--seed", "-1"}), "--seed: expected an integer from 0 to 2^64 - 1"},
      {fit(good.path(), {"--emit-law", "no/such/dir/law.toml"}),
       "--emit-law: cannot write no/such/dir/law.toml"},
      {fit("no/such.csv"), "no/such.csv: cannot open the file"},
      {run_cli({"fit", good.path(), "--params-col", "N", "--loss-col", "loss"}),
       "give exactly one of --tokens-col"},
  };
  for (const auto& c : cases) {
    INFO(c.run.err);
    CHECK(is_one_line_error(c.run));
    CHECK_THAT(c.run.err, Catch::StartsWith("scaleopt: error: " + c.message));
  }
  CHECK_FALSE(std::filesystem::exists("no/such/dir/law.toml"));
}
