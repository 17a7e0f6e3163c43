// --unique-tokens on `loss` and `optimal`, and data.unique_tokens / problem.max_pretrain_tokens in
// the scenario questions: the datablations README's figures through the command line, the
// compute-optimal allocation with 25B unique tokens against a 50-digit golden-section search,
// every question kind with the new answer fields, and hostile values refused naming the field.

#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "repeated_loss50.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

using boost::multiprecision::exp;
using boost::multiprecision::pow;

// min over ln N of the README's L(N, C / (6 N), U) with U = min(U_D, D), by golden section in 50
// digits (the README's grid search, continuous), with the preset's constants (the README's
// decimals: A, B, E as exp of its printed logarithms).
struct DataLimitAllocation50 {
  Real50 params, tokens;
};
DataLimitAllocation50 compute_optimal50(double compute, double stock) {
  const LossLaw law = loss_law_preset("muennighoff2023");
  const Real50 U(stock), C(compute);
  auto loss = [&](const Real50& log_n) -> Real50 {
    const Real50 n = exp(log_n);
    return repeated50::loss(law, n, C / (6 * n), U);
  };
  const Real50 n = exp(
      repeated50::golden_section_minimum(loss, Real50(std::log(1e8)), Real50(std::log(1e12)), 140));
  return {n, C / (6 * n)};
}

}  // namespace

TEST_CASE("loss --unique-tokens prints the README's two losses", "[data_limit_cli]") {
  const CliRun a = run_cli({"loss", "--params", "6.34e9", "--tokens", "242e9", "--unique-tokens",
                            "25e9", "--law", "muennighoff2023", "--json"});
  REQUIRE(a.status == 0);
  // 1e-12: the README prints 17 digits; JSON carries the double's shortest round trip.
  CHECK(std::fabs(a.json()["loss"].get<double>() - 2.2256440889984477) < 1e-12);
  CHECK(a.json()["epochs"].get<double>() == Approx(242.0 / 25.0).epsilon(1e-15));
  CHECK(a.json()["data_limit_loss"].get<double>() > 0.0);
  const CliRun b = run_cli({"loss", "--params", "8.67e9", "--tokens", "178e9", "--unique-tokens",
                            "25e9", "--law", "muennighoff2023", "--json"});
  REQUIRE(b.status == 0);
  CHECK(std::fabs(b.json()["loss"].get<double>() - 2.2269634075087867) < 1e-12);
  const CliRun text = run_cli({"loss", "--params", "8.67e9", "--tokens", "178e9", "--unique-tokens",
                               "25e9", "--law", "muennighoff2023"});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("epochs") && Catch::Contains("effective tokens"));
}

TEST_CASE("optimal --unique-tokens: the README's worked examples", "[data_limit_cli]") {
  SECTION("8.67B on 178B with 25B unique re-allocates to 6.8B on 227B, 9.1 epochs") {
    // The README's first revision: optimal_allocation(8.67e9, 178e9, 25e9) at the same compute,
    // C = 6 N D. It prints 227B tokens, 9.1 epochs, 6.8B parameters (its grid gives 226.5B,
    // 6.81B); the continuous optimum rounds to the same printed digits.
    const double compute = 6 * 8.67e9 * 178e9;
    const CliRun run = run_cli({"optimal", "--compute", std::to_string(compute), "--unique-tokens",
                                "25B", "--law", "muennighoff2023", "--json"});
    REQUIRE(run.status == 0);
    const auto json = run.json();
    CHECK(json["status"] == "converged");
    CHECK(std::round(json["params"].get<double>() / 1e8) == 68);   // 6.8B
    CHECK(std::round(json["tokens"].get<double>() / 1e9) == 227);  // 227B
    CHECK(std::round(json["epochs"].get<double>() * 10) == 91);    // 9.1
    const DataLimitAllocation50 ref = compute_optimal50(compute, 25e9);
    // NLopt against 50 digits: 1e-7 in N and D (a flat minimum; see test_data_limit_solve.cpp).
    CHECK(relative_difference(json["params"].get<double>(), ref.params) < 1e-7);
    CHECK(relative_difference(json["tokens"].get<double>(), ref.tokens) < 1e-7);
    CHECK(json["reference_relative_difference"].get<double>() < 1e-8);
    CHECK(json["data_limit_loss"].get<double>() > 0.0);
  }
  SECTION("C = 1e22 with 25B unique: the current README's 237.3B tokens, 9.49 epochs, 7.02B") {
    const CliRun run = run_cli({"optimal", "--compute", "1e22", "--unique-tokens", "25B", "--law",
                                "muennighoff2023", "--json"});
    REQUIRE(run.status == 0);
    const auto json = run.json();
    // The README's grid steps D by factors of ~1.004 around the Chinchilla point, so its
    // 237336955477.55 tokens and 7022364735.88 parameters are within 0.4% of the optimum.
    CHECK(json["tokens"].get<double>() == Approx(237336955477.55075).epsilon(4e-3));
    CHECK(json["params"].get<double>() == Approx(7022364735.879969).epsilon(4e-3));
    CHECK(json["epochs"].get<double>() == Approx(9.49347821910203).epsilon(4e-3));
    const DataLimitAllocation50 ref = compute_optimal50(1e22, 25e9);
    CHECK(relative_difference(json["params"].get<double>(), ref.params) < 1e-7);
  }
  SECTION("--loss with unique tokens costs more FLOPs than with fresh data") {
    const CliRun run = run_cli({"optimal", "--loss", "2.25", "--unique-tokens", "25B", "--law",
                                "muennighoff2023", "--json"});
    REQUIRE(run.status == 0);
    CHECK(run.json()["data_limit_flops"].get<double>() > 0.0);
    CHECK(run.json()["loss"].get<double>() == Approx(2.25).epsilon(1e-10));
  }
}

TEST_CASE("hostile --unique-tokens values are refused naming the flag", "[data_limit_cli]") {
  for (const char* bad : {"0", "-5", "1e400", "nan", "lots"}) {
    CAPTURE(bad);
    const CliRun loss = run_cli({"loss", "--params", "1B", "--tokens", "20B", "--unique-tokens",
                                 bad, "--law", "muennighoff2023"});
    CHECK(is_one_line_error(loss));
    CHECK_THAT(loss.err, Catch::Contains("--unique-tokens"));
    const CliRun optimal = run_cli(
        {"optimal", "--compute", "1e22", "--unique-tokens", bad, "--law", "muennighoff2023"});
    CHECK(is_one_line_error(optimal));
    CHECK_THAT(optimal.err, Catch::Contains("--unique-tokens"));
  }
  const CliRun with_params = run_cli({"optimal", "--params", "7B", "--unique-tokens", "25B"});
  CHECK(is_one_line_error(with_params));
  // A target at the floor of 25B unique tokens.
  const CliRun floor =
      run_cli({"optimal", "--loss", "2.0", "--unique-tokens", "25B", "--law", "muennighoff2023"});
  CHECK(is_one_line_error(floor));
  CHECK_THAT(floor.err, Catch::Contains("lowest loss") && Catch::Contains("--unique-tokens = 25B"));
}

namespace {

nlohmann::json data_limit_solve_json(const char* name, const std::vector<std::string>& sets) {
  std::vector<std::string> args{"solve", example(name), "--json"};
  for (const std::string& set : sets) args.insert(args.end(), {"--set", set});
  const CliRun run = run_cli(args);
  INFO(run.err);
  REQUIRE(run.status == 0);
  return run.json();
}

}  // namespace

TEST_CASE("every question kind honours data.unique_tokens", "[data_limit_cli]") {
  SECTION("min-lifetime-cost: more epochs, a price in dollars") {
    const auto free_json = data_limit_solve_json("frontier_uncertain.toml", {});
    CHECK_FALSE(free_json.contains("epochs"));  // unchanged without the key
    const auto j = data_limit_solve_json("frontier_uncertain.toml", {"data.unique_tokens=5T"});
    CHECK(j["status"] == "converged");
    CHECK(j["unique_tokens"].get<double>() == 5e12);
    CHECK(j["epochs"].get<double>() ==
          Approx(j["pretrain_tokens"].get<double>() / 5e12).epsilon(1e-14));
    CHECK(j["effective_tokens"].get<double>() < j["pretrain_tokens"].get<double>());
    CHECK(j["data_limit_cost"].get<double>() > 0.0);
    CHECK(j["data_limit_loss"].is_null());
    CHECK(j["unavailable"].contains("data_limit_loss"));
    CHECK(j["reference_relative_difference"].get<double>() < 1e-8);
    CHECK(j["cost"]["total"]["usd"].get<double>() >
          free_json["cost"]["total"]["usd"].get<double>());
  }
  SECTION("min-lifetime-flops") {
    const auto j = data_limit_solve_json("sardana_compute.toml", {"data.unique_tokens=300B"});
    CHECK(j["status"] == "converged");
    CHECK(j["data_limit_cost"].get<double>() > 0.0);
  }
  SECTION("max-quality: a price in loss") {
    const auto j = data_limit_solve_json("budget_plan.toml", {"data.unique_tokens=200B"});
    CHECK(j["status"] == "converged");
    CHECK(j["data_limit_loss"].get<double>() > 0.0);
    CHECK(j["data_limit_cost"].is_null());
  }
  SECTION("equal-cost: the heuristic pays in loss, the optimum in cost") {
    const auto j = data_limit_solve_json("frontier_100x.toml", {"data.unique_tokens=30T"});
    CHECK(j["status"] == "converged");
    CHECK(j["epochs"].get<double>() > 1.0);
    CHECK(j["data_limit_loss"].get<double>() > 0.0);
    CHECK(j["optimum"]["status"] == "converged");
    CHECK(j["optimum"]["data_limit_cost"].get<double>() >= 0.0);
  }
  SECTION("RL returns: three variables and repeated data, by NLopt with its KKT check") {
    const auto j = data_limit_solve_json("frontier_rl.toml", {"data.unique_tokens=30T"});
    CHECK(j["optimum"]["status"] == "converged");
    CHECK(j["optimum"]["epochs"].get<double>() > 0.0);
  }
}

TEST_CASE("problem.max_pretrain_tokens caps D and prices a token", "[data_limit_cli]") {
  const auto free_json = data_limit_solve_json("frontier_uncertain.toml", {});
  const double free_tokens = free_json["pretrain_tokens"].get<double>();
  const auto j =
      data_limit_solve_json("frontier_uncertain.toml",
                            {"problem.max_pretrain_tokens=" + std::to_string(0.5 * free_tokens)});
  CHECK(j["status"] == "converged");
  CHECK(j["pretrain_tokens"].get<double>() == Approx(0.5 * free_tokens).epsilon(1e-9));
  CHECK(j["max_pretrain_tokens_value"].get<double>() > 0.0);
  CHECK(j["epochs"].is_null());
  // A cap above the free optimum: inactive, worth nothing.
  const auto loose =
      data_limit_solve_json("frontier_uncertain.toml",
                            {"problem.max_pretrain_tokens=" + std::to_string(2 * free_tokens)});
  CHECK(loose["pretrain_tokens"].get<double>() == Approx(free_tokens).epsilon(1e-8));
  CHECK(std::fabs(loose["max_pretrain_tokens_value"].get<double>()) < 1e-6);
}

TEST_CASE("hostile data keys are refused naming the field", "[data_limit_cli]") {
  const std::pair<const char*, const char*> cases[] = {
      {"data.unique_tokens=0", "data.unique_tokens"},
      {"data.unique_tokens=-5T", "data.unique_tokens"},
      {"data.unique_tokens=1e400", "data.unique_tokens"},
      {"data.unique_tokens=1e31", "data.unique_tokens"},
      {"law.repeat_decay_tokens=0", "law.repeat_decay_tokens"},
      {"law.repeat_decay_params=-1", "law.repeat_decay_params"},
      {"problem.max_pretrain_tokens=0", "problem.max_pretrain_tokens"},
  };
  for (const auto& [set, field] : cases) {
    CAPTURE(set);
    const CliRun run = run_cli({"solve", example("frontier_uncertain.toml"), "--set", set});
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(field));
  }
}

TEST_CASE("the headline at the data wall: 30T, 100T and 300T unique tokens", "[data_limit_cli]") {
  // examples/frontier_data_wall.toml (docs/validation.md, "The data wall"): the heuristic's plan
  // is fixed (N = 100B, D = 50M/s x 2 months = 2.63e14), so its epochs are D / U_D and its loss
  // penalty the README's formula against the law's fresh-data loss, both computed here in 50
  // digits; the optimum is held to the library's reduction and, at 300T (D below the stock), to
  // the answer with unlimited data.
  const auto free_json = data_limit_solve_json("frontier_100x.toml", {});
  const LossLaw law = loss_law_preset("epoch2024");
  for (const double stock : {30e12, 100e12, 300e12}) {
    CAPTURE(stock);
    const auto j = data_limit_solve_json("frontier_data_wall.toml",
                                         {"data.unique_tokens=" + std::to_string(stock)});
    REQUIRE(j["status"] == "converged");
    const double n = j["active_params"].get<double>(), d = j["pretrain_tokens"].get<double>();
    CHECK(j["epochs"].get<double>() == Approx(d / stock).epsilon(1e-15));
    const Real50 penalty = repeated50::loss(law, Real50(n), Real50(d), Real50(stock)) -
                           Real50(law.E) - Real50(law.A) * pow(Real50(n), -Real50(law.alpha)) -
                           Real50(law.B) * pow(Real50(d), -Real50(law.beta));
    // The penalty is a difference of losses near 1.9: 1e-15 absolute is their rounding.
    CHECK(std::fabs(j["data_limit_loss"].get<double>() - penalty.convert_to<double>()) < 1e-15);
    const auto& optimum = j["optimum"];
    REQUIRE(optimum["status"] == "converged");
    CHECK(optimum["reference_relative_difference"].get<double>() < 1e-8);
    CHECK(optimum["data_limit_cost"].get<double>() >= 0.0);
    if (stock == 300e12) {
      CHECK(j["data_limit_loss"].get<double>() == 0.0);
      CHECK(optimum["pretrain_tokens"].get<double>() ==
            Approx(free_json["optimum"]["pretrain_tokens"].get<double>()).epsilon(1e-9));
    }
  }
}

TEST_CASE("the equal-cost heuristic honours problem.max_pretrain_tokens", "[data_limit_cli]") {
  // examples/frontier_100x.toml: N = 100B; its pretraining share buys D = T = 50M/s x 2 months
  // = 2.6298e14 tokens (decode and prefill at a third of the training MFU, equal thirds). A cap
  // of 10T holds D there; the RL and inference budgets, anchored on the inference cost, stay.
  const double params = 1e11, cap = 1e13, served = 5e7 * 2 * 365.25 * 86400 / 12;
  const auto j = data_limit_solve_json("frontier_100x.toml", {"problem.max_pretrain_tokens=10T"});
  REQUIRE(j["status"] == "converged");
  CHECK(j["active_params"].get<double>() == params);
  CHECK(j["pretrain_tokens"].get<double>() == cap);
  CHECK(j["rl_tokens"].get<double>() == Approx(served).epsilon(1e-12));
  // 6 N D FLOPs at 989 TFLOP/s x MFU 0.4 and $2 an hour: 6e24 / 3.956e14 s = 4.2130e6 h.
  const double pretrain_usd = 6 * params * cap / (989e12 * 0.4) / 3600 * 2;
  const double inference_usd = 2 * params * served / (989e12 * 0.4 / 3) / 3600 * 2;
  CHECK(j["cost"]["pretrain"]["usd"].get<double>() == Approx(pretrain_usd).epsilon(1e-12));
  CHECK(j["cost"]["inference"]["usd"].get<double>() == Approx(inference_usd).epsilon(1e-12));
  CHECK(j["cost"]["rl"]["usd"].get<double>() == Approx(inference_usd).epsilon(1e-12));
  // The law's loss at (100B, 10T), and what the cap costs it against the 2.6298e14 tokens the
  // share buys with no cap (the data term alone changes).
  const LossLaw law = loss_law_preset("epoch2024");
  const double data_term = law.B * std::pow(cap, -law.beta);
  CHECK(j["loss"].get<double>() ==
        Approx(law.E + law.A * std::pow(params, -law.alpha) + data_term).epsilon(1e-13));
  CHECK(j["data_limit_loss"].get<double>() ==
        Approx(data_term - law.B * std::pow(served, -law.beta)).epsilon(1e-9));
  CHECK_THAT(j["message"].get<std::string>(),
             Catch::Contains("problem.max_pretrain_tokens = 10T") && Catch::Contains("263T"));
  // At the heuristic's loss with D at most the cap, the loss fixes N at the cap: the optimum is
  // the heuristic's plan (inference, growing with N, rules out a larger N on fewer tokens).
  CHECK(j["optimum"]["active_params"].get<double>() == Approx(params).epsilon(1e-9));
  CHECK(std::fabs(j["heuristic_overpay"].get<double>()) < 1e-9);
  const CliRun text =
      run_cli({"solve", example("frontier_100x.toml"), "--set", "problem.max_pretrain_tokens=10T"});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out,
             Catch::Contains("problem.max_pretrain_tokens = 10T holds the heuristic's D"));
  // A cap above the share's tokens leaves the heuristic as it was.
  const auto loose =
      data_limit_solve_json("frontier_100x.toml", {"problem.max_pretrain_tokens=1e15"});
  CHECK(loose["pretrain_tokens"].get<double>() == Approx(served).epsilon(1e-12));
  CHECK_THAT(loose["message"].get<std::string>(), !Catch::Contains("problem.max_pretrain_tokens"));
}
