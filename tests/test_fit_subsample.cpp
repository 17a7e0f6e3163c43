// Fits of many runs: the starts on a subsample, the best optima refined on every run
// (FitOptions::subsample_runs), with progress. 4,500 starts on 10^6 runs ran for 900 s without
// a word; the subsample fit must still find the optimum the full grid finds.

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "fit_test_data.hpp"

using namespace scaleopt;

namespace {

std::array<double, 5> subsample_law_coefficients(const LossLaw& law) {
  return {law.E, law.A, law.B, law.alpha, law.beta};
}

}  // namespace

TEST_CASE("fit: the starts on a subsample, refined on every run, find the full grid's optimum",
          "[fit][subsample]") {
  const std::vector<TrainingRun> runs = epoch_runs();
  // The reference: every start on every run (Epoch's numbers, tests/test_fit_epoch.cpp).
  FitOptions full;
  std::atomic<std::size_t> full_steps{0};
  full.progress = [&](std::size_t n) { full_steps += n; };
  const FitResult reference = fit_scaling_law(runs, full);
  REQUIRE(reference.converged());
  CHECK(reference.subsample_runs == 0);
  CHECK(full_steps == fit_steps(runs.size(), full));
  CHECK(full_steps == 4500);

  FitOptions options;
  options.subsample_runs = 60;  // a quarter of the 240 runs
  std::atomic<std::size_t> steps{0};
  options.progress = [&](std::size_t n) { steps += n; };
  const FitResult fit = fit_scaling_law(runs, options);
  INFO(fit.message);
  REQUIRE(fit.converged());
  CHECK(fit.runs == 240);
  CHECK(fit.subsample_runs == 60);
  CHECK(fit.refined_starts >= 1);
  CHECK(fit.refined_starts <= options.refined_starts);
  CHECK(steps == fit_steps(runs.size(), options));
  CHECK(steps == 4500 + options.refined_starts);
  CHECK_THAT(fit.message, Catch::Contains("on a subsample of 60 of the 240 runs"));
  // The same optimum: refined on every run, L-BFGS stops at a relative gradient ~1e-10 of its
  // scale, where the objective is flat to ~1e-12 relative; B, the flattest direction, moves
  // most (tests/test_fit_epoch.cpp), so 1e-5 relative bounds all five with room.
  const auto expected = subsample_law_coefficients(reference.law);
  const auto found = subsample_law_coefficients(fit.law);
  for (std::size_t i = 0; i < 5; ++i) {
    INFO(kLawCoefficientNames[i]);
    CHECK(found[i] == Approx(expected[i]).epsilon(1e-5));
  }
  CHECK(fit.objective == Approx(reference.objective).epsilon(1e-9));
}

TEST_CASE("fit: a subsample that cannot determine the law leaves the starts to every run",
          "[fit][subsample]") {
  // 100 runs of one model size and 2 of each of two more: every run of a 5-run subsample,
  // evenly spaced by N, has the first size, which cannot separate E, A and alpha.
  const LossLaw law = loss_law_preset("hoffmann2022");
  std::vector<TrainingRun> runs;
  for (int i = 0; i < 100; ++i) {
    const double tokens = 1e8 * 2.0 * std::pow(50.0, i / 99.0);
    runs.push_back({1e8, tokens, law.loss(1e8, tokens)});
  }
  for (const double params : {1e9, 1e10}) {
    for (const double ratio : {3.0, 30.0})
      runs.push_back({params, ratio * params, law.loss(params, ratio * params)});
  }
  FitOptions options;
  options.subsample_runs = 5;
  const FitResult fit = fit_scaling_law(runs, options);
  CHECK(fit.status != Status::not_identifiable);
  CHECK(fit.subsample_runs == 0);
  CHECK(fit.refined_starts == 0);
  CHECK(fit.starts == 4500);
  CHECK(fit.runs == 104);
}

TEST_CASE("fit --subsample-runs: the note on stderr, the JSON's keys, bad values refused",
          "[cli][fit][subsample]") {
  const std::vector<std::string> epoch = {"fit",        epoch_csv_path(), "--params-col",
                                          "Model Size", "--flops-col",    "Training FLOP",
                                          "--loss-col", "loss",           "--drop-highest-loss",
                                          "5",          "--json"};
  const CliRun run = run_cli(with(epoch, {"--subsample-runs", "60"}));
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.err ==
        "scaleopt: note: fitting 240 runs: the 4500 starts on 60 of them (evenly spaced by N and "
        "D), the best 8 optima refined on every run\n");
  const auto json = run.json();
  CHECK(json["subsample_runs"] == 60);
  CHECK(json["refined_starts"].get<int>() >= 1);
  CHECK(std::fabs(json["alpha"].get<double>() - 0.3473) <= 0.5e-4);  // Epoch's, as the full fit
  // Up to the default (1,000 runs) every start runs on every run, and nothing is noted.
  const CliRun plain = run_cli(with(epoch, {"--threads", "2"}));
  REQUIRE(plain.status == 0);
  CHECK(plain.err.empty());
  CHECK(plain.json()["subsample_runs"] == 0);
  const CliRun bad = run_cli(with(epoch, {"--subsample-runs", "3"}));
  CHECK(is_one_line_error(bad));
  CHECK_THAT(bad.err,
             Catch::Contains("--subsample-runs: 0 (every start on every run) or at least 5"));
}
