// A joint dense/MoE law's numbers as numeric inputs (sensitivity, tornado, Monte Carlo): the
// coefficients of [law.joint] and law.experts are inputs, the reduction's A, B, alpha and beta
// are not (they follow from them); setting one re-evaluates the law by the paper's Eq. 4 and 6,
// recomputed here by hand; the elasticity of the optimum to one of them equals a central
// difference of two solves with the coefficient typed into the scenario; and a law changed by
// --set names --set, not the file, as the source of the change.

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "cli_runner.hpp"
#include "input_rows.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

// A FLOPs question at 8 experts (the reduced law is a Chinchilla law there): the cheapest life
// at the loss of a 1B Chinchilla-style model serving 1T tokens.
std::string joint_scenario(const std::string& joint_table = "") {
  return "[law]\npreset = \"ludziejewski2025\"\nexperts = 8\n" + joint_table +
         "[problem]\nkind = \"min-lifetime-flops\"\ntarget_params = \"1B\"\n"
         "[inference]\ntokens = \"1T\"\noutput_fraction = 0.3\n";
}

bool has_input(const Scenario& s, const std::string& path) {
  for (const NumericInput& input : numeric_inputs(s)) {
    if (input.path == path) return true;
  }
  return false;
}

// E^ of Eq. 4 and the reduced exponent of the data term, from the paper's formulas directly.
double transformed(double experts, double start, double max) {
  return 1.0 / (1.0 / (experts - 1.0 + 1.0 / (1.0 / start - 1.0 / max)) + 1.0 / max);
}

}  // namespace

TEST_CASE("a joint law's coefficients and experts are numeric inputs, its reduction is not",
          "[joint_law][sensitivity]") {
  Scenario s = load_scenario_text(joint_scenario(), "joint.toml");
  REQUIRE(s.law->joint);
  for (const char* path :
       {"law.joint.a", "law.joint.b", "law.joint.alpha", "law.joint.beta", "law.joint.delta",
        "law.joint.gamma", "law.joint.omega", "law.joint.zeta", "law.joint.experts_start",
        "law.joint.experts_max", "law.experts", "law.E"}) {
    INFO(path);
    CHECK(has_input(s, path));
  }
  for (const char* path : {"law.A", "law.B", "law.alpha", "law.beta"}) {
    INFO(path);
    CHECK_FALSE(has_input(s, path));
  }
  // Table 3 of the paper, read back through the registry.
  CHECK(numeric_input(s, "law.joint.zeta") == -0.0259);
  CHECK(numeric_input(s, "law.joint.omega") == 0.5529);
  CHECK(numeric_input(s, "law.experts") == 8.0);

  // zeta changed: beta' = -(beta + zeta ln E^) at the same experts, the rest as before.
  const double alpha_before = s.law->alpha;
  NumericInputSetter(s, "law.joint.zeta").set(s, -0.03);
  const double hat = transformed(8.0, 2.0732, 290.4521);
  CHECK(s.law->beta == Approx(-(-0.1775 - 0.03 * std::log(hat))).epsilon(1e-15));
  CHECK(s.law->alpha == alpha_before);
  CHECK(s.law->joint->zeta == -0.03);
  CHECK(s.law->experts == 8.0);
  // Experts changed: every reduced coefficient moves with E^ (Eq. 6 at E = 16).
  NumericInputSetter(s, "law.experts").set(s, 16.0);
  const double hat16 = transformed(16.0, 2.0732, 290.4521);
  CHECK(s.law->A == Approx(35.91 * std::pow(hat16, -0.2285)).epsilon(1e-14));
  CHECK(s.law->alpha == Approx(0.1889 - 0.0098 * std::log(hat16)).epsilon(1e-14));
  // law.E of a joint law is the joint law's c as well.
  NumericInputSetter(s, "law.E").set(s, 1.4);
  CHECK(s.law->E == 1.4);
  CHECK(s.law->joint->E == 1.4);
  // Bad values name the key.
  CHECK_THROWS_WITH(NumericInputSetter(s, "law.experts").set(s, 0.5),
                    Catch::Contains("law.experts"));
  CHECK_THROWS_WITH(NumericInputSetter(s, "law.joint.a").set(s, -1.0),
                    Catch::Contains("law.joint.a: must be > 0"));

  // A law of N and D alone has no joint inputs, and its A is one.
  const Scenario dense = load_scenario_text(
      "[law]\npreset = \"hoffmann2022\"\n[problem]\nkind = "
      "\"min-lifetime-flops\"\ntarget_params = \"1B\"\n[inference]\ntokens = "
      "\"1T\"\noutput_fraction = 0.3\n",
      "dense.toml");
  CHECK(has_input(dense, "law.A"));
  CHECK_FALSE(has_input(dense, "law.joint.a"));
  CHECK_FALSE(has_input(dense, "law.experts"));
}

TEST_CASE("the elasticity to a joint coefficient equals a central difference of two solves",
          "[joint_law][sensitivity][cli]") {
  const TempFile scenario("joint_sensitivity.toml", joint_scenario());
  const CliRun run =
      run_cli({"sensitivity", scenario.path(), "--inputs", "law.joint.a,law.experts", "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto j = run.json();
  // d ln N / d ln p from the scenario with p typed into [law.joint] (the file's reader, not the
  // registry's setter) at p (1 -+ h): truncation ~h^2 = 1e-6, the solves' agreement ~1e-15 / h.
  const double h = 1e-3;
  auto log_params = [&](const std::string& joint_table, const std::string& experts) {
    std::string text = joint_scenario(joint_table);
    text.replace(text.find("experts = 8"), 11, "experts = " + experts);
    const TempFile at("joint_sensitivity_at.toml", text);
    const CliRun solved = run_cli({"solve", at.path(), "--json"});
    INFO(solved.err);
    REQUIRE(solved.status == 0);
    return std::log(solved.json()["params"].get<double>());
  };
  auto secant = [&](double minus, double plus) {
    return (plus - minus) / std::log((1 + h) / (1 - h));
  };
  const double a_secant =
      secant(log_params("[law.joint]\na = " + std::to_string(35.91 * (1 - h)) + "\n", "8"),
             log_params("[law.joint]\na = " + std::to_string(35.91 * (1 + h)) + "\n", "8"));
  const double experts_secant = secant(log_params("", std::to_string(8 * (1 - h))),
                                       log_params("", std::to_string(8 * (1 + h))));
  const auto* a_row = input_row(j["elasticities"], "law.joint.a");
  const auto* experts_row = input_row(j["elasticities"], "law.experts");
  REQUIRE(a_row);
  REQUIRE(experts_row);
  CHECK(std::fabs(a_secant) > 0.1);  // N moves: the check is not of a zero
  CHECK((*a_row)["params"].get<double>() == Approx(a_secant).epsilon(1e-4));
  CHECK((*experts_row)["params"].get<double>() == Approx(experts_secant).epsilon(1e-4));
}

TEST_CASE("a law changed by --set names --set as the source of its coefficients",
          "[joint_law][law_file][cli]") {
  const Scenario set = load_scenario_text(joint_scenario(), "s.toml", {"law.joint.zeta=-0.03"});
  CHECK_THAT(set.law->source,
             Catch::StartsWith("coefficients from --set law.joint.zeta over preset "
                               "ludziejewski2025"));
  const Scenario file = load_scenario_text(joint_scenario("[law.joint]\nzeta = -0.03\n"), "f.toml");
  CHECK_THAT(file.law->source,
             Catch::StartsWith("coefficients from f.toml over preset ludziejewski2025"));
  const Scenario both =
      load_scenario_text(joint_scenario("[law.joint]\nzeta = -0.03\n"), "f.toml", {"law.E=1.4"});
  CHECK_THAT(both.law->source, Catch::StartsWith("coefficients from f.toml and --set law.E over"));
  const Scenario dense = load_scenario_text(
      "[law]\npreset = \"hoffmann2022\"\n[problem]\nkind = \"min-lifetime-flops\"\n"
      "target_params = \"1B\"\n[inference]\ntokens = \"1T\"\noutput_fraction = 0.3\n",
      "d.toml", {"law.A=400"});
  CHECK_THAT(dense.law->source, Catch::StartsWith("coefficients from --set law.A over preset"));
}
