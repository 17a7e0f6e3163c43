// power.site_includes_serving: the site's power limit holds the serving fleet too, which bounds
// N (the fleet's mean chips grow with N). With fixed serving MFUs the fleet is linear in N, so
// the bound has a closed form, computed here by hand: N_site = chips(max_mw) x F x MFU /
// (2 x rate). The plan sits on it when the unbounded optimum is larger, with D from the loss
// target in closed form, and its fleet draws the whole site; above the optimum the bound
// changes nothing. Both solve paths (the fast path and NLopt) agree. Questions without a fleet
// to bound are refused with the key named.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "scaleopt/analysis/solve_scenario.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

// H100 SXM at the meter with the default overheads: 700 W x (1 + 0.82) x 1.10.
constexpr double kServingWatts = 700.0 * 1.82 * 1.1;
constexpr double kServingFlopPerSecond = 989e12 * 0.4;  // dense bf16 x the serving MFU
constexpr double kRateTokensPerSecond = 1e7;
// The plan on a bound NLopt holds in ln N to its xtol, and D from the loss equation at it:
// 1e-8 relative (the solver's reference tolerance, as tests/test_training_plan.cpp).
constexpr double kOnTheBound = 1e-8;

std::string site_scenario(const std::string& power_table) {
  return R"([law]
preset = "epoch2024"
[training]
hardware = "h100-sxm"
mfu = 0.4
usd_per_chip_hour = "$2/h"
[inference]
hardware = "h100-sxm"
precision = "bf16"
pricing = "mfu"
prefill_mfu = 0.4
decode_mfu = 0.4
usd_per_chip_hour = "$2/h"
rate = "10M/s"
duration = "1mo"
output_fraction = 0.25
[problem]
kind = "min-lifetime-cost"
target_loss = 2.0
)" + power_table;
}

QuestionSolution solve_text(const std::string& text, SolveMethod method) {
  return solve_scenario(load_scenario_text(text, "site.toml"), SolverOptions{}, method);
}

// D at which the law reaches `loss` with N parameters: B / D^beta = L - E - A / N^alpha.
double tokens_at_loss(const LossLaw& law, double params, double loss) {
  return std::pow(law.B / (loss - law.E - law.A * std::pow(params, -law.alpha)), 1.0 / law.beta);
}

}  // namespace

TEST_CASE("a site that holds the serving fleet bounds N at the fleet its power draws") {
  const QuestionSolution free = solve_text(site_scenario(""), SolveMethod::nlopt);
  REQUIRE(free.status() == Status::converged);
  const double free_params = free.answer.active_params;

  // A site whose fleet holds half that model: max chips = N_site x 2 rate / (F MFU).
  const double site_params = 0.5 * free_params;
  const double site_chips = site_params * 2.0 * kRateTokensPerSecond / kServingFlopPerSecond;
  const double max_mw = site_chips * kServingWatts / 1e6;
  char table[200];
  std::snprintf(table, sizeof table, "[power]\nmax_mw = %.17g\nsite_includes_serving = true\n",
                max_mw);
  const LossLaw law = loss_law_preset("epoch2024");
  for (const SolveMethod method : {SolveMethod::automatic, SolveMethod::nlopt}) {
    INFO(static_cast<int>(method));
    const QuestionSolution capped = solve_text(site_scenario(table), method);
    REQUIRE(capped.status() == Status::converged);
    const QuestionAnswer& a = capped.answer;
    CHECK(a.active_params == Approx(site_params).epsilon(kOnTheBound));
    CHECK(a.plan.pretrain_tokens ==
          Approx(tokens_at_loss(law, site_params, 2.0)).epsilon(kOnTheBound));
    CHECK(a.power.serving_capped);
    CHECK(a.power.serving_max_params == Approx(site_params).epsilon(1e-12));
    // The fleet draws the whole site.
    CHECK(a.power.serving_mw == Approx(max_mw).epsilon(kOnTheBound));
    // The bound costs something: the plan is dearer than the free optimum.
    CHECK(a.plan.cost.total().usd > free.answer.plan.cost.total().usd);
  }

  // Ten times the power: the bound lies above the optimum and changes nothing.
  std::snprintf(table, sizeof table, "[power]\nmax_mw = %.17g\nsite_includes_serving = true\n",
                10.0 * max_mw);
  const QuestionSolution loose = solve_text(site_scenario(table), SolveMethod::nlopt);
  REQUIRE(loose.status() == Status::converged);
  CHECK(loose.answer.active_params == Approx(free_params).epsilon(1e-6));
  CHECK_FALSE(loose.answer.power.serving_capped);

  // The command line says which bound binds.
  const std::string path = "site_serving_test.toml";
  std::snprintf(table, sizeof table, "[power]\nmax_mw = %.17g\nsite_includes_serving = true\n",
                max_mw);
  { std::ofstream(path) << site_scenario(table); }
  const CliRun run = run_cli({"solve", path});
  std::remove(path.c_str());
  REQUIRE(run.status == 0);
  CHECK(run.out.find("the site's limit binds the serving fleet") != std::string::npos);
}

TEST_CASE("a site holding the serving fleet needs a fleet to hold, and says so") {
  auto refused = [](const std::string& text, const std::string& key) {
    INFO(text);
    try {
      solve_text(text, SolveMethod::automatic);
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(key) != std::string::npos);
    }
  };
  refused(site_scenario("[power]\nsite_includes_serving = true\n"),
          "power.site_includes_serving");  // no max_mw
  std::string no_duration = site_scenario("[power]\nmax_mw = 100\nsite_includes_serving = true\n");
  no_duration.replace(no_duration.find("duration = \"1mo\"\n"), 17, "");
  no_duration.replace(no_duration.find("rate = \"10M/s\""), 14, "tokens = \"2.6e13\"");
  refused(no_duration, "power.site_includes_serving");
  // A site too small for the fleet of any model.
  refused(site_scenario("[power]\nmax_mw = 1e-9\nsite_includes_serving = true\n"), "power");
}
