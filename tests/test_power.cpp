// Power and energy (issue 27 item 3): facility power and energy against hand arithmetic; the
// best model a site's power limit and a deadline allow, against the compute-capped reduction
// and Hoffmann's closed form in 50 digits with the cap computed by hand from the megawatts, the
// TDP, the overheads, the days, the MFU and the peak, the deadline binding and not, its
// multiplier against a central difference of the optimal loss; which cap binds (the site's or
// training.max_chips); energy priced into the chip-hours; hostile values and a chip of unknown
// power refused with the field named; and the example scenario end to end.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/analysis/sensitivity_analysis.hpp"
#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/power_setup.hpp"
#include "scaleopt/problems/compute_cap/compute_capped_reduction.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

namespace {

using boost::multiprecision::pow;

// Products and quotients of a few given numbers: exact to a few ulps.
constexpr double kPowerArithmetic = 1e-12;
// NLopt's plan where a constraint binds against a 50-digit reference: the solver's own
// reference tolerance (as tests/test_training_plan.cpp).
constexpr double kPowerReference = 1e-8;

// H100 SXM at the meter with the defaults, by hand: 700 W x (1 + 0.82) x 1.10 = 1401.4 W.
constexpr double kH100FacilityWatts = 700.0 * 1.82 * 1.1;
// A 100 MW site of H100s: 1e8 / 1401.4 = 71,357.2 chips (not rounded to whole nodes: the
// limit caps the compute continuously).
constexpr double kSiteChips = 1e8 / kH100FacilityWatts;
// Their FLOP rate: 989e12 dense bf16 x MFU 0.4.
constexpr double kH100FlopPerSecond = 989e12 * 0.4;

Hardware chip(const char* id) {
  return find_hardware(builtin_hardware(), id);
}

// Hoffmann et al. 2022, Eq. 4 in 50 digits: N = G (C/6)^(beta/(alpha+beta)),
// G = (alpha A / (beta B))^(1/(alpha+beta)), D = C / (6 N), and the loss there.
struct Chinchilla50 {
  Real50 params, tokens, loss;
};
Chinchilla50 chinchilla50(const LossLaw& law, const Real50& compute) {
  const Real50 a(law.alpha), b(law.beta), A(law.A), B(law.B);
  const Real50 G = pow(a * A / (b * B), 1 / (a + b));
  const Real50 n = G * pow(compute / 6, b / (a + b));
  const Real50 d = compute / (6 * n);
  return {n, d, Real50(law.E) + A / pow(n, a) + B / pow(d, b)};
}

// A site of H100s serving 1M tokens/s for a year at fixed MFUs; `training` and `power` add
// keys to their tables, `problem` is the [problem] table.
std::string site_text(const std::string& training, const std::string& power,
                      const std::string& problem) {
  return R"([law]
preset = "epoch2024"
[training]
hardware = "h100-sxm"
usd_per_chip_hour = "$2/h"
mfu = 0.4
)" + training +
         "[power]\n" + power + R"(
[inference]
hardware = "h100-sxm"
usd_per_chip_hour = "$2/h"
pricing = "mfu"
prefill_mfu = 0.5
decode_mfu = 0.1
rate = "1M/s"
duration = "1y"
output_fraction = 0.3
[problem]
)" + problem;
}

QuestionSolution solve_text(const std::string& text) {
  const Scenario scenario = load_scenario_text(text, "site.toml");
  return solve_question(scenario, *scenario.law, scenario.problem);
}

const std::string kBudget1B =
    "kind = \"best-at-pretraining-budget\"\npretraining_budget_usd = "
    "\"$1B\"\n";

}  // namespace

TEST_CASE("facility power and energy by hand arithmetic", "[power]") {
  const PowerSetup defaults;
  const Hardware h100 = chip("h100-sxm");
  CHECK(facility_watts_per_chip(h100, defaults) == Approx(1401.4).epsilon(kPowerArithmetic));
  // 71,352 chips x 1401.4 W = 99,992,692.8 W.
  CHECK(facility_megawatts(h100, defaults, 71352.0) ==
        Approx(99.9926928).epsilon(kPowerArithmetic));
  // 1,000 chips for a day: 1.4014 MW x 24 h = 33.6336 MWh; at $0.08/kWh, $2,690.688.
  const double day_mwh = energy_megawatt_hours(h100, defaults, 1000.0, 86400.0);
  CHECK(day_mwh == Approx(33.6336).epsilon(kPowerArithmetic));
  PowerSetup priced;
  priced.usd_per_kwh = 0.08;
  CHECK(energy_cost_usd(day_mwh, priced.usd_per_kwh) == Approx(2690.688).epsilon(kPowerArithmetic));
  CHECK(energy_cost_usd(day_mwh, defaults.usd_per_kwh) == 0.0);  // no price, no cost
  // 100 MW / 1401.4 W = 71,357.21...
  CHECK(max_chips_within(h100, defaults, 100.0) == Approx(1e8 / 1401.4).epsilon(kPowerArithmetic));
  // Other overheads: a B200 at 1000 W x 1.23 x 1.5 = 1845 W; an A100 at 400 W x 1 x 1 = 400 W.
  PowerSetup other;
  other.node_overhead = 0.23;
  other.pue = 1.5;
  CHECK(facility_watts_per_chip(chip("b200"), other) == Approx(1845.0).epsilon(kPowerArithmetic));
  PowerSetup bare;
  bare.node_overhead = 0.0;
  bare.pue = 1.0;
  CHECK(facility_watts_per_chip(chip("a100-80g"), bare) == 400.0);
  CHECK(facility_watts_per_chip(chip("mi300x"), bare) == 750.0);
  // A chip without a published figure: refused, naming its tdp and the reason.
  CHECK_THROWS_WITH(
      facility_watts_per_chip(chip("tpu-v5p"), defaults),
      Catch::StartsWith("hardware.tpu-v5p.tdp") && Catch::Contains("publishes no per-chip power"));
}

TEST_CASE("the best model a 100 MW site trains in 120 days: the deadline binds on the site's chips",
          "[power]") {
  const LossLaw law = loss_law_preset("epoch2024");
  const auto solve_days = [&](double days) {
    return solve_text(
        site_text("deadline = \"" + std::to_string(days) + "d\"\n", "max_mw = 100\n", kBudget1B));
  };
  const QuestionSolution s = solve_days(120.0);
  INFO(s.message());
  REQUIRE(s.status() == Status::converged);
  // The cap by hand: 120 d x 86400 s x 71,357.2 chips x 989e12 x 0.4 FLOP/s.
  const double cap = 120.0 * 86400.0 * kSiteChips * kH100FlopPerSecond;
  CHECK(s.answer.training.chips == Approx(kSiteChips).epsilon(kPowerArithmetic));
  CHECK(s.answer.power.max_chips == Approx(kSiteChips).epsilon(kPowerArithmetic));
  CHECK_THAT(s.answer.training.chips_source, Catch::Contains("power.max_mw"));
  CHECK(s.answer.plan.cost.pretrain.flops == Approx(cap).epsilon(kPowerReference));
  CHECK(s.answer.training.days == Approx(120.0).epsilon(kPowerReference));
  // The $1B would buy 5e8 chip-hours, 2.4x what the site computes by then: it does not bind.
  CHECK(s.answer.training.budget_value == Approx(0.0).margin(1e-15));
  // Against the compute-capped reduction of main and Hoffmann's Eq. 4 at the hand cap.
  const QuestionSetup setup = [&] {
    const Scenario scenario = load_scenario_text(
        site_text("deadline = \"120d\"\n", "max_mw = 100\n", kBudget1B), "site.toml");
    return question_setup(scenario, *scenario.law, scenario.problem);
  }();
  const LifetimePlan reduced = loss_at_compute_cap_reduced(law, setup.model, setup.unit, cap,
                                                           std::nullopt, setup.min_params);
  REQUIRE(reduced.solve.converged());
  CHECK(relative_difference(s.answer.plan.params, reduced.params) < kPowerReference);
  const Chinchilla50 ref = chinchilla50(law, Real50(cap));
  CHECK(relative_difference(s.answer.plan.params, ref.params) < kPowerReference);
  CHECK(relative_difference(s.answer.plan.pretrain_tokens, ref.tokens) < kPowerReference);
  CHECK(s.answer.plan.loss == Approx(ref.loss.convert_to<double>()).epsilon(1e-12));
  // What a day is worth against the central difference of the 50-digit optimal loss in the
  // deadline, +-0.01 day: the loss is smooth in ln T, so the O(h^2) error is ~1e-9 relative,
  // far below the 1e-5 checked (the multiplier's own accuracy is the KKT tolerance's).
  const double h = 0.01;
  const auto loss_at = [&](double days) {
    return chinchilla50(law, Real50(days * 86400.0 * kSiteChips * kH100FlopPerSecond)).loss;
  };
  const Real50 per_day = (loss_at(120.0 - h) - loss_at(120.0 + h)) / (2 * h);
  CHECK(relative_difference(s.answer.training.deadline_value_per_day, per_day) < 1e-5);
  // The site's power and the life's energy, by hand from the plan's chip-hours.
  CHECK(s.answer.power.training_mw == Approx(100.0).epsilon(kPowerArithmetic));
  const LifetimeCost& c = s.answer.plan.cost;
  const double year_hours = 365.25 * 24.0;
  CHECK(s.answer.power.serving_mw ==
        Approx(c.inference.gpu_hours / year_hours * kH100FacilityWatts / 1e6)
            .epsilon(kPowerArithmetic));
  CHECK(s.answer.power.energy_mwh ==
        Approx((c.pretrain.gpu_hours + c.inference.gpu_hours) * kH100FacilityWatts / 1e6)
            .epsilon(kPowerArithmetic));
  // Training's share of it is the site's 100 MW for the 120 days: 288,000 MWh.
  CHECK(c.pretrain.gpu_hours * kH100FacilityWatts / 1e6 ==
        Approx(100.0 * 2880.0).epsilon(kPowerReference));
  CHECK(std::isnan(s.answer.power.energy_usd));
  CHECK(s.answer.power.energy_usd_reason == "no power.usd_per_kwh");

  SECTION("a budget below what the site computes: the deadline does not bind") {
    // $100M at $2/h = 5e7 chip-hours = 5e7 x 3600 x 3.956e14 = 7.1208e25 FLOPs, below the
    // site's 2.93e26: the budget binds, the deadline's multiplier is 0.
    const QuestionSolution b = solve_text(
        site_text("deadline = \"120d\"\n", "max_mw = 100\n",
                  "kind = \"best-at-pretraining-budget\"\npretraining_budget_usd = \"$100M\"\n"));
    REQUIRE(b.status() == Status::converged);
    const double budget_flops = 5e7 * 3600.0 * kH100FlopPerSecond;
    REQUIRE(budget_flops < cap);
    CHECK(std::fabs(b.answer.training.deadline_value_per_day) < 1e-12);
    CHECK(b.answer.training.budget_value > 0.0);
    const Chinchilla50 at_budget = chinchilla50(law, Real50(budget_flops));
    CHECK(relative_difference(b.answer.plan.params, at_budget.params) < kPowerReference);
    // The chips the deadline needs for these FLOPs, whole nodes, below the site's.
    const double needed = std::ceil(budget_flops / kH100FlopPerSecond / (120.0 * 86400.0) / 8.0);
    CHECK(b.answer.training.chips == 8.0 * needed);
    CHECK(b.answer.training.chips < kSiteChips);
  }
}

TEST_CASE("the tighter of training.max_chips and the site's power caps the chips", "[power]") {
  const auto solve_max = [&](const std::string& max_chips) {
    return solve_text(site_text("deadline = \"120d\"\nmax_chips = \"" + max_chips + "\"\n",
                                "max_mw = 100\n", kBudget1B));
  };
  SECTION("fewer chips allowed than the site powers: training.max_chips binds") {
    const QuestionSolution s = solve_max("50K");
    REQUIRE(s.status() == Status::converged);
    CHECK(s.answer.training.chips == 50000.0);
    CHECK_THAT(s.answer.training.chips_source, Catch::Contains("training.max_chips"));
    CHECK(s.answer.plan.cost.pretrain.flops ==
          Approx(120.0 * 86400.0 * 50000.0 * kH100FlopPerSecond).epsilon(kPowerReference));
    CHECK(s.answer.power.max_chips == Approx(kSiteChips).epsilon(kPowerArithmetic));
  }
  SECTION("more chips allowed than the site powers: power.max_mw binds") {
    const QuestionSolution s = solve_max("100K");
    REQUIRE(s.status() == Status::converged);
    CHECK(s.answer.training.chips == Approx(kSiteChips).epsilon(kPowerArithmetic));
    CHECK_THAT(s.answer.training.chips_source, Catch::Contains("power.max_mw"));
  }
  SECTION("given chips beyond the site's power are refused, naming both") {
    CHECK_THROWS_WITH(solve_text(site_text("chips = \"80K\"\ndeadline = \"120d\"\n",
                                           "max_mw = 100\n", kBudget1B)),
                      Catch::StartsWith("training.chips") && Catch::Contains("power.max_mw"));
  }
}

TEST_CASE("power.usd_per_kwh prices energy into every chip-hour", "[power]") {
  const std::string problem = "kind = \"min-lifetime-cost\"\ntarget_loss = 1.95\n";
  const QuestionSolution s = solve_text(site_text("", "usd_per_kwh = 0.1\n", problem));
  REQUIRE(s.status() == Status::converged);
  // $2/h plus 1.4014 kW x $0.1/kWh = $2.14014 per chip-hour, pretraining and serving alike.
  const LifetimeCost& c = s.answer.plan.cost;
  CHECK(c.pretrain.usd == Approx(c.pretrain.gpu_hours * 2.14014).epsilon(kPowerArithmetic));
  CHECK(c.inference.usd == Approx(c.inference.gpu_hours * 2.14014).epsilon(kPowerArithmetic));
  CHECK(s.answer.power.energy_usd ==
        Approx(s.answer.power.energy_mwh * 1000.0 * 0.1).epsilon(kPowerArithmetic));
  // No chips given and no deadline: the training cluster's power is unknown, with the reason.
  CHECK(std::isnan(s.answer.power.training_mw));
  CHECK_THAT(s.answer.power.training_reason, Catch::Contains("training.chips"));
}

TEST_CASE("a chip of unknown power: null with the reason, and refused by a site's limit",
          "[power]") {
  const std::string tpu = R"([law]
preset = "epoch2024"
[training]
hardware = "tpu-v5p"
usd_per_chip_hour = "$4/h"
chips = 8960
[problem]
kind = "best-at-pretraining-budget"
pretraining_budget_usd = "$10M"
)";
  const QuestionSolution s = solve_text(tpu);
  REQUIRE(s.status() == Status::converged);
  CHECK(std::isnan(s.answer.power.training_mw));
  CHECK_THAT(s.answer.power.training_reason, Catch::Contains("hardware.tpu-v5p.tdp"));
  CHECK(std::isnan(s.answer.power.energy_mwh));
  CHECK_THROWS_WITH(solve_text(tpu + "[power]\nmax_mw = 50\n"),
                    Catch::StartsWith("power.max_mw") && Catch::Contains("hardware.tpu-v5p.tdp"));
  CHECK_THROWS_WITH(solve_text(tpu + "[power]\nusd_per_kwh = 0.1\n"),
                    Catch::Contains("hardware.tpu-v5p.tdp"));
  // A scenario that gives the figure makes it known.
  const QuestionSolution given = solve_text(tpu + "[hardware.tpu-v5p]\ntdp = \"500W\"\n");
  REQUIRE(given.status() == Status::converged);
  CHECK(given.answer.power.training_mw ==
        Approx(8960.0 * 500.0 * 1.82 * 1.1 / 1e6).epsilon(kPowerArithmetic));
}

TEST_CASE("hostile power values are refused with the field named", "[power]") {
  const auto refused = [&](const std::string& power, const std::string& field) {
    CAPTURE(power);
    CHECK_THROWS_WITH(solve_text(site_text("deadline = \"120d\"\n", power, kBudget1B)),
                      Catch::Contains(field));
  };
  refused("max_mw = 0\n", "power.max_mw");
  refused("max_mw = -5\n", "power.max_mw");
  refused("max_mw = 1e400\n", "power.max_mw");
  refused("max_mw = nan\n", "power.max_mw");
  refused("max_mw = 1e-6\n", "power.max_mw");  // 1 W powers less than one node
  refused("pue = -1.1\n", "power.pue");
  refused("pue = 0.9\n", "power.pue");
  refused("pue = nan\n", "power.pue");
  refused("node_overhead = -0.1\n", "power.node_overhead");
  refused("node_overhead = inf\n", "power.node_overhead");
  refused("usd_per_kwh = -0.1\n", "power.usd_per_kwh");
  refused("site_includes_serving = true\n", "power.site_includes_serving");  // no max_mw
  refused("watts = 5\n", "power.watts");
  // The library's own checks, without the loader's ranges.
  PowerSetup p;
  p.pue = std::nan("");
  CHECK_THROWS_WITH(p.validate("power"), Catch::StartsWith("power.pue"));
  p = PowerSetup{};
  p.max_mw = HUGE_VAL;
  CHECK_THROWS_WITH(p.validate("power"), Catch::StartsWith("power.max_mw"));
  p = PowerSetup{};
  p.node_overhead = -1.0;
  CHECK_THROWS_WITH(p.validate("power"), Catch::StartsWith("power.node_overhead"));
  // A chip's tdp in a scenario: positive and finite.
  CHECK_THROWS_WITH(solve_text(site_text("", "", kBudget1B) + "[hardware.h100-sxm]\ntdp = 0\n"),
                    Catch::Contains("hardware.h100-sxm.tdp"));
  CHECK_THROWS_WITH(
      solve_text(site_text("", "", kBudget1B) + "[hardware.h100-sxm]\ntdp = \"-700W\"\n"),
      Catch::Contains("hardware.h100-sxm.tdp"));
}

TEST_CASE("examples/power_site_120_days.toml: 71,357 H100s for 120 days", "[power]") {
  const CliRun run = run_cli({"solve", example("power_site_120_days.toml"), "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const nlohmann::json j = run.json();
  CHECK(j["status"] == "converged");
  CHECK(j["training_chips"].get<double>() == Approx(kSiteChips).epsilon(kPowerArithmetic));
  CHECK(j["power_max_chips"].get<double>() == Approx(kSiteChips).epsilon(kPowerArithmetic));
  CHECK(j["training_days"].get<double>() == Approx(120.0).epsilon(kPowerReference));
  CHECK(j["training_power_mw"].get<double>() == Approx(100.0).epsilon(kPowerArithmetic));
  CHECK(j["deadline_value_per_day"].get<double>() > 0.0);
  CHECK(j["unavailable"]["energy_usd"] == "no power.usd_per_kwh");
  const CliRun text = run_cli({"solve", example("power_site_120_days.toml")});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("the cap binds: power.max_mw") &&
                           Catch::Contains("power at the meter"));
}

TEST_CASE("the power figures are inputs to vary only where they change a plan", "[power]") {
  const auto paths = [](const std::string& power) {
    const Scenario scenario =
        load_scenario_text(site_text("deadline = \"120d\"\n", power, kBudget1B), "site.toml");
    std::vector<std::string> listed;
    for (const NumericInput& input : numeric_inputs(scenario)) listed.push_back(input.path);
    return listed;
  };
  const auto has = [](const std::vector<std::string>& listed, const std::string& path) {
    return std::find(listed.begin(), listed.end(), path) != listed.end();
  };
  // Without a price or a limit they change only the power reported, not the plan.
  const std::vector<std::string> plain = paths("");
  CHECK_FALSE(has(plain, "power.pue"));
  CHECK_FALSE(has(plain, "power.node_overhead"));
  CHECK_FALSE(has(plain, "hardware.h100-sxm.tdp"));
  const std::vector<std::string> site = paths("max_mw = 100\n");
  CHECK(has(site, "power.max_mw"));
  CHECK(has(site, "power.pue"));
  CHECK(has(site, "power.node_overhead"));
  CHECK(has(site, "hardware.h100-sxm.tdp"));
}

TEST_CASE("what a megawatt is worth: the loss's elasticity to power.max_mw by the KKT system",
          "[power]") {
  // On the binding deadline C_max is proportional to max_mw and inversely to the TDP, so
  // d ln L* / d ln max_mw = d ln L* / d ln C_max = -(that of the TDP), and that of the PUE too.
  // Against a central difference of the 50-digit optimal loss in ln C_max, +-1e-4: O(h^2) =
  // 1e-8 relative, far below the 1e-5 checked (the stencil of the implicit-function theorem
  // steps 1e-5 in ln p, its error ~1e-10).
  const LossLaw law = loss_law_preset("epoch2024");
  const Scenario scenario = load_scenario_text(
      site_text("deadline = \"120d\"\n", "max_mw = 100\n", kBudget1B), "site.toml");
  SensitivityAnalysisOptions options;
  options.inputs = {"power.max_mw", "power.pue", "hardware.h100-sxm.tdp"};
  const SensitivityResult result = analyse_sensitivity(scenario, options);
  REQUIRE(result.status == Status::converged);
  REQUIRE(result.report.inputs.size() == 3);
  const double cap = 120.0 * 86400.0 * kSiteChips * kH100FlopPerSecond;
  const double h = 1e-4;
  const Real50 l_up = chinchilla50(law, Real50(cap * std::exp(h))).loss;
  const Real50 l_down = chinchilla50(law, Real50(cap * std::exp(-h))).loss;
  const Real50 l0 = chinchilla50(law, Real50(cap)).loss;
  const Real50 elasticity = (l_up - l_down) / (2 * h) / l0;
  constexpr std::size_t kLoss = 2;  // kElasticityOutputs: params, pretrain_tokens, loss, ...
  for (const InputSensitivity& input : result.report.inputs) {
    CAPTURE(input.path);
    REQUIRE(input.optimum.status == Status::converged);
    const double sign = input.path == "power.max_mw" ? 1.0 : -1.0;
    CHECK(relative_difference(sign * input.optimum.values[kLoss], elasticity) < 1e-5);
  }
}

TEST_CASE("the catalog's TDPs are the vendors' figures, and the TPUs' unknown with the reason",
          "[power]") {
  // The datasheets' maxima (costmodel/data/hardware.toml cites each).
  const std::pair<const char*, double> published[] = {
      {"a100-80g", 400.0}, {"a100-40g", 400.0}, {"h100-sxm", 700.0}, {"h800", 700.0},
      {"h200", 700.0},     {"b200", 1000.0},    {"mi300x", 750.0}};
  for (const auto& [id, watts] : published) {
    CAPTURE(id);
    const Hardware h = chip(id);
    REQUIRE(h.tdp_watts);
    CHECK(*h.tdp_watts == watts);
    CHECK_FALSE(h.power_source.empty());
  }
  for (const char* id : {"tpu-v5e", "tpu-v5p"}) {
    CAPTURE(id);
    CHECK_FALSE(chip(id).tdp_watts);
    CHECK_THAT(chip(id).power_unknown, Catch::Contains("no per-chip power"));
  }
  const CliRun run = run_cli({"hardware", "--json"});
  REQUIRE(run.status == 0);
  // Held in a variable: a range over a temporary's member dies with the temporary.
  const auto catalog = run.json();
  for (const auto& entry : catalog["hardware"]) {
    CAPTURE(entry["id"]);
    if (entry["id"] == "tpu-v5p") {
      CHECK(entry["tdp_watts"].is_null());
      CHECK(entry["power_unknown"].get<std::string>().find("no per-chip power") !=
            std::string::npos);
    }
    if (entry["id"] == "h100-sxm") {
      CHECK(entry["tdp_watts"] == 700.0);
      CHECK(entry["power_unknown"].is_null());
    }
  }
  const CliRun text = run_cli({"hardware"});
  CHECK_THAT(text.out, Catch::Contains("TDP") && Catch::Contains("unknown"));
}
