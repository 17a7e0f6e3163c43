// `scaleopt plot` end to end: every kind drawn by gnuplot as SVG (parsed by libxml2) and PNG
// (read by libpng), labelled with numbers computed here from the published ones; --script;
// and failures that leave no file behind (infeasible scenario, gnuplot missing or failing).

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "figure_checks.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/process.hpp"
#include "scaleopt/report/temporary_directory.hpp"

namespace {

using scaleopt::format_quantity;
using scaleopt::format_scientific;
using scaleopt::Unit;

// The files in a directory (a failed command must leave it empty).
std::vector<std::string> files_in(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

// The text of the SVG `kind` draws for `scenario`; fails the test when it is not well formed.
std::string plotted_svg_text(const std::string& kind, const std::string& scenario,
                             const std::vector<std::string>& extra = {}) {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string out = directory.file(kind + ".svg");
  std::vector<std::string> args{"plot", kind, scenario, "--out", out};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun run = run_cli(args);
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out == "Wrote " + out + " (" + kind + ")\n");  // nothing from gnuplot: no warning
  const auto text = svg_text(read_file(out));
  REQUIRE(text.has_value());
  CHECK(files_in(directory.path()) == std::vector<std::string>{kind + ".svg"});
  return *text;
}

// Every number printed as "NUMBER<suffix>" in `text` (e.g. suffix " FLOPs lifetime"), for
// numbers derived from published values rounded to four digits: compared with a tolerance,
// not as text.
std::vector<double> numbers_before(const std::string& text, const std::string& suffix) {
  std::vector<double> numbers;
  for (std::size_t at = text.find(suffix); at != std::string::npos;
       at = text.find(suffix, at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && (std::isdigit(static_cast<unsigned char>(text[begin - 1])) ||
                         text[begin - 1] == '.' || text[begin - 1] == 'e')) {
      --begin;
    }
    if (begin < at && std::isdigit(static_cast<unsigned char>(text[begin]))) {
      numbers.push_back(std::stod(text.substr(begin, at - begin)));
    }
  }
  return numbers;
}

bool any_near(const std::vector<double>& numbers, double expected, double relative) {
  return std::any_of(numbers.begin(), numbers.end(),
                     [&](double n) { return std::fabs(n / expected - 1) < relative; });
}

// Sardana et al. 2024's compute example, as published: N = 2.418e10, D = 2.657e12, with 70.96%
// of the parameters and 146.77% of the tokens of the equal-quality Chinchilla model, serving
// 2e12 tokens; lifetime FLOPs 6 N D + 2 N T.
constexpr double kSardanaN = 2.418e10, kSardanaD = 2.657e12, kServed = 2e12;

}  // namespace

TEST_CASE("plot isoloss: well-formed SVG with the optimum and Chinchilla labelled",
          "[plot][gnuplot]") {
  const std::string text = plotted_svg_text("isoloss", example("sardana_compute.toml"));
  const std::string optimum = "optimum: " + format_quantity(kSardanaN, Unit::count) + " params, " +
                              format_quantity(kSardanaD, Unit::count) + " tokens";
  CHECK(optimum == "optimum: 24.2B params, 2.66T tokens");
  CHECK_THAT(text, Catch::Contains(optimum));
  const double lifetime = 6 * kSardanaN * kSardanaD + 2 * kSardanaN * kServed;
  CHECK(any_near(numbers_before(text, " FLOPs lifetime"), lifetime, 5e-3));
  CHECK_THAT(text, Catch::Contains("Chinchilla, same loss: "));
  CHECK(any_near(numbers_before(text, "B params, "), kSardanaN / 0.7096 / 1e9, 5e-3));  // 34.1B
  CHECK(any_near(numbers_before(text, "T tokens"), kSardanaD / 1.4677 / 1e12, 5e-3));   // 1.81T
  CHECK_THAT(text, Catch::Contains("L = 1.947 (target)"));
  CHECK_THAT(text, Catch::Contains("law sardana2024"));  // the title says what was assumed
  for (const char* tic : {"1B", "10B", "100B", "1T", "10T", "100T"}) {
    CHECK_THAT(text, Catch::Contains(std::string("\n") + tic + "\n"));  // tics as 2T, not 2e12
  }
}

TEST_CASE("plot isoloss: the talk's heuristic beside its optimum", "[plot][gnuplot]") {
  const std::string text = plotted_svg_text("isoloss", example("frontier_100x.toml"));
  // The heuristic: N = 100B (the architecture), D = the served tokens, 50M/s for two months.
  const double served = 50e6 * 2 * 365.25 * 86400 / 12;
  CHECK_THAT(text, Catch::Contains("heuristic: 100B params, " +
                                   format_quantity(served, Unit::count) + " tokens"));
  CHECK_THAT(text, Catch::Contains("optimum: "));
  CHECK_THAT(text, Catch::Contains("Chinchilla rule D = 20 N"));
}

TEST_CASE("plot phases: the plans' costs by phase, with shares and totals", "[plot][gnuplot]") {
  const std::string text = plotted_svg_text("phases", example("sardana_compute.toml"));
  const double pretrain = 6 * kSardanaN * kSardanaD, inference = 2 * kSardanaN * kServed;
  CHECK_THAT(text, Catch::Contains("total "));
  CHECK(any_near(numbers_before(text, " FLOPs\n"), pretrain + inference, 5e-3));  // the totals
  CHECK(any_near(numbers_before(text, " FLOPs ("), pretrain, 5e-3));              // a segment
  CHECK(any_near(numbers_before(text, "%)"), 100 * pretrain / (pretrain + inference), 2e-3));
  CHECK_THAT(text, Catch::Contains("24.2B params, 2.66T tokens"));

  // The talk: equal thirds, each the cost of serving 2.63e14 tokens with 2N FLOPs per token
  // on H100s (989 TFLOP/s bf16) at a third of the 40% training MFU and $2 per hour.
  const std::string talk = plotted_svg_text("phases", example("frontier_100x.toml"));
  const double served = 50e6 * 2 * 365.25 * 86400 / 12;
  const double third = 2 * 100e9 * served / (989e12 * 0.4 / 3) / 3600 * 2;
  CHECK_THAT(talk, Catch::Contains(format_quantity(third, Unit::usd) + " (33.3%)"));
  CHECK_THAT(talk, Catch::Contains("total " + format_quantity(3 * third, Unit::usd)));
  CHECK_THAT(talk, Catch::Contains("heuristic (equal-cost shares)"));
  CHECK_THAT(talk, Catch::Contains("optimum (same loss)"));
}

TEST_CASE("plot cost-vs-context: S* marked where the datasheet puts it, and the price list",
          "[plot][gnuplot]") {
  const std::string text = plotted_svg_text("cost-vs-context", example("gemini_200k.toml"));
  // S* = 2 N W / (F kv): 100B active, H100 3.35 TB/s and 1979 TFLOP/s fp8, 1.7 KB per token.
  const double s_star = 2 * 100e9 * 3.35e12 / (1979e12 * 1700);
  CHECK_THAT(text, Catch::Contains("S* = " + format_quantity(s_star, Unit::count) + " tokens"));
  CHECK_THAT(text, Catch::Contains("Gemini 2.5 Pro (paid tier): output price"));
  for (const char* tic : {"1K", "10K", "100K", "1M", "$0.01", "$1", "$10"}) {
    CHECK_THAT(text, Catch::Contains(std::string("\n") + tic + "\n"));
  }
}

TEST_CASE("plot: PNG of every kind, its header and size those the script asked for",
          "[plot][gnuplot]") {
  const std::pair<const char*, const char*> cases[] = {{"isoloss", "sardana_cost.toml"},
                                                       {"phases", "budget_plan.toml"},
                                                       {"cost-vs-context", "gemini_200k.toml"}};
  for (const auto& [kind, scenario] : cases) {
    const scaleopt::report::TemporaryDirectory directory;
    const std::string out = directory.file("figure.png");
    REQUIRE(run_cli({"plot", kind, example(scenario), "--out", out}).status == 0);
    // The size the script sets, read from the script --script writes for the same figure.
    const std::string scripts = directory.file("scripts");
    REQUIRE(run_cli({"plot", kind, example(scenario), "--out", out, "--script", scripts}).status ==
            0);
    std::string name = kind;
    std::replace(name.begin(), name.end(), '-', '_');
    std::smatch size;
    const std::string script = read_file(scripts + "/" + name + ".gp");
    REQUIRE(std::regex_search(script, size, std::regex("pngcairo size (\\d+),(\\d+)")));
    const std::string bytes = read_file(out);
    const PngHeader header = png_header(bytes);
    CHECK(header.signature);
    CHECK(header.width == std::stoul(size[1]));
    CHECK(header.height == std::stoul(size[2]));
    const auto image = decode_png(out);
    REQUIRE(image.has_value());
    CHECK(image->pixels.size() == std::size_t{header.width} * header.height);
    std::vector<std::uint32_t> colours(image->pixels);
    std::sort(colours.begin(), colours.end());
    CHECK(std::unique(colours.begin(), colours.end()) - colours.begin() > 20);  // not blank
  }
}

TEST_CASE("plot --script: the script and its data, drawn by gnuplot in that directory",
          "[plot][gnuplot]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string scripts = directory.file("src");
  const CliRun run = run_cli({"plot", "isoloss", example("sardana_compute.toml"), "--out",
                              directory.file("map.svg"), "--script", scripts});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("isoloss.gp"));
  CHECK_FALSE(std::filesystem::exists(directory.file("map.svg")));  // not drawn
  const std::string script = read_file(scripts + "/isoloss.gp");
  CHECK_THAT(script, Catch::Contains("set output 'map.svg'"));
  CHECK_THAT(script, !Catch::Contains("\ncd "));  // data files named relative to the script
  CHECK(std::filesystem::exists(scripts + "/isoloss_target.dat"));
  const auto drawn = scaleopt::report::run_program(
      "gnuplot", {"-e", "cd '" + scripts + "'", scripts + "/isoloss.gp"});
  INFO(drawn.output);
  REQUIRE(drawn.succeeded());
  const auto text = svg_text(read_file(scripts + "/map.svg"));
  REQUIRE(text.has_value());
  CHECK_THAT(*text, Catch::Contains("optimum: 24.2B params, 2.66T tokens"));
}

TEST_CASE("plot: an infeasible scenario fails with the solver's message and leaves no file",
          "[plot][gnuplot]") {
  for (const char* kind : {"isoloss", "phases"}) {
    const scaleopt::report::TemporaryDirectory directory;
    const CliRun run = run_cli({"plot", kind, example("sardana_cost.toml"), "--out",
                                directory.file("x.svg"), "--set", "problem.target_loss=1.5"});
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains("infeasible: target loss 1.5 is at or below"));
    CHECK(files_in(directory.path()).empty());
  }
  const scaleopt::report::TemporaryDirectory directory;
  const CliRun run = run_cli({"plot", "cost-vs-context", example("gemini_200k.toml"), "--out",
                              directory.file("x.png"), "--set", "inference.chips=1"});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("inference"));
  CHECK(files_in(directory.path()).empty());
}

TEST_CASE("plot: bad kinds, formats and scenarios are one-line errors", "[plot]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string svg = directory.file("x.svg");
  CHECK_THAT(
      run_cli({"plot", "pie", example("sardana_compute.toml"), "--out", svg}).err,
      Catch::Contains("unknown plot 'pie': expected one of isoloss, cost-vs-context, "
                      "cost-vs-context-models, phases, sweep, tornado, uncertainty, rl-shares"));
  const CliRun pdf = run_cli(
      {"plot", "isoloss", example("sardana_compute.toml"), "--out", directory.file("x.pdf")});
  CHECK(is_one_line_error(pdf));
  CHECK_THAT(pdf.err, Catch::Contains("--out: the format comes from the extension"));
  CHECK(is_one_line_error(run_cli({"plot", "isoloss", "no-such.toml", "--out", svg})));
  const CliRun no_problem = run_cli({"plot", "phases", example("gemini_200k.toml"), "--out", svg});
  CHECK(is_one_line_error(no_problem));
  CHECK_THAT(no_problem.err, Catch::Contains("problem.kind: required"));
  CHECK(files_in(directory.path()).empty());
}

namespace {

// PATH set to one directory for the length of a test (ctest runs each test case alone).
class PathOverride {
 public:
  explicit PathOverride(const std::string& path) : saved_(std::getenv("PATH")) {
    ::setenv("PATH", path.c_str(), 1);
  }
  ~PathOverride() { ::setenv("PATH", saved_.c_str(), 1); }

 private:
  std::string saved_;
};

}  // namespace

TEST_CASE("plot: without gnuplot the error says how to install it, and no file is left", "[plot]") {
  const scaleopt::report::TemporaryDirectory empty, directory;
  const PathOverride path(empty.path());
  const CliRun run = run_cli(
      {"plot", "isoloss", example("sardana_compute.toml"), "--out", directory.file("x.svg")});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("gnuplot not found on PATH") &&
                          Catch::Contains("scripts/install-deps") &&
                          Catch::Contains("apt-get install gnuplot-nox"));
  CHECK(files_in(directory.path()).empty());
}

TEST_CASE("plot: when gnuplot fails, its message is quoted and its half-written file removed",
          "[plot]") {
  const scaleopt::report::TemporaryDirectory fake, directory;
  // A gnuplot that writes part of the figure where the script points, then fails.
  const std::string gnuplot = fake.file("gnuplot");
  std::ofstream(gnuplot) << "#!/bin/sh\n"
                            "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
                            "printf '<svg' > \"$out\"\n"
                            "echo '\"isoloss.gp\" line 12: undefined variable: oops' >&2\n"
                            "exit 1\n";
  ::chmod(gnuplot.c_str(), 0755);
  // First on PATH, before the real gnuplot (sh and sed still found after it).
  const PathOverride path(fake.path() + ":" + std::getenv("PATH"));
  const CliRun run = run_cli(
      {"plot", "isoloss", example("sardana_compute.toml"), "--out", directory.file("x.svg")});
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("gnuplot failed drawing isoloss (exit status 1)") &&
                          Catch::Contains("undefined variable: oops"));
  CHECK(files_in(directory.path()).empty());
}

TEST_CASE("docs/plots.md shows every kind, with images that exist", "[plot][docs]") {
  const std::string docs = read_file(std::string(SCALEOPT_SOURCE_DIR) + "/docs/plots.md");
  for (const char* kind : {"isoloss", "cost-vs-context", "cost-vs-context-models", "phases",
                           "sweep", "tornado", "uncertainty", "rl-shares"}) {
    CHECK_THAT(docs, Catch::Contains(std::string("scaleopt plot ") + kind + " "));
  }
  const std::regex image(R"(!\[[^\]]*\]\((figures/[^)]+\.png)\))");
  int images = 0;
  for (auto it = std::sregex_iterator(docs.begin(), docs.end(), image);
       it != std::sregex_iterator(); ++it, ++images) {
    const std::string path = std::string(SCALEOPT_SOURCE_DIR) + "/docs/" + (*it)[1].str();
    INFO(path);
    CHECK(png_header(read_file(path)).signature);
  }
  CHECK(images >= 3);
}

TEST_CASE("plot sweep: lines from a real sweep file, a falling curve left unmarked",
          "[plot][gnuplot][sweep]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string csv = directory.file("sweep.csv");
  const CliRun swept = run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                                "inference.requests=1e8..1e12:log:9", "--vary",
                                "inference.decode_mfu=0.1..0.3:3", "--out", csv, "--threads", "1"});
  INFO(swept.err);
  REQUIRE(swept.status == 0);
  const std::string svg = directory.file("sweep.svg");
  const CliRun run = run_cli({"plot", "sweep", csv, "--out", svg});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto text = svg_text(read_file(svg));
  REQUIRE(text.has_value());
  // More demand, smaller models (Sardana et al.): on every line the parameters fall towards
  // 1e12 requests, the end of the range, which is no optimum: nothing is marked, and the key
  // and the output say so.
  const std::string falls =
      "params falls over the whole range of inference.requests on every line: no interior "
      "minimum";
  CHECK_THAT(*text, Catch::Contains(falls) && !Catch::Contains("lowest params"));
  CHECK_THAT(run.out, Catch::Contains("Note: " + falls));
  for (const char* legend : {"\n0.1\n", "\n0.2\n", "\n0.3\n", "\n100M\n", "\n1T\n"}) {
    CHECK_THAT(*text, Catch::Contains(legend));
  }
  CHECK_THAT(*text, Catch::Contains("27 of 27 rows drawn"));
  // Another output, one line, as PNG.
  const std::string png = directory.file("sweep.png");
  REQUIRE(run_cli({"plot", "sweep", csv, "--y", "cost.total.usd", "--series", "none", "--x",
                   "inference.requests", "--out", png})
              .status == 0);
  CHECK(png_header(read_file(png)).signature);
  // Columns that are not there are named.
  const CliRun bad = run_cli({"plot", "sweep", csv, "--y", "nonsense", "--out", svg});
  CHECK(is_one_line_error(bad));
  CHECK_THAT(bad.err, Catch::Contains("--y: no column 'nonsense'"));
  const CliRun not_varied = run_cli({"plot", "sweep", csv, "--x", "training.mfu", "--out", svg});
  CHECK_THAT(not_varied.err, Catch::Contains("--x: 'training.mfu' is not an input varied by"));
  const CliRun scenario = run_cli({"plot", "sweep", example("sardana_cost.toml"), "--out", svg});
  CHECK_THAT(scenario.err, Catch::Contains("not a sweep file"));
  CHECK_THAT(
      run_cli({"plot", "isoloss", example("sardana_cost.toml"), "--y", "loss", "--out", svg}).err,
      Catch::Contains("only for plot sweep"));
}

TEST_CASE("plot sweep: only an interior minimum is marked; token axes say 1e15, not 1P",
          "[plot][sweep]") {
  // A sweep file written by hand, so that every curve's shape is known: along x, params dips
  // to 20B at 100T (both neighbours higher), pretrain_tokens rises, loss falls, and the cost
  // rises, then falls to its lowest at the last point.
  const scaleopt::report::TemporaryDirectory directory;
  const std::string csv = directory.file("sweep.csv");
  {
    std::ofstream file(csv);
    file << "point,points,inference.tokens,params,pretrain_tokens,loss,cost.total.usd,status\n"
            "1,5,1e12,5e10,1e13,2.2,3e6,converged\n"
            "2,5,1e13,3e10,5e13,2.1,5e6,converged\n"
            "3,5,1e14,2e10,2e14,2.0,4e6,converged\n"
            "4,5,1e15,2.5e10,6e14,1.95,2e6,converged\n"
            "5,5,1e16,4e10,1e15,1.9,1e6,converged\n";
  }
  const std::string scripts = directory.file("src");
  const auto plotted = [&](const std::string& y) {
    const CliRun run =
        run_cli({"plot", "sweep", csv, "--y", y, "--out", "sweep.svg", "--script", scripts});
    INFO(run.err);
    REQUIRE(run.status == 0);
    return std::pair{run.out, read_file(scripts + "/sweep.gp")};
  };
  // The dip: circled and labelled, nothing said in the output.
  const auto [dip_out, dip] = plotted("params");
  CHECK_THAT(dip, Catch::Contains("'lowest params: 20B'") &&
                      Catch::Contains("'at inference.tokens = 100T'") &&
                      Catch::Contains("set arrow 1"));
  CHECK_THAT(dip_out, !Catch::Contains("Note:"));
  // Rising tokens: the lowest is the first point, an end of the range: no marker; the key and
  // the output say why.
  const std::string rises =
      "pretrain_tokens rises over the whole range of inference.tokens: no interior minimum";
  const auto [rising_out, rising] = plotted("pretrain_tokens");
  CHECK_THAT(rising, !Catch::Contains("lowest") && !Catch::Contains("set arrow") &&
                         !Catch::Contains("set label 1 ") && Catch::Contains("'" + rises + "'"));
  CHECK_THAT(rising_out, Catch::Contains("Note: " + rises + "\n"));
  // Tokens from 1e13 to 1e15 on y, 1e12 to 1e16 on x: T up to 100T, then the exponent form.
  CHECK_THAT(rising, Catch::Contains("'10T' 1e+13") && Catch::Contains("'100T' 1e+14") &&
                         Catch::Contains("'1e15' 1e+15") && Catch::Contains("'1e16' 1e+16"));
  CHECK_THAT(rising, !Catch::Contains("'1P'") && !Catch::Contains("'10P'"));
  // Falling loss, and a cost that is not monotone but lowest at the last point (1e16).
  const auto [falling_out, falling] = plotted("loss");
  CHECK_THAT(falling_out, Catch::Contains("Note: loss falls over the whole range of "
                                          "inference.tokens: no interior minimum"));
  CHECK_THAT(falling, !Catch::Contains("lowest"));
  const auto [end_out, end] = plotted("cost.total.usd");
  CHECK_THAT(end_out, Catch::Contains("Note: lowest cost.total.usd at an end of the range of "
                                      "inference.tokens (inference.tokens = 1e16): no interior "
                                      "minimum"));
  CHECK_THAT(end, !Catch::Contains("set arrow"));
}

TEST_CASE("plot sweep --mark: the reader's points drawn with their labels, the axes widened",
          "[plot][gnuplot][sweep]") {
  const scaleopt::report::TemporaryDirectory directory;
  const std::string csv = directory.file("sweep.csv");
  REQUIRE(run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                   "inference.requests=1e8..1e12:log:5", "--out", csv, "--threads", "1"})
              .status == 0);
  const std::string svg = directory.file("marked.svg");
  // The optima have 10-100B parameters (Sardana et al.: tens of billions at these demands); a
  // claim of 50T parameters lies far above, so the log axis must reach its decade, 100T.
  const auto drawn = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"plot", "sweep", csv, "--out", svg};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliRun run = run_cli(args);
    INFO(run.err);
    REQUIRE(run.status == 0);
    const auto text = svg_text(read_file(svg));
    REQUIRE(text.has_value());
    return *text;
  };
  const std::string plain = drawn({});
  CHECK_THAT(plain, !Catch::Contains("100T"));
  const std::string marked =
      drawn({"--mark", "1e10,50T,a claim of 50T", "--mark", "1e9,2e10,second, with a comma"});
  CHECK_THAT(marked, Catch::Contains("a claim of 50T"));
  CHECK_THAT(marked, Catch::Contains("second, with a comma"));
  CHECK_THAT(marked, Catch::Contains("100T"));
  // Bad marks: one line naming the flag, exit 2, no figure.
  const std::string none = directory.file("none.svg");
  const auto refused = [&](std::vector<std::string> extra, const std::string& message) {
    std::vector<std::string> args = {"plot", "sweep", csv, "--out", none};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliRun run = run_cli(args);
    CHECK(run.status == 2);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(message));
    CHECK_FALSE(std::filesystem::exists(none));
  };
  refused({"--mark", "1e10"}, "--mark: expected X,Y[,LABEL]");
  refused({"--mark", "1e10,many,label"}, "--mark '1e10,many,label': cannot read 'many'");
  refused({"--mark", "1e10,1e10," + std::string(201, 'x')}, "--mark: a label of at most 200");
  std::vector<std::string> many;
  for (int i = 0; i < 21; ++i) many.insert(many.end(), {"--mark", "1,1"});
  refused(many, "--mark: at most 20 points, got 21");
  CHECK_THAT(
      run_cli({"plot", "isoloss", example("sardana_cost.toml"), "--mark", "1,1", "--out", none})
          .err,
      Catch::Contains("only for plot sweep"));
}

TEST_CASE("plot tornado: inputs ranked by swing around the labelled base", "[plot][gnuplot]") {
  const std::string text = plotted_svg_text("tornado", example("sardana_cost.toml"));
  // Sardana et al.'s cost example: N = 2.053e10 at the base.
  CHECK_THAT(text, Catch::Contains("base: params = " + format_quantity(2.053e10, Unit::count)));
  // alpha = 0.336 moved by -+20% swings the answer most; solve at -20% says where it goes.
  CHECK_THAT(text, Catch::Contains("law.alpha (0.2688 .. 0.4032)"));
  const CliRun low =
      run_cli({"solve", example("sardana_cost.toml"), "--json", "--set", "law.alpha=0.2688"});
  REQUIRE(low.status == 0);
  const std::string moved = format_quantity(low.json()["params"].get<double>(), Unit::count);
  CHECK_THAT(text, Catch::Contains(std::string("\n").append(moved).append("\n")));
  // Ranked: the largest swing on top (the smallest y on the page of the tic labels).
  const scaleopt::report::TemporaryDirectory directory;
  REQUIRE(
      run_cli({"plot", "tornado", example("sardana_cost.toml"), "--out", directory.file("t.svg")})
          .status == 0);
  const std::string svg = read_file(directory.file("t.svg"));
  auto height_of = [&](const std::string& label) {
    std::smatch m;
    const std::regex at(R"(translate\([0-9.]+,([0-9.]+)\)[^>]*>\s*<text>)" + label);
    return std::regex_search(svg, m, at) ? std::stod(m[1]) : -1.0;
  };
  const double alpha = height_of(R"(law\.alpha \()"), beta = height_of(R"(law\.beta \()");
  CHECK(alpha > 0.0);
  CHECK(alpha < beta);
  const CliRun bad = run_cli({"plot", "tornado", example("sardana_cost.toml"), "--rank-by", "speed",
                              "--out", directory.file("x.svg")});
  CHECK(is_one_line_error(bad));
  CHECK_THAT(bad.err, Catch::Contains("--rank-by: unknown output 'speed'"));
}

TEST_CASE("plot uncertainty: histograms of every converged sample, the quantiles marked",
          "[plot][gnuplot]") {
  const std::string text =
      plotted_svg_text("uncertainty", example("frontier_uncertain.toml"), {"--samples", "2000"});
  // The quantiles `scaleopt uncertainty` reports for the same samples.
  const CliRun mc =
      run_cli({"uncertainty", example("frontier_uncertain.toml"), "--samples", "2000", "--json"});
  REQUIRE(mc.status == 0);
  const auto j = mc.json();
  for (const char* q : {"p05", "p50", "p95"}) {
    const std::string name = q == std::string("p05")   ? "5%"
                             : q == std::string("p50") ? "50%"
                                                       : "95%";
    CHECK_THAT(text, Catch::Contains(
                         name + ": " +
                         format_quantity(j["quantiles"]["params"][q].get<double>(), Unit::count)));
  }
  // Every converged sample is in each histogram once.
  const scaleopt::report::TemporaryDirectory directory;
  REQUIRE(run_cli({"plot", "uncertainty", example("frontier_uncertain.toml"), "--samples", "2000",
                   "--out", directory.file("u.svg"), "--script", directory.path()})
              .status == 0);
  std::istringstream data(read_file(directory.file("uncertainty_1.dat")));
  std::string line;
  double counted = 0.0;
  while (std::getline(data, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cells(line);
    double c[6];
    for (double& v : c) cells >> v;
    counted += c[5];
  }
  CHECK(counted == j["converged"].get<double>());
  CHECK_THAT(run_cli({"plot", "uncertainty", example("sardana_cost.toml"), "--out",
                      directory.file("x.svg")})
                 .err,
             Catch::Contains("uncertainty"));
}

TEST_CASE("plot rl-shares: each point is the optimum solve gives", "[plot][rl_returns]") {
  const scaleopt::report::TemporaryDirectory directory;
  REQUIRE(run_cli({"plot", "rl-shares", example("frontier_rl.toml"), "--out",
                   directory.file("r.svg"), "--script", directory.path()})
              .status == 0);
  // Rows of (max_gain, RL share, half_ratio); the scenario's own point is G 20, r_half 0.005.
  std::istringstream data(read_file(directory.file("sweep.dat")));
  std::string line;
  int rows = 0;
  double share = -1.0;
  while (std::getline(data, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cells(line);
    double c[3];
    for (double& v : c) cells >> v;
    ++rows;
    if (c[0] == 20.0 && c[2] == 0.005) share = c[1];
  }
  CHECK(rows == 50);  // 10 gains x 5 ratios, all converged on this scenario
  const CliRun solve = run_cli({"solve", example("frontier_rl.toml"), "--json"});
  REQUIRE(solve.status == 0);
  CHECK(share == Approx(solve.json()["optimum"]["cost_shares"]["rl"].get<double>()).epsilon(1e-9));
}

TEST_CASE("plot sweep: the optimum's N and D against the stock of unique tokens",
          "[plot][gnuplot][sweep]") {
  // The figure of docs/validation.md, "The data wall": examples/frontier_data_wall.toml swept
  // over data.unique_tokens. Less stock, fewer tokens (each repeat is worth less than a fresh
  // one): D rises with the stock, so the figure marks no minimum and says why.
  const scaleopt::report::TemporaryDirectory directory;
  const std::string csv = directory.file("wall.csv");
  const CliRun swept =
      run_cli({"sweep", example("frontier_data_wall.toml"), "--vary",
               "data.unique_tokens=10T..1000T:log:3", "--out", csv, "--threads", "1"});
  INFO(swept.err);
  REQUIRE(swept.status == 0);
  // solve at the ends of the range: D at 10T below D at 1000T, and at 1000T (more than the
  // plan uses: nothing repeats) the answer with unlimited data.
  const auto optimum_tokens = [](const std::vector<std::string>& sets) {
    std::vector<std::string> args{"solve", example("frontier_data_wall.toml"), "--json"};
    for (const std::string& set : sets) args.insert(args.end(), {"--set", set});
    const CliRun solved = run_cli(args);
    REQUIRE(solved.status == 0);
    return solved.json()["optimum"]["pretrain_tokens"].get<double>();
  };
  const double at_10t = optimum_tokens({"data.unique_tokens=10T"});
  const double at_1000t = optimum_tokens({"data.unique_tokens=1000T"});
  CHECK(at_10t < at_1000t);
  CHECK(at_1000t < 1000e12);
  CHECK(at_1000t == Approx(optimum_tokens({"data.unique_tokens=1e30"})).epsilon(1e-8));
  const std::string svg = directory.file("wall_tokens.svg");
  const CliRun run =
      run_cli({"plot", "sweep", csv, "--y", "optimum.pretrain_tokens", "--out", svg});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto text = svg_text(read_file(svg));
  REQUIRE(text.has_value());
  const std::string rises =
      "optimum.pretrain_tokens rises over the whole range of data.unique_tokens: no interior "
      "minimum";
  CHECK_THAT(*text, Catch::Contains(rises) && Catch::Contains("3 of 3 rows drawn"));
  CHECK_THAT(run.out, Catch::Contains("Note: " + rises));
  // N as PNG: decoded by libpng, with more than a background and one colour on it.
  const std::string png = directory.file("wall_params.png");
  REQUIRE(run_cli({"plot", "sweep", csv, "--y", "optimum.active_params", "--out", png}).status ==
          0);
  const auto image = decode_png(png);
  REQUIRE(image.has_value());
  CHECK(image->width > 400);
  CHECK(image->height > 300);
  std::vector<std::uint32_t> colours = image->pixels;
  std::sort(colours.begin(), colours.end());
  CHECK(std::unique(colours.begin(), colours.end()) - colours.begin() > 2);
}
