// The experts chosen from a scenario (a joint law, no law.experts): the answer held to the same
// question asked at fixed experts through the path that existed before the experts were a
// variable (law.experts = E: the law reduced at E, the 1-D fast path or NLopt in (N, D)),
// minimised over E by a grid and Brent's method; the dense model beside it held to
// law.experts = 1; the bounds, the refusals and the extrapolation list.

#include <boost/math/tools/minima.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

// The talk's serving (50M tokens/s for two months on 8 x B200 replicas) with the joint law.
const std::string kMoeScenario = R"([law]
preset = "ludziejewski2025"
[architecture]
preset = "frontier-100b"
[training]
hardware = "h100-sxm"
precision = "bf16"
mfu = 0.4
usd_per_chip_hour = "$2/h"
[inference]
hardware = "b200"
chips = 8
precision = "fp8"
context = "32K"
usd_per_chip_hour = "$4/h"
rate = "50M/s"
duration = "2mo"
output_fraction = 0.2
[problem]
kind = "min-lifetime-cost"
target_loss = 1.9
)";

// All the digits of a double, for --set (std::to_string keeps six decimals).
std::string exact(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

QuestionSolution solved(const std::vector<std::string>& overrides) {
  const Scenario scenario = load_scenario_text(kMoeScenario, "moe.toml", overrides);
  return solve_question(scenario_setup(scenario));
}

double usd_of(const QuestionAnswer& answer) {
  return answer.plan.cost.total().usd;
}

// The cheapest fixed-E answer, E in [1, max_experts]: the question solved at law.experts = E
// on a grid of 17 points in ln E, then Brent's method between the best one's neighbours (to
// ~1.5e-8 in ln E: the cost is then off by ~1e-16 at a smooth minimum, ~1e-8 f' at a bound).
struct FixedExpertsBest {
  double experts = 0.0;
  double usd = 0.0;
};
FixedExpertsBest best_fixed_experts(double max_experts, const std::string& target) {
  const auto cost_at = [&](double log_experts) {
    // The law at E, and the total it implies for frontier-100b's 100B active parameters:
    // m(E) = 1 + f (E - 1), f = 2/3 for a preset without a shape.
    const double experts = std::exp(log_experts);
    const double total = 100e9 * (1.0 + 2.0 / 3.0 * (experts - 1.0));
    const QuestionSolution s =
        solved({"law.experts=" + exact(experts), "architecture.total_params=" + exact(total),
                "problem.target_loss=" + target});
    return s.status() == Status::converged ? usd_of(s.answer) : HUGE_VAL;
  };
  constexpr int kGrid = 17;
  const double hi = std::log(max_experts);
  int best = 0;
  double best_usd = HUGE_VAL;
  for (int i = 0; i < kGrid; ++i) {
    const double usd = cost_at(hi * i / (kGrid - 1));
    if (usd < best_usd) best_usd = usd, best = i;
  }
  const double lo_x = hi * std::max(0, best - 1) / (kGrid - 1);
  const double hi_x = hi * std::min(kGrid - 1, best + 1) / (kGrid - 1);
  std::uintmax_t iterations = 200;
  auto [x, usd] = boost::math::tools::brent_find_minima(cost_at, lo_x, hi_x, 26, iterations);
  // Brent's method stops at ~1.5e-8 in ln E, where a corner of the profile (the batch changing
  // bound) still slopes by ~f' 1e-8: ternary steps on 1e-6 around it compare values only and
  // shrink the bracket to ~1e-14 (60 steps of 2/3).
  double a = std::max(lo_x, x - 5e-7), b = std::min(hi_x, x + 5e-7);
  for (int step = 0; step < 60; ++step) {
    const double third = (b - a) / 3.0;
    if (cost_at(a + third) <= cost_at(b - third)) {
      b -= third;
    } else {
      a += third;
    }
  }
  if (cost_at(0.5 * (a + b)) < usd) x = 0.5 * (a + b), usd = cost_at(x);
  return usd < best_usd ? FixedExpertsBest{std::exp(x), usd}
                        : FixedExpertsBest{std::exp(hi * best / (kGrid - 1)), best_usd};
}

}  // namespace

TEST_CASE("experts chosen from a scenario: the optimum over E of the fixed-E questions",
          "[experts][scenario]") {
  // 1.9 with E <= 32: at the bound (more experts would still save); 1.8 with E <= 64: interior.
  for (const auto& [target, max_experts] : {std::pair{"1.9", 32.0}, std::pair{"1.8", 64.0}}) {
    INFO("target " << target << ", max_experts " << max_experts);
    const QuestionSolution s = solved({"problem.target_loss=" + std::string(target),
                                       "problem.max_experts=" + std::to_string(max_experts)});
    REQUIRE(s.status() == Status::converged);
    REQUIRE(s.answer.experts);
    const FixedExpertsBest reference = best_fixed_experts(max_experts, target);
    // Relative in cost; see best_fixed_experts for the reference's accuracy.
    CHECK(usd_of(s.answer) == Approx(reference.usd).epsilon(1e-9));
    CHECK(usd_of(s.answer) <= reference.usd * (1.0 + 1e-12));
    // E itself only to the cost's flatness: ~sqrt(1e-16 / f'') in ln E at an interior optimum.
    CHECK(*s.answer.experts == Approx(reference.experts).epsilon(1e-3));
    // The total follows E by m(E) = 1 - f + f E, f = 2/3 for a preset without a shape.
    CHECK(s.answer.total_params ==
          Approx(s.answer.active_params * (1.0 + 2.0 / 3.0 * (*s.answer.experts - 1.0)))
              .epsilon(1e-12));
  }
}

TEST_CASE("experts chosen: the dense model beside it is the law's own dense answer",
          "[experts][scenario]") {
  const QuestionSolution s = solved({});
  REQUIRE(s.status() == Status::converged);
  REQUIRE(s.dense);
  REQUIRE(s.dense->plan.solve.converged());
  // The same question at law.experts = 1, through the fixed-law path.
  const QuestionSolution dense = solved({"law.experts=1"});
  REQUIRE(dense.status() == Status::converged);
  CHECK_FALSE(dense.answer.experts);
  CHECK(s.dense->active_params == Approx(dense.answer.active_params).epsilon(1e-9));
  CHECK(s.dense->plan.pretrain_tokens == Approx(dense.answer.plan.pretrain_tokens).epsilon(1e-9));
  CHECK(usd_of(*s.dense) == Approx(usd_of(dense.answer)).epsilon(1e-9));
  CHECK(s.dense->total_params == s.dense->active_params);
  // At the same loss the mixture of experts is cheaper here, or the optimiser would be wrong.
  CHECK(s.dense->plan.loss == Approx(s.answer.plan.loss).epsilon(1e-12));
  CHECK(usd_of(s.answer) < usd_of(*s.dense));
}

TEST_CASE("experts chosen: equal bounds are a fixed sparsity, as law.experts is",
          "[experts][scenario]") {
  const QuestionSolution bounded = solved({"problem.min_experts=8", "problem.max_experts=8"});
  // The same model through the fixed path: the law at 8 experts and the total/active ratio
  // m(8) = 1 + (2/3) 7 of frontier-100b's 100B active parameters.
  const double total = 100e9 * (1.0 + 2.0 / 3.0 * 7.0);
  const QuestionSolution fixed =
      solved({"law.experts=8", "architecture.total_params=" + exact(total)});
  REQUIRE(bounded.status() == Status::converged);
  REQUIRE(fixed.status() == Status::converged);
  CHECK(*bounded.answer.experts == Approx(8.0).epsilon(1e-15));
  CHECK_FALSE(fixed.answer.experts);
  CHECK(bounded.answer.active_params == Approx(fixed.answer.active_params).epsilon(1e-9));
  CHECK(bounded.answer.total_params == Approx(fixed.answer.total_params).epsilon(1e-9));
  CHECK(usd_of(bounded.answer) == Approx(usd_of(fixed.answer)).epsilon(1e-9));
}

TEST_CASE("experts chosen: the bounds are refused where nothing is chosen", "[experts][scenario]") {
  const auto error_of = [](const std::string& text, const std::vector<std::string>& overrides) {
    try {
      (void)load_scenario_text(text, "moe.toml", overrides);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string dense_law = kMoeScenario;
  dense_law.replace(dense_law.find("ludziejewski2025"), 16, "epoch2024");
  CHECK_THAT(error_of(dense_law, {"problem.max_experts=16"}),
             Catch::StartsWith("moe.toml: problem.max_experts: bounds the experts of a joint"));
  CHECK_THAT(error_of(kMoeScenario, {"law.experts=8", "problem.min_experts=2"}),
             Catch::Contains("problem.min_experts: law.experts fixes the experts"));
  CHECK_THAT(error_of(kMoeScenario, {"problem.min_experts=0.5"}),
             Catch::Contains("problem.min_experts"));
  // Repeated data: the repetition law is fitted at one E.
  const Scenario limited = load_scenario_text(kMoeScenario, "moe.toml", {"data.unique_tokens=1T"});
  CHECK_THROWS_WITH(scenario_setup(limited).terms(), Catch::StartsWith("data.unique_tokens"));
  // Through the command: one line, exit 2.
  const TempFile file("experts_refused.toml", dense_law);
  const CliRun run = run_cli({"solve", file.path(), "--set", "problem.min_experts=2"});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("problem.min_experts: bounds the experts"));
}

TEST_CASE("experts chosen: extrapolated lists the experts exactly beyond the law's 32",
          "[experts][scenario][law_reach]") {
  const TempFile file("experts_reach.toml", kMoeScenario);
  const auto experts_listed = [&](const std::string& max_experts) {
    const CliRun run =
        run_cli({"solve", file.path(), "--json", "--set", "problem.max_experts=" + max_experts,
                 "--set", "problem.target_loss=2.2"});
    REQUIRE(run.status == 0);
    const nlohmann::json json = nlohmann::json::parse(run.out);
    REQUIRE(json.at("status") == "converged");
    int listed = 0;
    for (const nlohmann::json& entry : json.at("extrapolated")) {
      if (entry.at("quantity") == "experts") {
        ++listed;
        // At the bound of 64: twice the runs' largest E.
        CHECK(entry.at("value").get<double>() == Approx(64.0).epsilon(1e-9));
        CHECK(entry.at("factor").get<double>() == Approx(2.0).epsilon(1e-9));
      }
    }
    CHECK(json.at("experts").get<double>() == Approx(std::stod(max_experts)).epsilon(1e-9));
    // The total the experts imply, against the runs' largest (5.0B, App. E): listed exactly
    // when above it.
    const double total = json.at("params").get<double>();
    int totals = 0;
    for (const nlohmann::json& entry : json.at("extrapolated")) {
      if (entry.at("quantity") != "total_params") continue;
      ++totals;
      CHECK(entry.at("value").get<double>() == total);
      CHECK(entry.at("factor").get<double>() == Approx(total / 5.0e9).epsilon(1e-12));
    }
    CHECK(totals == (total > 5.0e9 ? 1 : 0));
    CHECK(json.at("dense").at("experts").get<double>() == 1.0);
    return listed;
  };
  CHECK(experts_listed("64") == 1);
  CHECK(experts_listed("16") == 0);
}

TEST_CASE("experts chosen: the text shows total and active parameters and the dense column",
          "[experts][scenario][cli]") {
  const TempFile file("experts_text.toml", kMoeScenario);
  const CliRun run = run_cli({"solve", file.path()});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("params (active)"));
  CHECK_THAT(run.out, Catch::Contains("params (total)"));
  CHECK_THAT(run.out, Catch::Contains("experts (chosen)"));
  CHECK_THAT(run.out, Catch::Contains("dense (E = 1), same loss"));
  CHECK_THAT(run.out, Catch::Contains("inference per output token"));
  CHECK_THAT(run.out, Catch::Contains("experts chosen by the optimiser"));
  CHECK_THAT(run.out, Catch::Contains("at 32 experts"));
}

TEST_CASE(
    "examples/frontier_moe.toml: the replica chosen, the experts at their bound, the dense "
    "model of the same loss beside it",
    "[experts][scenario][example]") {
  const Scenario scenario = load_scenario(example("frontier_moe.toml"));
  CHECK(scenario.warnings.empty());
  const QuestionSolution s = solve_question(scenario_setup(scenario));
  REQUIRE(s.status() == Status::converged);
  // More experts would still save (the cost falls towards the bound): the law's largest E.
  CHECK(*s.answer.experts == Approx(32.0).epsilon(1e-9));
  REQUIRE(s.answer.fleet);
  CHECK(s.answer.fleet->replica_chosen);
  // The dense model beside it, against the question at law.experts = 1 (the fast path over the
  // replica sizes).
  REQUIRE(s.dense);
  const Scenario dense_scenario = load_scenario(example("frontier_moe.toml"), {"law.experts=1"});
  const QuestionSolution dense = solve_question(scenario_setup(dense_scenario));
  REQUIRE(dense.status() == Status::converged);
  CHECK(s.dense->active_params == Approx(dense.answer.active_params).epsilon(1e-9));
  CHECK(usd_of(*s.dense) == Approx(usd_of(dense.answer)).epsilon(1e-9));
  CHECK(s.dense->fleet->replica_chips == dense.answer.fleet->replica_chips);
  // The target is the loss of a Chinchilla-style dense 100B model: both reach it.
  CHECK(s.answer.plan.loss == Approx(s.target_loss).epsilon(1e-12));
  CHECK(s.dense->plan.loss == Approx(s.target_loss).epsilon(1e-12));
  CHECK(usd_of(s.answer) < usd_of(*s.dense));
}
