// A fitted law where it matters: --law-file on the scenario commands, `[law] file = ...` in a
// scenario (beside it), and their precedence with --set law.*. The independent check: the same
// five coefficients typed as --set law.* over the scenario's preset give the same numbers.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

// A law as `scaleopt fit --emit-law` writes it (coefficients near Epoch's refit, not a preset).
const std::string kFittedLaw =
    "[law]\nname = \"fit\"\nsource = \"a test fit\"\nE = 1.82\nA = 478\nB = 2143\n"
    "alpha = 0.347\nbeta = 0.367\n";
const std::vector<std::string> kSameAsSet = {"--set", "law.E=1.82",    "--set", "law.A=478",
                                             "--set", "law.B=2143",    "--set", "law.alpha=0.347",
                                             "--set", "law.beta=0.367"};

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The rows of a sweep file without its provenance lines.
std::string data_rows(const std::string& path) {
  std::istringstream lines(read_file(path));
  std::string line, rows;
  while (std::getline(lines, line)) {
    if (!line.starts_with("#")) rows += line + "\n";
  }
  return rows;
}

}  // namespace

TEST_CASE("a fitted law from --law-file in solve, sweep, sensitivity and report",
          "[law_file][cli]") {
  const TempDir dir("law_file_cli");
  const std::string law = dir.file("fitted.toml");
  write(law, kFittedLaw);
  const std::string scenario = example("sardana_cost.toml");

  const CliRun fitted = run_cli({"solve", scenario, "--law-file", law, "--json"});
  INFO(fitted.err);
  REQUIRE(fitted.status == 0);
  const auto j = fitted.json();
  CHECK(j["law"]["name"] == "fit");
  CHECK(j["law"]["E"].get<double>() == 1.82);
  CHECK(j["law"]["beta"].get<double>() == 0.367);
  // The same coefficients typed over the scenario's preset: the very same doubles.
  const CliRun typed = run_cli(with({"solve", scenario, "--json"}, kSameAsSet));
  REQUIRE(typed.status == 0);
  for (const char* key : {"params", "pretrain_tokens", "loss"}) {
    CHECK(j[key].get<double>() == typed.json()[key].get<double>());
  }
  CHECK(j["cost"]["total"]["usd"].get<double>() ==
        typed.json()["cost"]["total"]["usd"].get<double>());
  // ... and not the scenario's own law (sardana2024).
  const CliRun own = run_cli({"solve", scenario, "--json"});
  CHECK(own.json()["params"].get<double>() != j["params"].get<double>());

  // sweep: the same rows as with the coefficients typed.
  const std::vector<std::string> sweep = {"sweep", scenario, "--vary",
                                          "inference.requests=1e8..1e12:log:5"};
  REQUIRE(run_cli(with(sweep, {"--law-file", law, "--out", dir.file("a.csv")})).status == 0);
  REQUIRE(run_cli(with(with(sweep, kSameAsSet), {"--out", dir.file("b.csv")})).status == 0);
  CHECK(data_rows(dir.file("a.csv")) == data_rows(dir.file("b.csv")));
  CHECK(data_rows(dir.file("a.csv")).find("\n") != std::string::npos);

  // sensitivity: the law's coefficients are the file's, the base is the solve's.
  const CliRun sensitivity = run_cli({"sensitivity", scenario, "--law-file", law, "--json"});
  INFO(sensitivity.err);
  REQUIRE(sensitivity.status == 0);
  const auto s = sensitivity.json();
  CHECK(s["base"]["params"].get<double>() == Approx(j["params"].get<double>()).epsilon(1e-12));
  bool found_alpha = false;
  for (const auto& row : s["elasticities"]) {
    if (row["input"] == "law.alpha") {
      found_alpha = true;
      CHECK(row["value"].get<double>() == 0.347);
    }
  }
  CHECK(found_alpha);

  // report: the page names the law and the file it came from.
  const std::string page = dir.file("r.html");
  const CliRun report = run_cli({"report", scenario, "--law-file", law, "--out", page});
  INFO(report.err);
  REQUIRE(report.status == 0);
  const std::string html = read_file(page);
  CHECK_THAT(html, Catch::Contains("read from " + law));
  CHECK_THAT(html, Catch::Contains("--law-file " + law));  // the plot command lines
}

TEST_CASE("[law] file = ... is read beside the scenario; --law-file replaces it; --set after",
          "[law_file][cli]") {
  const TempDir dir("law_file_key");
  std::filesystem::create_directories(dir.path / "laws");
  write(dir.file("laws/fitted.toml"), kFittedLaw);
  write(dir.file("other.toml"),
        "[law]\nname = \"other\"\nE = 1.7\nA = 400\nB = 2000\nalpha = 0.33\nbeta = 0.35\n");
  std::string text = read_file(example("sardana_cost.toml"));
  const std::string preset = "preset = \"sardana2024\"";
  text.replace(text.find(preset), preset.size(), "file = \"laws/fitted.toml\"");
  const std::string scenario = dir.file("s.toml");
  write(scenario, text);

  // Resolved beside the scenario, whatever the working directory (the tests run elsewhere).
  const CliRun beside = run_cli({"solve", scenario, "--json"});
  INFO(beside.err);
  REQUIRE(beside.status == 0);
  const CliRun flag = run_cli({"solve", example("sardana_cost.toml"), "--law-file",
                               dir.file("laws/fitted.toml"), "--json"});
  REQUIRE(flag.status == 0);
  CHECK(beside.json()["law"]["alpha"].get<double>() == 0.347);
  CHECK(beside.json()["params"].get<double>() == flag.json()["params"].get<double>());

  // --law-file replaces the scenario's [law], its file included.
  const CliRun replaced =
      run_cli({"solve", scenario, "--law-file", dir.file("other.toml"), "--json"});
  REQUIRE(replaced.status == 0);
  CHECK(replaced.json()["law"]["name"] == "other");
  CHECK(replaced.json()["law"]["E"].get<double>() == 1.7);

  // --set law.* applies on top of either.
  const CliRun over_file = run_cli({"solve", scenario, "--set", "law.alpha=0.35", "--json"});
  REQUIRE(over_file.status == 0);
  CHECK(over_file.json()["law"]["alpha"].get<double>() == 0.35);
  CHECK(over_file.json()["law"]["E"].get<double>() == 1.82);
  const CliRun over_flag = run_cli({"solve", scenario, "--law-file", dir.file("other.toml"),
                                    "--set", "law.alpha=0.35", "--json"});
  REQUIRE(over_flag.status == 0);
  CHECK(over_flag.json()["law"]["alpha"].get<double>() == 0.35);
  CHECK(over_flag.json()["law"]["E"].get<double>() == 1.7);

  // The other scenario commands take it too; uncertainty's law = "bootstrap" draws from the
  // file's [law.uncertainty].
  write(dir.file("bootstrapped.toml"),
        kFittedLaw +
            "[law.uncertainty]\nstandard_errors = { E = 0.03, A = 120, B = 1300, "
            "alpha = 0.02, beta = 0.02 }\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"cost", example("frontier.toml"), "--law-file", dir.file("other.toml"), "--json"},
           {"uncertainty", example("frontier_uncertain.toml"), "--law-file",
            dir.file("bootstrapped.toml"), "--samples", "20", "--json"},
           {"plot", "phases", scenario, "--law-file", dir.file("other.toml"), "--out",
            dir.file("p.svg")}}) {
    const CliRun run = run_cli(args);
    INFO(args[0] << ": " << run.err);
    CHECK(run.status == 0);
  }
}

TEST_CASE("a law file that is missing, beside a preset, or not allowed is refused in one line",
          "[law_file][cli]") {
  const TempDir dir("law_file_errors");
  write(dir.file("fitted.toml"), kFittedLaw);
  const std::string base = "[problem]\nkind = \"min-lifetime-flops\"\ntarget_loss = 2.0\n";
  write(dir.file("missing.toml"), "[law]\nfile = \"nope.toml\"\n" + base);
  write(dir.file("both.toml"), "[law]\nfile = \"fitted.toml\"\npreset = \"epoch2024\"\n" + base);
  write(dir.file("named.toml"), "[law]\nfile = \"fitted.toml\"\n" + base);
  write(dir.file("law.svg"), kFittedLaw);
  write(dir.file("svg_law.toml"), "[law]\nfile = \"law.svg\"\n" + base);
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"solve", dir.file("missing.toml")},
       dir.file("missing.toml") + ":2: law.file: " + dir.file("nope.toml") +
           ": cannot open the file"},
      {{"solve", dir.file("both.toml")}, "law.preset: not with a law read from"},
      {{"solve", dir.file("named.toml"), "--law-file", dir.file("nope.toml")}, "--law-file"},
      {{"solve", dir.file("named.toml"), "--law-file", dir.file("fitted.toml"), "--set",
        "law.file=fitted.toml"},
       "law.file: not with --law-file"},
      // An output never replaces the law it read (a law file named like a figure).
      {{"plot", "phases", dir.file("svg_law.toml"), "--out", dir.file("law.svg")}, "the law file"},
      {{"plot", "phases", dir.file("named.toml"), "--law-file", dir.file("law.svg"), "--out",
        dir.file("law.svg")},
       "the law file"},
  };
  for (const auto& [args, expected] : cases) {
    const CliRun run = run_cli(args);
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(expected));
  }
  CHECK(read_file(dir.file("law.svg")) == kFittedLaw);

  // A scenario that may not name files (one posted to a server): law.file is refused.
  try {
    (void)load_scenario_text("[law]\nfile = \"/etc/passwd\"\n" + base, "posted.toml", {},
                             LawSource{.law_file = {}, .files_allowed = false});
    FAIL("law.file accepted where files are not allowed");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()),
               Catch::StartsWith("posted.toml:2: law.file: this scenario may not name files"));
  }
}
