// What is never printed as an answer: a solve whose independent check disagrees, a plan pinned
// on a bound of the search that no user set, a target every model reaches; and overflow
// messages that name the input to change.

#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"

using namespace scaleopt;

TEST_CASE("a reference disagreement above its tolerance is not converged, whatever the inputs",
          "[verdicts]") {
  // sardana_cost's NLopt answer and its 1-D reduction agree to ~1e-14 (ordinary inputs): at the
  // default tolerance (1e-8) that is agreement, at 1e-17 it is a disagreement.
  const CliRun agreed =
      run_cli({"solve", example("sardana_cost.toml"), "--json", "--method", "nlopt"});
  REQUIRE(agreed.status == 0);
  const double difference = agreed.json()["reference_relative_difference"].get<double>();
  CHECK(difference > 1e-17);
  CHECK(difference < 1e-8);
  const CliRun strict = run_cli({"solve", example("sardana_cost.toml"), "--json", "--method",
                                 "nlopt", "--reference-tolerance", "1e-17"});
  CHECK(strict.status != 0);
  const auto j = strict.json();
  CHECK(j["status"] == "not_converged");
  CHECK_THAT(j["message"].get<std::string>(),
             Catch::Contains("disagree") && Catch::Contains("above the reference tolerance 1e-17"));
  // The library's own verdict, on a plain law in FLOPs (Sardana et al.'s check).
  SolverOptions options;
  options.reference_tolerance = 1e-300;
  const LifetimePlan plan = min_lifetime_cost_at_loss(
      loss_law_preset("sardana2024"), 1.947, flops_cost_model(2e12), CostUnit::flops, options);
  CHECK(plan.solve.status == Status::not_converged);
  CHECK(plan.reference_relative_difference > 0.0);
}

TEST_CASE("solve refuses a reference tolerance outside (0, 1)", "[verdicts]") {
  for (const char* bad : {"0", "-1e-9", "1", "nan", "x"}) {
    INFO(bad);
    CHECK(is_one_line_error(
        run_cli({"solve", example("sardana_cost.toml"), "--reference-tolerance", bad})));
  }
}

TEST_CASE("an optimum at N = 1, a bound no user set, is no answer", "[verdicts]") {
  // alpha = 1e-300: the parameter term no longer falls with N, so the "best" model is the
  // smallest the search allows.
  const CliRun run = run_cli({"optimal", "--compute", "1e24", "--alpha", "1e-300"});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("parameters fall to 1") && Catch::Contains("no optimum"));
}

TEST_CASE("a target every model reaches is refused as such, not as 'serves at most inf'",
          "[verdicts]") {
  // L(1 parameter, 1 token) = E + A + B = 1.69 + 406.4 + 410.7 under sardana2024.
  const CliRun run =
      run_cli({"solve", example("sardana_cost.toml"), "--set", "problem.target_loss=1000"});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("every model reaches it") && Catch::Contains("818.79"));
  CHECK_THAT(run.err, !Catch::Contains("at most inf"));
}

TEST_CASE("an overflow from ordinary inputs names them", "[verdicts]") {
  // alpha = 50 is not beyond 1e30, but 70e9^50 is beyond double precision.
  const CliRun run = run_cli(
      {"loss", "--params", "70B", "--tokens", "1T", "--law", "sardana2024", "--alpha", "50"});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("law alpha = 50") && Catch::Contains("--params = 7e+10"));
}
