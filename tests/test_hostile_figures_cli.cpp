// Hostile text in every field a figure shows, end to end: `scaleopt plot` of each kind and
// `scaleopt report` on a scenario whose names (law, architecture, chip, price list), leading
// comment and file name hold quotes, backslashes, backticks, system() calls and printf formats,
// and on a sweep file whose name and column names do. gnuplot must run none of it (no canary
// file appears) and show all of it as written; the report must escape it.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "figure_checks.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"
#include "scaleopt/report/html_text.hpp"
#include "scaleopt/report/process.hpp"
#include "scaleopt/report/temporary_directory.hpp"

namespace {

// TMPDIR set to `path` for the length of a test (ctest runs each test case alone): gnuplot then
// works in a directory inside it, so that a command run from there with "cd .." (text that
// cannot hold a '/', such as a file name) leaves its canary where the test looks.
class TmpdirOverride {
 public:
  explicit TmpdirOverride(const std::string& path) {
    if (const char* saved = std::getenv("TMPDIR")) saved_ = saved;
    ::setenv("TMPDIR", path.c_str(), 1);
  }
  ~TmpdirOverride() {
    if (saved_) {
      ::setenv("TMPDIR", saved_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }
  TmpdirOverride(const TmpdirOverride&) = delete;
  TmpdirOverride& operator=(const TmpdirOverride&) = delete;

 private:
  std::optional<std::string> saved_;
};

// A private directory, the TMPDIR of the test, and the canary any leaked command creates.
struct Sandbox {
  scaleopt::report::TemporaryDirectory directory;
  TmpdirOverride tmpdir{directory.path()};
  std::string canary = directory.file("CANARY");
  bool canary_found() const { return std::filesystem::exists(canary); }
};

// The payloads are short: long names push a figure's title off its top and crowd its key, so
// its text would not all show (a matter of layout, not of quoting). Commands go up from
// gnuplot's working directory, a directory in TMPDIR ("cd .."), or name TMPDIR, which gnuplot's
// shell inherits, so that they need no '/' (file names cannot hold one) and no '.' (chip ids,
// whose fields are paths hardware.<id>.<field>).

// Text for names: every way out of a gnuplot string (backticks, and quotes that would close the
// string before a system() call), and what gnuplot might expand (@macros, printf formats).
const std::string kHostileText =
    "it's \"dq\" \\ %s %n 100% @x <b>&amp;]]>\n`touch $TMPDIR/CANARY`'.system('cd ..;touch "
    "CANARY').'\".system(\"cd ..;touch CANARY\").\"";

// A file name or a CSV column.
const std::string kHostileName = "q'\"`cd ..;touch CANARY`'.system('cd ..;touch CANARY').'%s";

// A chip id.
const std::string kHostileChip = "c'\"`touch $TMPDIR/CANARY`%s";

std::string toml_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; start <= text.size(); start = end + 1) {
    end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

// Sardana et al.'s cost example with every text field hostile, a chip of its own (named by a
// hostile id), a price list and uncertain inputs, so that every figure and the report draw.
std::string hostile_scenario(const std::string& text, const std::string& chip) {
  const std::string t = toml_string(text), id = toml_string(chip);
  return "# The question: " + lines_of(text)[0] + "\n\n" +  //
         "[law]\npreset = \"sardana2024\"\nname = " + t + "\nsource = " + t + "\n\n" +
         "[architecture]\npreset = \"frontier-100b\"\nname = " + t + "\n\n" + "[hardware." + id +
         "]\nname = " + t + "\nsource = " + t + "\nprice_note = " + t +
         "\nbf16 = \"312T\"\nint8 = \"624T\"\nhbm_bandwidth = \"2TB/s\"\nhbm = \"80GB\"\n" +
         "usd_per_hour = \"$1.40/h\"\n\n" + "[training]\nhardware = " + id +
         "\nprecision = \"bf16\"\nmfu = 0.5\n\n" + "[inference]\nhardware = " + id +
         "\nprecision = \"int8\"\npricing = \"mfu\"\nprefill_mfu = 0.4\ndecode_mfu = 0.2\n" +
         "chips = 8\ncontext = \"32K\"\nrequests = 1e10\ninput_tokens = 1000\n" +
         "output_tokens = 250\n\n" + "[pricing]\nname = " + t + "\nsource = " + t +
         "\n[[pricing.tier]]\nusd_per_mtok_input = \"$1.25\"\nusd_per_mtok_output = \"$10\"\n\n" +
         "[problem]\nkind = \"min-lifetime-cost\"\ntarget_loss = 1.947\n\n" +
         "[uncertainty]\n\"training.mfu\" = { dist = \"uniform\", lo = 0.4, hi = 0.6 }\n" +
         toml_string("hardware." + chip + ".usd_per_hour") +
         " = { dist = \"uniform\", lo = \"$1/h\", hi = \"$2/h\" }\n";
}

// What in a gnuplot script lets text out of its quotes, or "" when nothing does: every string
// is a single-quoted piece or one of the escapes "\047", "\100", "\n" (plots/gnuplot_text.hpp);
// outside them no backtick (a command), no '@' (a macro) and no quote are left open at the end
// of a line. Comments (whole lines) are skipped.
std::string quoting_problem(const std::string& script) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < script.size(); ++i) {
    const char c = script[i];
    const std::string where = "line " + std::to_string(line) + ": ";
    if (c == '\n') {
      ++line;
    } else if (c == '#' && (i == 0 || script[i - 1] == '\n')) {
      i = script.find('\n', i) - 1;
    } else if (c == '`' || c == '@') {
      return where + "'" + c + "' outside quotes";
    } else if (c == '\'') {
      const std::size_t end = script.find_first_of("'\n", i + 1);
      if (end == std::string::npos || script[end] != '\'') return where + "' not closed";
      i = end;
    } else if (c == '"') {
      const std::size_t end = script.find('"', i + 1);
      const std::string inside = script.substr(i + 1, end - i - 1);
      if (inside != "\\047" && inside != "\\100" && inside != "\\n") {
        return where + "a double-quoted string \"" + inside + "\"";
      }
      i = end;
    }
  }
  return "";
}

// Draws `kind` of `input` into a file with a hostile name; returns the SVG's text. Writes its
// script too, which must keep every text in quotes.
std::string drawn(const Sandbox& sandbox, const std::string& kind, const std::string& input,
                  const std::vector<std::string>& extra = {}) {
  const std::string out = sandbox.directory.file(kind + "-" + kHostileName + ".svg");
  std::vector<std::string> args{"plot", kind, input, "--out", out};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun run = run_cli(args);
  INFO(kind << ": " << run.err);
  CHECK_FALSE(sandbox.canary_found());  // first: a broken script may have run a command
  REQUIRE(run.status == 0);
  // gnuplot may warn that a long name hardly fits the key: "gnuplot said: ..." follows.
  CHECK_THAT(run.out, Catch::StartsWith("Wrote " + out + " (" + kind + ")\n"));
  const auto text = svg_text(read_file(out));
  REQUIRE(text.has_value());
  const std::string scripts = sandbox.directory.file(kind + "-src");
  args.insert(args.end(), {"--script", scripts});
  REQUIRE(run_cli(args).status == 0);
  for (const auto& entry : std::filesystem::directory_iterator(scripts)) {
    if (entry.path().extension() != ".gp") continue;
    INFO(entry.path().filename());
    CHECK(quoting_problem(read_file(entry.path().string())) == "");
  }
  return *text;
}

void check_shows(const std::string& svg, const std::string& text) {
  for (const std::string& line : lines_of(text)) {
    INFO(line);
    CHECK_THAT(svg, Catch::Contains(scaleopt::plots::figure_text(line)));
  }
}

}  // namespace

TEST_CASE("plot: hostile names in a scenario are shown as written and never run",
          "[plot][gnuplot][quoting]") {
  const Sandbox sandbox;
  const std::string& text = kHostileText;
  const std::string scenario = sandbox.directory.file("s" + kHostileName + ".toml");
  write_text(scenario, hostile_scenario(text, kHostileChip));
  const std::string file = std::filesystem::path(scenario).filename().string();

  // The title's first line (the file's name) is above the page here: five lines of title.
  const std::string isoloss = drawn(sandbox, "isoloss", scenario);
  check_shows(isoloss, "law " + text);                  // the assumptions in the title
  check_shows(isoloss, lines_of(text).back() + ")");    // the law in the key (its last line)
  check_shows(isoloss, "pretraining " + kHostileChip);  // the chip's id

  check_shows(drawn(sandbox, "phases", scenario), "law " + text);

  const std::string context = drawn(sandbox, "cost-vs-context", scenario);
  check_shows(context, text + ": output price");  // the price list's name in the key
  check_shows(context, file);

  // The tornado's tic labels name inputs, here the hostile chip's fields: tic labels are
  // printf formats to gnuplot, so "%s" must show as written too.
  const std::string tornado = drawn(sandbox, "tornado", scenario, {"--threads", "1"});
  check_shows(tornado, file);
  check_shows(tornado, "hardware." + kHostileChip + ".");

  const std::string uncertainty =
      drawn(sandbox, "uncertainty", scenario, {"--samples", "200", "--threads", "1"});
  check_shows(uncertainty, file);
  check_shows(uncertainty, "hardware." + kHostileChip + ".usd_per_hour ~ ");

  // --script: the output's name is in the script; one starting with '|' would be run as a
  // command by `set output` when the user runs it.
  const std::string scripts = sandbox.directory.file("src");
  const std::string piped = "|cd ..;touch CANARY;" + kHostileName + ".svg";
  const CliRun script = run_cli(
      {"plot", "isoloss", scenario, "--out", sandbox.directory.file(piped), "--script", scripts});
  INFO(script.err);
  REQUIRE(script.status == 0);
  const auto ran = scaleopt::report::run_program(
      "gnuplot", {"-e", "cd " + scaleopt::plots::gnuplot_path(scripts), scripts + "/isoloss.gp"});
  INFO(ran.output);
  CHECK(ran.succeeded());
  CHECK_FALSE(sandbox.canary_found());
  CHECK(svg_text(read_file(scripts + "/" + piped)).has_value());
}

TEST_CASE("plot sweep: hostile column and file names are shown as written and never run",
          "[plot][gnuplot][quoting][sweep]") {
  const Sandbox sandbox;
  // No '"': the CSV reader takes it for a quoted cell (a column name, like a cell, may be
  // quoted), which the header of a sweep file never is.
  std::string column = kHostileName;
  column.erase(std::remove(column.begin(), column.end(), '"'), column.end());
  const std::string x = "in" + column, series = "se" + column, y = "out" + column + "%n";
  const std::string csv = sandbox.directory.file("sweep" + kHostileName + ".csv");
  std::string rows =
      "point,points," + x + "," + series + ",params,loss,cost_shares.pretrain," + y + ",status\n";
  int point = 0;
  for (const double s : {1.0, 2.0}) {
    for (const double v : {1.0, 10.0, 100.0}) {
      // y dips at the middle point of each line (0.5 s), so that its lowest is labelled.
      rows += std::to_string(point++) + ",6," + std::to_string(v) + "," + std::to_string(s) +
              ",1e9,2," + std::to_string(0.1 * s + 0.001 * v) + "," +
              std::to_string(v == 10.0 ? 0.5 * s : v * s) + ",converged\n";
    }
  }
  write_text(csv, rows);
  const std::string svg = drawn(sandbox, "sweep", csv, {"--y", y});
  check_shows(svg, "Sweep: " + y + " of each optimum against " + x + ", one line per " + series);
  check_shows(svg, std::filesystem::path(csv).filename().string() + ": 6 of 6 rows drawn");
  check_shows(svg, "lowest " + y + ": ");
  // The loss is the same everywhere: no minimum, and the key says so, naming x.
  check_shows(
      drawn(sandbox, "sweep", csv, {"--y", "loss"}),
      "loss is constant over the whole range of " + x + " on every line: no interior minimum");
  // A label of the reader's own (--mark) is text too.
  const std::string marked =
      drawn(sandbox, "sweep", csv, {"--y", y, "--mark", "5,150," + kHostileName});
  check_shows(marked, kHostileName);
  // Shares print as percentages on their axis: "10%" in a tic label is a printf format to
  // gnuplot, which failed before the percent sign was doubled.
  const std::string shares = drawn(sandbox, "sweep", csv, {"--y", "cost_shares.pretrain"});
  CHECK_THAT(shares, Catch::Contains("%\n"));
}

TEST_CASE("report: hostile names escaped in the page and in its figures, never run",
          "[report][gnuplot][quoting]") {
  const Sandbox sandbox;
  const std::string& text = kHostileText;
  const std::string scenario = sandbox.directory.file("s" + kHostileName + ".toml");
  write_text(scenario, hostile_scenario(text, kHostileChip));
  const std::string out = sandbox.directory.file("r" + kHostileName + ".html");
  const CliRun run = run_cli({"report", scenario, "--out", out});
  INFO(run.err);
  CHECK_FALSE(sandbox.canary_found());
  REQUIRE(run.status == 0);
  CHECK(run.out == "Wrote " + out + " (5 figures)\n");
  const std::string html = read_file(out);
  CHECK_THAT(html, !Catch::Contains("<b>"));  // the name's tag never reaches the page as one
  for (const std::string& line : lines_of(text)) {
    INFO(line);
    CHECK_THAT(html, Catch::Contains(scaleopt::report::html_escape(line)));
  }
  // Each figure is well-formed on its own and shows the law's name (gnuplot escapes & and <).
  for (std::size_t at = html.find("<svg"); at != std::string::npos;
       at = html.find("<svg", at + 1)) {
    const std::size_t end = html.find("</svg>", at);
    REQUIRE(end != std::string::npos);
    const auto svg = svg_text(html.substr(at, end + 6 - at));
    REQUIRE(svg.has_value());
  }
}
