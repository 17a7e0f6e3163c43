// The stress run (scaleopt selftest, docs/reliability.md): random valid problems solved by
// NLopt and by an independent method must agree, unreachable ones must be infeasible for both,
// the run must not depend on the thread count, and a failing instance must be reproducible
// from the file it is printed as.

#include <catch2/catch.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "scaleopt/analysis/stress_check.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/report/stress_reproduction.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

StressSummary run(std::uint64_t instances, std::uint64_t seed, unsigned threads = 0) {
  StressRunOptions options;
  options.instances = instances;
  options.seed = seed;
  options.threads = threads;
  return run_stress(options);
}

std::uint64_t count(const StressClassSummary& c, StressOutcome outcome) {
  return c.counts[static_cast<std::size_t>(outcome)];
}

}  // namespace

TEST_CASE("stress: 2,000 random problems, none disagreed or failed", "[stress]") {
  const StressSummary summary = run(2000, 1);
  for (const StressFailure& f : summary.failures) {
    INFO(f.index << " " << to_string(f.kind) << " " << to_string(f.outcome) << ": " << f.message
                 << "\n"
                 << report::stress_reproduction(stress_instance(1, f.index)));
    CHECK(false);
  }
  CHECK(summary.count(StressOutcome::disagreed) == 0);
  CHECK(summary.count(StressOutcome::failed) == 0);
  CHECK(summary.count(StressOutcome::agreed) + summary.count(StressOutcome::infeasible) == 2000);
  // Every class is exercised and agrees on most instances; the loss-target classes also meet
  // unreachable targets (one draw in ten), which both methods report infeasible.
  for (int k = 0; k < kStressClassCount; ++k) {
    const StressClassSummary& c = summary.by_class[static_cast<std::size_t>(k)];
    INFO(to_string(static_cast<StressClass>(k)));
    const std::uint64_t instances =
        count(c, StressOutcome::agreed) + count(c, StressOutcome::infeasible);
    CHECK(instances >= 2000 / kStressClassCount);
    // Half agreed at least: the roofline classes, the most often infeasible, agree on about
    // two thirds (the 100,000-instance run in docs/reliability.md).
    CHECK(2 * count(c, StressOutcome::agreed) > instances);
    CHECK(c.largest_difference <= 1e-8);
  }
  CHECK(count(summary.by_class[static_cast<std::size_t>(StressClass::compute_at_loss)],
              StressOutcome::infeasible) > 10);
  CHECK(count(summary.by_class[static_cast<std::size_t>(StressClass::min_lifetime)],
              StressOutcome::infeasible) > 10);
  CHECK(count(summary.by_class[static_cast<std::size_t>(StressClass::max_quality)],
              StressOutcome::infeasible) > 0);
  // The fast path (Newton on the 1-D reduction: costs linear in N, or the roofline's closed
  // form) is held to the same reference on the lifecycle classes, and only there.
  for (const StressClass kind :
       {StressClass::min_lifetime, StressClass::max_quality, StressClass::equal_cost,
        StressClass::roofline_min_lifetime, StressClass::roofline_max_quality,
        StressClass::roofline_equal_cost, StressClass::fleet}) {
    INFO(to_string(kind));
    // Of about 180 a class: the classes above on every instance, the fleet on about three in
    // four (where the fast path's closed form applies to the chosen replica's cost).
    CHECK(summary.by_class[static_cast<std::size_t>(kind)].fast_path_checked > 120);
  }
  CHECK(summary.by_class[static_cast<std::size_t>(StressClass::compute_at_budget)]
            .fast_path_checked == 0);
}

TEST_CASE("stress: the same seed gives the same run at 1 and 2 threads", "[stress]") {
  const StressSummary one = run(150, 7, 1);
  const StressSummary two = run(150, 7, 2);
  CHECK(one.counts == two.counts);
  CHECK(one.largest_difference == two.largest_difference);
  for (int k = 0; k < kStressClassCount; ++k) {
    const auto i = static_cast<std::size_t>(k);
    CHECK(one.by_class[i].counts == two.by_class[i].counts);
    CHECK(one.by_class[i].largest_difference == two.by_class[i].largest_difference);
    CHECK(one.by_class[i].fast_path_checked == two.by_class[i].fast_path_checked);
  }
  // Instances themselves depend on (seed, index) only.
  const StressInstance a = stress_instance(7, 42), b = stress_instance(7, 42);
  CHECK(report::stress_reproduction(a) == report::stress_reproduction(b));
  CHECK(report::stress_reproduction(a) != report::stress_reproduction(stress_instance(8, 42)));
}

TEST_CASE("stress: the checker can fail", "[stress]") {
  // A tolerance no floating-point answer meets turns agreement into disagreement: the
  // comparison is real. (Closed forms can match NLopt exactly, hence "most".)
  StressCheckOptions strict;
  strict.tolerance = 1e-300;
  int disagreed = 0;
  for (std::uint64_t i = 0; i < 20; ++i) {
    const StressInstance instance = stress_instance(1, i);
    if (instance.drawn_unreachable) continue;
    disagreed += check_stress_instance(instance, strict).outcome == StressOutcome::disagreed;
  }
  CHECK(disagreed >= 10);

  // A target below E is infeasible for both methods; claimed otherwise, it would disagree.
  StressInstance below = stress_instance(1, 1);
  REQUIRE(below.kind == StressClass::compute_at_loss);
  below.target_loss = below.law.E - 0.01;
  CHECK(check_stress_instance(below).outcome == StressOutcome::infeasible);
  below.target_loss = below.law.E * (1.0 + 1e-13);  // within 1e-12 of E: beyond 1e30 parameters
  CHECK(check_stress_instance(below).outcome == StressOutcome::infeasible);
}

TEST_CASE("stress: a lifecycle instance's reproduction solves to the same plan", "[stress]") {
  // Every field is written with 17 digits, so `scaleopt solve` on the file meets the very
  // instance that was checked: the same plan, bit for bit.
  for (std::uint64_t i = 2; i < 60; ++i) {
    const StressInstance instance = stress_instance(3, i);
    if (instance.kind == StressClass::compute_at_budget ||
        instance.kind == StressClass::compute_at_loss) {
      continue;
    }
    const std::string text = report::stress_reproduction(instance);
    INFO(text);
    const scaleopt::Scenario scenario = scaleopt::load_scenario_text(text, "instance.toml");
    REQUIRE(scenario.law);
    const QuestionSolution direct = solve_question(instance.inputs, instance.law, instance.problem);
    const QuestionSolution loaded = solve_question(scenario, *scenario.law, scenario.problem);
    CHECK(loaded.status() == direct.status());
    CHECK(loaded.answer.plan.params == direct.answer.plan.params);
    CHECK(loaded.answer.plan.pretrain_tokens == direct.answer.plan.pretrain_tokens);
    CHECK(loaded.answer.plan.cost.total().usd == direct.answer.plan.cost.total().usd);
  }
}

TEST_CASE("stress: a compute-optimal instance's reproduction is an optimal command", "[stress]") {
  const std::string text = report::stress_reproduction(stress_instance(1, 0));
  const auto at = text.find("scaleopt optimal --compute ");
  REQUIRE(at != std::string::npos);
  std::vector<std::string> args;
  std::istringstream words(text.substr(at + std::string("scaleopt ").size()));
  for (std::string word; words >> word;) args.push_back(word);
  args.push_back("--json");
  const CliRun run = run_cli(args);
  REQUIRE(run.status == 0);
  const auto json = run.json();
  const Allocation expected = optimal_for_compute({stress_instance(1, 0).law, std::nullopt},
                                                  stress_instance(1, 0).compute_flops);
  CHECK(json["params"].get<double>() == expected.params);
  CHECK(json["law"]["name"] == "custom");
}

TEST_CASE("scaleopt selftest --json: the counts and nothing failed", "[stress][cli]") {
  const CliRun run = run_cli({"selftest", "--instances", "40", "--seed", "2", "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto json = run.json();
  for (const char* key :
       {"instances", "agreed", "infeasible", "disagreed", "failed", "fast_path_checked"}) {
    INFO(key);
    CHECK(json.contains(key));
  }
  CHECK(json["instances"] == 40);
  CHECK(json["agreed"].get<int>() + json["infeasible"].get<int>() == 40);
  CHECK(json["disagreed"] == 0);
  CHECK(json["failed"] == 0);
  CHECK(json["failures"].empty());
}

TEST_CASE("scaleopt selftest: bad counts and seeds are one-line errors", "[stress][cli]") {
  CHECK(is_one_line_error(run_cli({"selftest", "--instances", "0"})));
  CHECK(is_one_line_error(run_cli({"selftest", "--instances", "2.5"})));
  CHECK(is_one_line_error(run_cli({"selftest", "--instances", "1e12"})));
  CHECK(is_one_line_error(run_cli({"selftest", "--seed", "-1"})));
  CHECK(is_one_line_error(run_cli({"selftest", "--threads", "-2"})));
}
