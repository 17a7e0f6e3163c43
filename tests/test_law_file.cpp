// The [law] TOML block: read with file:line errors, written so that it reads back exactly.

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "scaleopt/scenario/toml_reading.hpp"
#include "scaleopt/scenario/toml_tables.hpp"

using namespace scaleopt;
using namespace scaleopt::cli;

namespace {

LossLaw law_from_text(const std::string& text) {
  const TomlDocument document = parse_toml_text(text, "test.toml");
  return read_law_table(document.file, *document.table["law"].as_table(), "law");
}

std::string law_error(const std::string& text) {
  try {
    law_from_text(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a [law] table takes a preset, overrides and an uncertainty block", "[law_file]") {
  const LossLaw preset = law_from_text("[law]\npreset = \"sardana2024\"\n");
  CHECK(preset.name == "sardana2024");
  CHECK(preset.alpha == 0.336);

  const LossLaw overridden = law_from_text("[law]\npreset = \"sardana2024\"\nalpha = 0.35\n");
  CHECK(overridden.name == "custom");
  CHECK(overridden.alpha == 0.35);
  CHECK(overridden.beta == 0.283);

  const LossLaw full = law_from_text(
      "[law]\nname = \"fit\"\nE = 1.8\nA = 480\nB = 2000\nalpha = 0.35\nbeta = 0.37\n"
      "[law.uncertainty]\nstandard_errors = { E = 0.03, A = 120, B = 1300, alpha = 0.02, beta = "
      "0.02 }\n");
  CHECK(full.name == "fit");
  REQUIRE(full.uncertainty);
  CHECK(full.uncertainty->standard_errors[2] == 1300.0);
  CHECK_FALSE(full.uncertainty->covariance);
}

TEST_CASE("law_to_toml reads back to the same doubles", "[law_file]") {
  LossLaw law = loss_law_preset("epoch2024");
  law.name = "round \"trip\"";
  law.alpha = 0.1 + 0.2;  // not representable in few digits
  LawUncertainty uncertainty;
  uncertainty.standard_errors = {0.03, 124.58, 1293.23, 0.02, 0.02};
  std::array<std::array<double, 5>, 5> covariance{};
  for (std::size_t i = 0; i < 5; ++i) covariance[i][i] = 1.0 / 3.0 + static_cast<double>(i);
  uncertainty.covariance = covariance;
  law.uncertainty = uncertainty;
  const LossLaw back = law_from_text(law_to_toml(law));
  CHECK(back.name == law.name);
  CHECK(back.alpha == law.alpha);
  CHECK(back.B == law.B);
  REQUIRE(back.uncertainty);
  CHECK(back.uncertainty->standard_errors == uncertainty.standard_errors);
  CHECK(*back.uncertainty->covariance == covariance);
}

TEST_CASE("bad [law] tables name the file, line and key", "[law_file]") {
  CHECK(law_error("[law]\nE = 1.8\nA = 480\n") ==
        "test.toml:1: law: missing B (give all of E, A, B, alpha, beta, or a preset)");
  CHECK(law_error("[law]\npreset = \"epoch2024\"\nalpah = 0.3\n") ==
        "test.toml:3: law.alpah: unknown key (did you mean 'alpha'?); known keys: preset, name, "
        "source, E, A, B, alpha, beta, uncertainty, fitted_range, repeat_decay_tokens, "
        "repeat_decay_params, experts, joint");
  CHECK_THAT(law_error("[law]\npreset = \"epoch2024\"\nalpha = -0.3\n"),
             Catch::StartsWith("test.toml:3: law.alpha: must be positive"));
  CHECK_THAT(law_error("[law]\npreset = \"gpt\"\n"),
             Catch::StartsWith("test.toml:2: law.preset: unknown loss law 'gpt'"));
  CHECK_THAT(law_error("[law]\npreset = \"epoch2024\"\nalpha = \"fast\"\n"),
             Catch::StartsWith("test.toml:3: law.alpha: cannot read 'fast'"));
  CHECK_THAT(law_error("[law]\npreset = \"epoch2024\"\nalpha = [1]\n"),
             Catch::Contains("got an array"));
  CHECK_THAT(law_error("[law\n"), Catch::StartsWith("test.toml:1:"));
}

TEST_CASE("optimal --law-file uses the file's law", "[law_file][cli]") {
  const std::string path = "scaleopt_test_law_file.toml";
  {
    std::ofstream out(path);
    out << law_to_toml(loss_law_preset("hoffmann2022"));
  }
  const CliRun run = run_cli({"optimal", "--compute", "5.76e23", "--law-file", path, "--json"});
  std::remove(path.c_str());
  REQUIRE(run.status == 0);
  CHECK(run.json()["tokens_per_param"].get<double>() == Approx(92.6).margin(0.05));
  const CliRun missing = run_cli({"optimal", "--compute", "1e24", "--law-file", "no/such.toml"});
  CHECK(is_one_line_error(missing));
  CHECK_THAT(missing.err, Catch::Contains("no/such.toml: cannot open the file"));
}
