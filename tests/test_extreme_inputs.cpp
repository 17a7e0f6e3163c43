// Infeasible and extreme inputs through `solve` and `optimal` (docs/reliability.md): a target
// within 1e-12 of E, 1e20 tokens of demand, efficiencies of 1e-3 (the least the scenario accepts),
// no RL, budgets from $1e-300 to $1e300, computes outside what N and D can use. Each gives a clean
// status: an answer whose table prints no nan or inf and whose JSON parses with finite figures, or
// a one-line error with exit status 2 and nothing on stdout.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "fuzz/non_finite_text.hpp"

namespace {

// Figures an answer must give as numbers (never null, so never NaN or infinity).
void check_finite(const nlohmann::json& json, const std::vector<const char*>& keys) {
  for (const char* key : keys) {
    INFO(key);
    REQUIRE(json.contains(key));
    REQUIRE(json[key].is_number());
    CHECK(std::isfinite(json[key].get<double>()));
  }
}

// Runs `args` as a table and as JSON; both exit with `status`. Answers print no non-finite
// number and parse as JSON; errors are one line on stderr with nothing on stdout (after the
// scenario's warnings, when the overrides leave keys the problem ignores).
nlohmann::json check_clean(const std::vector<std::string>& args, int status) {
  const CliRun table = without_warnings(run_cli(args));
  const CliRun json = without_warnings(run_cli(with(args, {"--json"})));
  INFO(table.err << json.err);
  REQUIRE(table.status == status);
  REQUIRE(json.status == status);
  if (status == 2) {
    CHECK(is_one_line_error(table));
    CHECK(is_one_line_error(json));
    return nullptr;
  }
  INFO(table.out);
  CHECK_FALSE(scaleopt::fuzz::prints_non_finite(table.out));
  REQUIRE(nlohmann::json::accept(json.out));
  return json.json();
}

// By NLopt, which these tests hold to its independent reduction (the fast path is held to NLopt
// on the same inputs below).
std::vector<std::string> solve(const char* name, std::vector<std::string> sets) {
  std::vector<std::string> args{"solve", example(name), "--method", "nlopt"};
  for (const std::string& set : sets) {
    args.push_back("--set");
    args.push_back(set);
  }
  return args;
}

const std::vector<const char*> kPlanFigures = {"params", "pretrain_tokens", "loss",
                                               "over_chinchilla", "chinchilla_tokens"};

}  // namespace

TEST_CASE("extreme: a target within 1e-12 of E is infeasible, and says so with its digits",
          "[extreme]") {
  // sardana2024: E = 1.69. Above E by 1.7e-12 the frontier needs more than 1e30 parameters.
  for (const char* target : {"1.6900000000017", "1.6899999999983", "1.69"}) {
    INFO(target);
    check_clean(solve("sardana_compute.toml", {std::string("problem.target_loss=") + target}), 2);
    check_clean({"optimal", "--loss", target, "--law", "sardana2024"}, 2);
  }
  const CliRun run =
      run_cli(solve("sardana_compute.toml", {"problem.target_loss=1.6900000000017"}));
  CHECK_THAT(run.err, Catch::Contains("1.6900000000017") && Catch::Contains("1e30"));
}

TEST_CASE("extreme: 1e20 tokens of demand", "[extreme]") {
  auto j = check_clean(solve("sardana_compute.toml", {"inference.tokens=1e20"}), 0);
  check_finite(j, kPlanFigures);
  CHECK(j["status"] == "converged");
  CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
  CHECK(j["inference_tokens"].get<double>() == 1e20);
  // In dollars, 8e16 requests of 1,250 tokens; and the talk's heuristic at 1.9e13 tokens/s.
  j = check_clean(solve("sardana_cost.toml", {"inference.requests=8e16"}), 0);
  check_finite(j, kPlanFigures);
  CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
  j = check_clean(solve("frontier_100x.toml", {"inference.rate=1.9e13/s"}), 0);
  check_finite(j["optimum"], kPlanFigures);
  CHECK(j["optimum"]["reference_relative_difference"].get<double>() < 1e-8);
  // A budget cannot serve it.
  check_clean(solve("budget_plan.toml", {"inference.rate=3.17e12/s"}), 2);
}

TEST_CASE("extreme: efficiencies of 1e-3", "[extreme]") {
  auto j = check_clean(
      solve("sardana_cost.toml",
            {"training.mfu=1e-3", "inference.prefill_mfu=1e-3", "inference.decode_mfu=1e-3"}),
      0);
  check_finite(j, kPlanFigures);
  CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
  // By the roofline: $100M no longer serves 5M tokens/s for a year.
  check_clean(
      solve("budget_plan.toml", {"inference.compute_efficiency=1e-3",
                                 "inference.bandwidth_efficiency=1e-3", "training.mfu=1e-3"}),
      2);
  j = check_clean(solve("budget_plan.toml",
                        {"inference.compute_efficiency=1e-3", "inference.bandwidth_efficiency=1e-3",
                         "training.mfu=1e-3", "problem.budget_usd=1e15"}),
                  0);
  check_finite(j, kPlanFigures);
  j = check_clean({"cost", example("frontier.toml"), "--set", "inference.compute_efficiency=1e-3",
                   "--set", "inference.bandwidth_efficiency=1e-3", "--set", "training.mfu=1e-3"},
                  0);
  CHECK(std::isfinite(j["total"]["usd"].get<double>()));
}

TEST_CASE("extreme: no RL", "[extreme]") {
  auto j = check_clean(
      solve("frontier_100x.toml",
            {"problem.shares.rl=0", "problem.shares.pretrain=0.5", "problem.shares.inference=0.5"}),
      0);
  CHECK(j["rl_tokens"].get<double>() == 0.0);
  check_finite(j["optimum"], kPlanFigures);
  j = check_clean(solve("frontier_100x.toml", {"rl.rollout_tokens=0"}), 0);
  check_finite(j["optimum"], kPlanFigures);
}

TEST_CASE("extreme: budgets from $1e-300 to $1e300", "[extreme]") {
  check_clean(solve("budget_plan.toml", {"problem.budget_usd=1e-300"}), 2);
  check_clean(solve("budget_plan.toml", {"problem.budget_usd=1"}), 2);
  // Beyond what 1e30 tokens cost, D stops at its bound: the best plan lies beyond the range
  // the model covers, so the question is infeasible (docs/reliability.md, "Hostile input").
  for (const char* budget : {"problem.budget_usd=1e30", "problem.budget_usd=1e300"}) {
    INFO(budget);
    check_clean(solve("budget_plan.toml", {budget}), 2);
    CHECK_THAT(run_cli(solve("budget_plan.toml", {budget})).err,
               Catch::Contains("infeasible: the plan's pretraining tokens reach 1e30"));
  }
}

TEST_CASE("extreme: a model the replica cannot serve makes the target infeasible for both methods",
          "[extreme]") {
  // One H100 holds 77B fp8 parameters beside an 8K cache; loss 1.85 needs 958B. The file's
  // budget has no part in min-lifetime-cost: a warning names it first.
  const auto args = solve("budget_plan.toml", {"problem.kind=min-lifetime-cost",
                                               "problem.target_loss=1.85", "inference.chips=1"});
  check_clean(args, 2);
  CHECK_THAT(run_cli(args).err,
             Catch::StartsWith("scaleopt: warning: problem.budget_usd is ignored by "
                               "min-lifetime-cost\n"));
  CHECK_THAT(run_cli(args).err, Catch::Contains("the setup serves at most"));
  const auto j = check_clean(
      solve("budget_plan.toml",
            {"problem.kind=min-lifetime-cost", "problem.target_loss=1.9", "inference.chips=1"}),
      0);
  CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
}

TEST_CASE("extreme: computes outside 6 to 6e60 FLOPs are infeasible; the ends are answered",
          "[extreme]") {
  check_clean({"optimal", "--compute", "1e-10"}, 2);
  check_clean({"optimal", "--compute", "1e300"}, 2);
  // At 6 FLOPs the only feasible point is N = D = 1, where more constraints bind than there
  // are variables: the least-squares multipliers cannot verify it, and it is labelled so.
  const auto degenerate = check_clean({"optimal", "--compute", "6"}, 1);
  CHECK(degenerate["status"] == "not_converged");
  CHECK(run_cli({"optimal", "--compute", "6"}).out.starts_with("STATUS: not_converged"));
  // At 60 FLOPs Epoch's frontier (the default law) puts N at G (C/6)^(beta/(alpha+beta)) = 0.39
  // parameters, below the one parameter the search starts at: the search stops on that bound,
  // which is no optimum, and says so. At 1e60 the frontier is inside the range (N ~2.7e29).
  check_clean({"optimal", "--compute", "60"}, 2);
  CHECK_THAT(run_cli({"optimal", "--compute", "60"}).err, Catch::Contains("parameters fall to 1"));
  const auto at_end = check_clean({"optimal", "--compute", "1e60"}, 0);
  check_finite(at_end, {"params", "tokens", "loss", "compute_flops"});
  CHECK(at_end["status"] == "converged");
  const auto j = check_clean({"optimal", "--params", "1e40"}, 0);
  check_finite(j, {"params", "tokens", "loss", "compute_flops"});
}

TEST_CASE("extreme: sweeps, sensitivities and Monte Carlo over extreme inputs stay clean",
          "[extreme]") {
  // From no demand to 1e20 tokens (8e16 requests of 1,250), MFUs down to 1e-3: every point
  // converges, and the file prints no nan or inf (figures that do not exist are empty cells).
  const std::string out =
      (std::filesystem::temp_directory_path() / "scaleopt_test_extreme_sweep.csv").string();
  const CliRun sweep =
      run_cli({"sweep", example("sardana_cost.toml"), "--vary", "inference.requests=0..8e16:3",
               "--vary", "inference.decode_mfu=1e-3..0.2:log:3", "--vary",
               "training.mfu=1e-3..0.5:log:2", "--out", out, "--json"});
  INFO(sweep.err);
  REQUIRE(sweep.status == 0);
  REQUIRE(nlohmann::json::accept(sweep.out));
  CHECK(sweep.json()["converged"] == 18);
  std::ifstream file(out);
  const std::string rows((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::filesystem::remove(out);
  // Provenance, header, 18 rows and the checksum line of their block.
  CHECK(std::count(rows.begin(), rows.end(), '\n') == 7 + 1 + 18 + 1);
  CHECK_FALSE(scaleopt::fuzz::prints_non_finite(rows));

  // Elasticities and the tornado at efficiencies of 1e-3 and 1e20 tokens of demand.
  auto j = check_clean({"sensitivity", example("sardana_cost.toml"), "--set", "training.mfu=1e-3",
                        "--set", "inference.decode_mfu=1e-3", "--set", "inference.requests=8e16"},
                       0);
  check_finite(j["base"], {"params", "pretrain_tokens", "loss", "cost_total", "over_chinchilla"});
  // A base case within 1e-12 of E has no sensitivities: a one-line error.
  check_clean(
      {"sensitivity", example("sardana_cost.toml"), "--set", "problem.target_loss=1.6900000000017"},
      2);

  // Monte Carlo without RL and with 1e-3 prefill MFU: clean, every drawn sample accounted for.
  j = check_clean({"uncertainty", example("frontier_uncertain.toml"), "--samples", "200", "--set",
                   "inference.prefill_mfu=1e-3", "--set", "rl.rollout_tokens=0"},
                  0);
  CHECK(j["converged"].get<int>() + j["infeasible"].get<int>() + j["invalid"].get<int>() +
            j["not_converged"].get<int>() ==
        200);
  CHECK(j["converged"].get<int>() > 100);
}

TEST_CASE("extreme: solve's fast path gives NLopt's answer on the extreme inputs", "[extreme]") {
  const std::vector<std::pair<const char*, std::vector<std::string>>> cases = {
      {"sardana_compute.toml", {"inference.tokens=1e20"}},
      {"sardana_cost.toml", {"inference.requests=8e16"}},
      {"frontier_100x.toml", {"inference.rate=1.9e13/s"}},
      {"sardana_cost.toml",
       {"training.mfu=1e-3", "inference.prefill_mfu=1e-3", "inference.decode_mfu=1e-3"}},
      {"budget_plan.toml",
       {"problem.kind=min-lifetime-cost", "problem.target_loss=1.9", "inference.chips=1"}},
  };
  for (const auto& [name, sets] : cases) {
    INFO(name);
    std::vector<std::string> fast = solve(name, sets);
    fast[3] = "auto";  // --method auto
    const auto a = check_clean(fast, 0);
    const auto b = check_clean(solve(name, sets), 0);
    const auto& x = a.contains("optimum") ? a["optimum"] : a;
    const auto& y = b.contains("optimum") ? b["optimum"] : b;
    CHECK(x["algorithm"] == "1-D Newton (Boost.Math)");
    // Two methods converged to their tolerances (KKT 1e-7 relative): N and D agree to ~1e-10.
    CHECK(x["active_params"].get<double>() ==
          Approx(y["active_params"].get<double>()).epsilon(1e-9));
    CHECK(x["pretrain_tokens"].get<double>() ==
          Approx(y["pretrain_tokens"].get<double>()).epsilon(1e-9));
  }
}
