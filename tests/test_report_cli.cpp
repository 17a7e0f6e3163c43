// `scaleopt report` end to end: one self-contained HTML file, opened in headless chromium; the
// screenshot is not blank and the rendered page holds the numbers `scaleopt solve --json`
// gives, formatted as `solve` prints them. Chromium must be installed (scripts/install-deps
// --browser, as make test does): without it these tests fail, they are never skipped.

#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <set>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "figure_checks.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/html_text.hpp"
#include "scaleopt/report/process.hpp"
#include "scaleopt/report/report_html.hpp"
#include "scaleopt/report/temporary_directory.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace {

using scaleopt::format_quantity;
using scaleopt::format_scientific;
using scaleopt::Unit;

void require_chromium() {
  if (!scaleopt::report::on_path("chromium")) {
    FAIL(
        "chromium not found on PATH: the report test opens the report in headless chromium; "
        "make test installs it (scripts/install-deps --browser)");
  }
}

// Headless chromium with the flags that keep it off the (closed) network, in a fresh profile.
scaleopt::report::ProcessResult chromium(const std::vector<std::string>& arguments,
                                         bool keep_stderr) {
  const scaleopt::report::TemporaryDirectory profile;
  std::vector<std::string> args{"--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--user-data-dir=" + profile.path()};
  args.insert(args.end(), arguments.begin(), arguments.end());
  scaleopt::report::ProcessOptions options;
  options.keep_stderr = keep_stderr;
  options.max_output_bytes = 16 << 20;
  return scaleopt::report::run_program("chromium", args, options);
}

// The text of a page as chromium rendered it: its DOM without tags, entities decoded. A loop,
// not std::regex: libstdc++'s regex recurses once per character it matches, and an inline
// image makes a tag hundreds of kilobytes long (a stack overflow under AddressSanitizer).
std::string page_text(const std::string& dom) {
  std::string text;
  bool in_tag = false;
  for (const char c : dom) {
    if (c == '<') {
      in_tag = true;
    } else if (in_tag && c == '>') {
      in_tag = false;
      text += ' ';
    } else if (!in_tag) {
      text += c;
    }
  }
  for (const auto& [entity, character] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}}) {
    for (std::size_t at = text.find(entity); at != std::string::npos;
         at = text.find(entity, at + character.size())) {
      text.replace(at, entity.size(), character);
    }
  }
  return text;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++n;
  }
  return n;
}

struct Report {
  scaleopt::report::TemporaryDirectory directory;
  std::string path = directory.file("report.html");
};

}  // namespace

TEST_CASE("report: one HTML file, figures inline, nothing fetched", "[report][gnuplot]") {
  const Report report;
  const CliRun run = run_cli({"report", example("frontier_100x.toml"), "--out", report.path});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out == "Wrote " + report.path + " (3 figures)\n");
  const std::string html = read_file(report.path);
  CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
  for (const char* section : {"id=\"question\"", "id=\"answer\"", "id=\"phases\"",
                              "id=\"chinchilla\"", "id=\"sensitivity\"", "id=\"assumptions\""}) {
    CHECK_THAT(html, Catch::Contains(section));
  }
  // Serving is priced at fixed MFUs here: no figure of cost against context, so no section for
  // it, and the assumptions say what was left out.
  CHECK_THAT(html, !Catch::Contains("id=\"serving\""));
  CHECK_THAT(html, Catch::Contains("Not shown: serving cost against context; uncertainty."));
  CHECK_THAT(html, Catch::Contains("<li>Serving cost against context. Inference is priced at "
                                   "fixed prefill and decode MFUs"));
  CHECK(occurrences(html, "<svg") ==
        3);  // phases, the iso-loss map, the tornado; serving is priced by MFU here
  CHECK_THAT(html, !Catch::Contains("id=\"uncertainty\""));  // no [uncertainty] table
  CHECK_THAT(html, !Catch::Contains("<?xml"));
  // Self-contained: no script, no stylesheet or image to fetch.
  for (const char* fetch : {"<script", " src=", "<link", "@import", "url(http", "href=\"http"}) {
    CHECK_THAT(html, !Catch::Contains(fetch));
  }
  // The inputs table is folded; its long sources are listed once and cited by number. The
  // H100's datasheet is the source of both chips and of each h100-sxm.* input.
  CHECK_THAT(html, Catch::Contains("<details>\n<summary>Every numeric input ("));
  const std::string datasheet = scaleopt::report::html_escape(
      scaleopt::find_hardware(scaleopt::builtin_hardware(), "h100-sxm").source);
  REQUIRE(datasheet.size() > 60);
  CHECK(occurrences(html, datasheet) == 1);
  CHECK_THAT(html, Catch::Contains("<ol class=\"sources\">\n<li>"));
  CHECK(occurrences(html, "source 1 below") >= 2);  // the law: its row and each law.* input
  // The price note says "assumption" once, not "assumed price: assumption: ...".
  CHECK_THAT(html, !Catch::Contains("assumption: assumption"));
  CHECK_THAT(html, !Catch::Contains("assumed price: assumption"));
  // The Chinchilla-style bar's RL is the plan's rollout tokens: the note beside the bar, one
  // line of SVG text each. The heuristic spends on RL what inference costs, and a rollout token
  // costs what a served one does (2N FLOPs at the same 0.1333 MFU: rl.trained_fraction = 0, no
  // extra passes), so it rolls out as many tokens as are served: 50M/s for 2 months (60.875
  // days) = 50e6 * 60.875 * 86400 = 2.63e14, and the optimum keeps the heuristic's.
  CHECK_THAT(html, Catch::Contains("<text>RL held at</text>"));
  CHECK_THAT(html, Catch::Contains("<text>the plan's 263T</text>"));
  // Each figure's ids are its own: two figures, no id twice.
  std::set<std::string> ids;
  const std::regex id_pattern("id=['\"]([^'\"]+)['\"]");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), id_pattern);
       it != std::sregex_iterator(); ++it) {
    CHECK(ids.insert((*it)[1]).second);
  }
}

TEST_CASE("report: chromium renders it, not blank, with the solution's numbers",
          "[report][chromium]") {
  require_chromium();
  const Report report;
  REQUIRE(run_cli({"report", example("frontier_100x.toml"), "--out", report.path}).status == 0);
  const std::string url = "file://" + std::filesystem::absolute(report.path).string();

  const std::string shot = report.directory.file("shot.png");
  const auto screenshot = chromium({"--screenshot=" + shot, "--window-size=1200,3000", url}, true);
  INFO(screenshot.output);
  REQUIRE(screenshot.succeeded());
  const auto image = decode_png(shot);
  REQUIRE(image.has_value());
  CHECK(image->width == 1200);
  CHECK(image->height == 3000);
  std::set<std::uint32_t> colours(image->pixels.begin(), image->pixels.end());
  CHECK(colours.size() > 100);
  const auto white = std::count(image->pixels.begin(), image->pixels.end(), 0xffffffffu);
  CHECK(1.0 - double(white) / image->pixels.size() > 0.03);  // text, tables and figures

  const auto dom = chromium({"--dump-dom", url}, false);
  REQUIRE(dom.succeeded());
  const std::string text = page_text(dom.output);
  CHECK_THAT(text, Catch::Contains("scaleopt report: frontier_100x.toml"));

  // The numbers as `solve --json` gives them, formatted as `solve` prints them.
  const CliRun solved = run_cli({"solve", example("frontier_100x.toml"), "--json"});
  REQUIRE(solved.status == 0);
  const auto j = solved.json();
  for (const auto* answer : {&j, &j["optimum"]}) {
    const auto& a = *answer;
    const double tokens = a["pretrain_tokens"].get<double>();
    for (const std::string& number :
         {format_quantity(a["active_params"].get<double>(), Unit::count, 4),
          format_scientific(tokens, 3) + " (" + format_quantity(tokens, Unit::count) + ")",
          format_quantity(a["loss"].get<double>(), Unit::number, 6),
          format_quantity(a["cost"]["total"]["usd"].get<double>(), Unit::usd),
          format_quantity(a["cost"]["pretrain"]["usd"].get<double>(), Unit::usd) + " (" +
              format_quantity(100 * a["cost_shares"]["pretrain"].get<double>(), Unit::number, 3) +
              "%)"}) {
      INFO(number);
      CHECK_THAT(text, Catch::Contains(number));
    }
  }
  CHECK_THAT(text, Catch::Contains("the heuristic overpays " +
                                   format_quantity(100 * j["heuristic_overpay"].get<double>(),
                                                   Unit::number, 4) +
                                   "%"));
  CHECK_THAT(text, Catch::Contains(
                       format_quantity(100 * j["optimum"]["vs_chinchilla"]["cost"].get<double>(),
                                       Unit::number, 4) +
                       "%"));
  // The sensitivity section: the tornado's base is the optimum's parameter count.
  CHECK_THAT(text, Catch::Contains("Sensitivity"));
  CHECK_THAT(text,
             Catch::Contains("base: params = " +
                             format_quantity(j["optimum"]["params"].get<double>(), Unit::count)));
  // The figures' labels are rendered text too.
  CHECK_THAT(text, Catch::Contains("heuristic: 100B params"));
  CHECK_THAT(text,
             Catch::Contains("total " +
                             format_quantity(j["cost"]["total"]["usd"].get<double>(), Unit::usd)));
}

TEST_CASE("report: an infeasible scenario fails with the solver's message and leaves no file",
          "[report]") {
  const Report report;
  const CliRun run = run_cli({"report", example("sardana_cost.toml"), "--out", report.path, "--set",
                              "problem.target_loss=1.5"});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("infeasible: target loss 1.5 is at or below"));
  CHECK(std::filesystem::is_empty(report.directory.path()));
  const CliRun txt = run_cli(
      {"report", example("sardana_cost.toml"), "--out", report.directory.file("report.txt")});
  CHECK(is_one_line_error(txt));
  CHECK_THAT(txt.err, Catch::Contains("--out: expected FILE.html"));
  CHECK(std::filesystem::is_empty(report.directory.path()));
}

TEST_CASE("report: every input says where it comes from", "[report]") {
  using scaleopt::report::input_source;
  const auto scenario =
      scaleopt::load_scenario(example("budget_plan.toml"), {"inference.rate=6M/s"});
  const std::vector<std::string> overrides{"inference.rate=6M/s"};
  CHECK(input_source(scenario, "training.mfu", overrides) == "scenario file");
  CHECK(input_source(scenario, "inference.rate", overrides) == "--set inference.rate=6M/s");
  CHECK_THAT(input_source(scenario, "law.alpha", overrides),
             Catch::StartsWith("law epoch2024: Besiroglu et al. 2024"));
  CHECK_THAT(input_source(scenario, "hardware.h100-sxm.hbm_bandwidth", overrides),
             Catch::Contains("H100"));
  // The catalog's note, "assumption: the default for H100-class chips ...", said once.
  CHECK_THAT(input_source(scenario, "hardware.h100-sxm.usd_per_hour", overrides),
             Catch::StartsWith("price (an assumption): the default for H100-class chips"));
  CHECK(input_source(scenario, "rl.extra_forward_passes", overrides) == "default");
  CHECK_THAT(input_source(scenario, "problem.min_params", overrides),
             Catch::StartsWith("default (assumed)"));
}

TEST_CASE("report: the question in the scenario author's words", "[report]") {
  const auto notes = scaleopt::report::scenario_notes(
      "# First line\n# goes on.\n#\n#   scaleopt solve x.toml\n# Second.\n\n[law]\n# not this\n");
  REQUIRE(notes.size() == 2);
  CHECK(notes[0] == "First line goes on.");
  CHECK(notes[1] == "Second.");
}
