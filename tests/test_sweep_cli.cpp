// scaleopt sweep and merge: shards merged equal the unsharded sweep byte for byte, any thread
// count gives the same file, an interrupted sweep resumed equals an uninterrupted one, the
// columns are solve's JSON keys with solve's values, and bad input is one line and exit 2.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/analysis/sweep_grid.hpp"
#include "temp_file.hpp"

namespace {

namespace fs = std::filesystem;

// 3 x 40 = 120 points: two shard blocks of 64 at least, so three shards split unevenly.
const std::vector<std::string> kSweep = {"sweep",  example("sardana_cost.toml"),
                                         "--vary", "inference.decode_mfu=0.1..0.3:3",
                                         "--vary", "inference.requests=1e8..1e12:log:40"};

}  // namespace

TEST_CASE("sweep: three shards merged equal the unsharded sweep byte for byte", "[sweep]") {
  const TempDir dir("sweep_shards");
  REQUIRE(run_cli(with(kSweep, {"--out", dir.file("all.csv")})).status == 0);
  std::vector<std::string> shards;
  for (const char* shard : {"1/3", "2/3", "3/3"}) {
    shards.push_back(dir.file(std::string("shard") + shard[0] + ".csv"));
    const CliRun run = run_cli(with(kSweep, {"--shard", shard, "--out", shards.back()}));
    INFO(run.err);
    REQUIRE(run.status == 0);
  }
  // Shard 3 of 3 holds no block of 64 (points 0-63 go to shard 1, 64-119 to shard 2): the 7
  // provenance lines and a header.
  const std::string third = read_file(shards[2]);
  CHECK(std::count(third.begin(), third.end(), '\n') == 7 + 1);
  const CliRun merge =
      run_cli({"merge", shards[2], shards[0], shards[1], "-o", dir.file("merged.csv")});
  INFO(merge.err);
  REQUIRE(merge.status == 0);
  const std::string all = read_file(dir.file("all.csv"));
  // Provenance, header, 120 rows, a checksum line after each of the two blocks.
  CHECK(std::count(all.begin(), all.end(), '\n') == 7 + 1 + 120 + 2);
  CHECK(read_file(dir.file("merged.csv")) == all);
}

TEST_CASE("sweep: shards take interleaved blocks, counted without visiting them", "[sweep]") {
  for (std::size_t points : {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4096, 10007}) {
    for (std::size_t n : {1, 2, 3, 7, 64}) {
      std::size_t total = 0;
      for (std::size_t i = 1; i <= n; ++i) {
        const scaleopt::Shard shard{i, n};
        std::size_t counted = 0;
        for (std::size_t p = 0; p < points; ++p) counted += scaleopt::in_shard(p, shard);
        INFO(points << " points, shard " << i << "/" << n);
        CHECK(scaleopt::shard_points(points, shard) == counted);
        total += counted;
      }
      CHECK(total == points);
    }
  }
}

TEST_CASE("sweep: the same file with 1 and 2 threads, fast path and NLopt", "[sweep]") {
  const TempDir dir("sweep_threads");
  for (const char* method : {"auto", "nlopt"}) {
    const auto args = with(kSweep, {"--method", method});
    REQUIRE(run_cli(with(args, {"--threads", "1", "--out", dir.file("one.csv")})).status == 0);
    REQUIRE(run_cli(with(args, {"--threads", "2", "--out", dir.file("two.csv")})).status == 0);
    CHECK(read_file(dir.file("one.csv")) == read_file(dir.file("two.csv")));
    const std::string text = read_file(dir.file("one.csv"));
    const std::string algorithm = method == std::string("auto") ? "1-D Newton" : "LD_SLSQP";
    CHECK(text.find("," + algorithm) != std::string::npos);
  }
}

TEST_CASE("sweep: the roofline takes the fast path, identically on any thread count", "[sweep]") {
  const TempDir dir("sweep_roofline");
  const std::vector<std::string> args = {"sweep", example("budget_plan.toml"), "--vary",
                                         "problem.budget_usd=$50M..$200M:log:3"};
  const CliRun one = run_cli(with(args, {"--threads", "1", "--out", dir.file("one.csv")}));
  INFO(one.err);
  REQUIRE(one.status == 0);
  CHECK_THAT(one.out, Catch::Contains("3 by the 1-D Newton fast path"));
  REQUIRE(run_cli(with(args, {"--threads", "2", "--out", dir.file("two.csv")})).status == 0);
  CHECK(read_file(dir.file("one.csv")) == read_file(dir.file("two.csv")));
  // --method nlopt still solves every point with NLopt.
  const CliRun nlopt = run_cli(with(args, {"--method", "nlopt", "--out", dir.file("nlopt.csv")}));
  REQUIRE(nlopt.status == 0);
  CHECK_THAT(nlopt.out, Catch::Contains("0 by the 1-D Newton fast path"));
  CHECK(read_file(dir.file("nlopt.csv")).find(",LD_SLSQP,") != std::string::npos);
}

TEST_CASE("sweep: stopped, then resumed, gives the uninterrupted file", "[sweep]") {
  const TempDir dir("sweep_resume");
  REQUIRE(run_cli(with(kSweep, {"--out", dir.file("whole.csv")})).status == 0);
  const std::string out = dir.file("resumed.csv");
  // --stop-after leaves OUT.partial as an interrupt does; a second stop adds to it.
  const CliRun first = run_cli(with(kSweep, {"--out", out, "--stop-after", "50", "--json"}));
  REQUIRE(first.status == 0);
  CHECK(first.json()["complete"] == false);
  CHECK(first.json()["solved_points"] == 50);
  CHECK(first.json()["file"] == out + ".partial");
  CHECK_FALSE(fs::exists(out));
  REQUIRE(fs::exists(out + ".partial"));
  // Without --resume the partial file is not overwritten.
  const CliRun refused = run_cli(with(kSweep, {"--out", out}));
  CHECK(is_one_line_error(refused));
  CHECK_THAT(refused.err, Catch::Contains("--resume"));
  REQUIRE(run_cli(with(kSweep, {"--out", out, "--stop-after", "30", "--resume"})).status == 0);
  const CliRun last = run_cli(with(kSweep, {"--out", out, "--resume", "--threads", "2"}));
  INFO(last.out);
  REQUIRE(last.status == 0);
  CHECK_THAT(last.out, Catch::Contains("80 were already in"));
  CHECK_FALSE(fs::exists(out + ".partial"));
  CHECK(read_file(out) == read_file(dir.file("whole.csv")));
  // Resubmitted once finished (a job array run again): nothing to do, the file untouched.
  const CliRun again = run_cli(with(kSweep, {"--out", out, "--resume"}));
  REQUIRE(again.status == 0);
  CHECK_THAT(again.out, Catch::Contains("is complete: nothing to resume"));
  CHECK(read_file(out) == read_file(dir.file("whole.csv")));
}

TEST_CASE("sweep: a resumed shard's partial file, cut in a row, is repaired and finished",
          "[sweep]") {
  const TempDir dir("sweep_cut");
  const auto shard = with(kSweep, {"--shard", "2/2"});
  REQUIRE(run_cli(with(shard, {"--out", dir.file("whole.csv")})).status == 0);
  const std::string out = dir.file("cut.csv");
  REQUIRE(run_cli(with(shard, {"--out", out, "--stop-after", "20"})).status == 0);
  // A kill in the middle of a write: the last row lacks its end.
  std::string partial = read_file(out + ".partial");
  partial.resize(partial.size() - 7);
  std::ofstream(out + ".partial", std::ios::binary | std::ios::trunc) << partial;
  REQUIRE(run_cli(with(shard, {"--out", out, "--resume"})).status == 0);
  CHECK(read_file(out) == read_file(dir.file("whole.csv")));
}

TEST_CASE("sweep: resuming another sweep's partial file is refused", "[sweep]") {
  const TempDir dir("sweep_other");
  const std::string out = dir.file("s.csv");
  REQUIRE(run_cli(with(kSweep, {"--out", out, "--stop-after", "5"})).status == 0);
  const CliRun other =
      run_cli({"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:3",
               "--vary", "inference.requests=1e9..1e12:log:40", "--out", out, "--resume"});
  CHECK(is_one_line_error(other));
  CHECK_THAT(other.err, Catch::Contains(".partial: provenance field 'grid' differs"));
}

TEST_CASE("sweep: columns are solve's JSON keys, with solve's values", "[sweep]") {
  const TempDir dir("sweep_columns");
  const std::string out = dir.file("s.csv");
  REQUIRE(run_cli({"sweep", example("frontier_100x.toml"), "--vary",
                   "inference.rate=10M/s..100M/s:log:3", "--out", out})
              .status == 0);
  std::istringstream lines(read_file(out));
  std::string header, row;
  while (std::getline(lines, header) && header.starts_with("#")) {
  }
  std::getline(lines, row);
  std::getline(lines, row);  // point 1: 31.6M/s
  const auto columns = split(header), cells = split(row);
  REQUIRE(columns.size() == cells.size());
  CHECK(columns[2] == "inference.rate");
  const CliRun solve = run_cli(
      {"solve", example("frontier_100x.toml"), "--json", "--set", "inference.rate=" + cells[2]});
  REQUIRE(solve.status == 0);
  const nlohmann::json json = solve.json();
  int compared = 0;
  for (std::size_t c = 3; c < columns.size(); ++c) {
    // "cost.total.usd" -> /cost/total/usd
    std::string pointer = "/" + columns[c];
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    INFO(columns[c]);
    REQUIRE(json.contains(nlohmann::json::json_pointer(pointer)));
    const auto& value = json.at(nlohmann::json::json_pointer(pointer));
    if (value.is_number() && !cells[c].empty()) {
      const double expected = value.get<double>();
      // The fast path against NLopt: 1e-9 (tests/test_question_fast.cpp); residuals, which
      // are rounding noise on both sides, only as small numbers.
      if (columns[c].find("residual") != std::string::npos ||
          columns[c].find("violation") != std::string::npos) {
        CHECK(std::stod(cells[c]) < 1e-12);
      } else {
        CHECK(std::stod(cells[c]) == Approx(expected).epsilon(1e-9).margin(1e-300));
      }
      ++compared;
    } else if (value.is_string() && columns[c].find("algorithm") == std::string::npos) {
      CHECK(cells[c] == value.get<std::string>());
    }
  }
  CHECK(compared > 40);
}

TEST_CASE("sweep and merge: bad input is one line and exit 2", "[sweep]") {
  const TempDir dir("sweep_bad");
  const std::string out = dir.file("s.csv");
  auto sweep = [&](const std::vector<std::string>& more) {
    return run_cli(with({"sweep", example("sardana_cost.toml"), "--out", out}, more));
  };
  const CliRun unknown = sweep({"--vary", "inference.requets=1..2"});
  CHECK(is_one_line_error(unknown));
  CHECK_THAT(unknown.err, Catch::Contains("inference.requets: unknown numeric input (did you "
                                          "mean 'inference.requests'?)"));
  const CliRun empty = sweep({"--vary", "inference.requests=1e10..1e9"});
  CHECK(is_one_line_error(empty));
  CHECK_THAT(empty.err, Catch::Contains("--vary inference.requests=1e10..1e9: empty range"));
  CHECK(is_one_line_error(sweep({"--vary", "inference.requests=5..5"})));
  CHECK(is_one_line_error(sweep({"--vary", "inference.requests=1..2:1"})));
  CHECK(is_one_line_error(sweep({"--vary", "inference.requests=0..2:log"})));
  CHECK(is_one_line_error(sweep({"--vary", "inference.decode_mfu=0.5..1.5"})));  // MFU <= 1
  const CliRun shard = sweep({"--vary", "inference.requests=1..2", "--shard", "4/3"});
  CHECK(is_one_line_error(shard));
  CHECK_THAT(shard.err, Catch::Contains("--shard: shard index out of range"));
  CHECK(is_one_line_error(sweep({"--vary", "inference.requests=1..2", "--shard", "0/3"})));
  CHECK(is_one_line_error(sweep({"--vary", "inference.requests=1..2", "--shard", "x"})));
  CHECK(is_one_line_error(sweep({})));  // no --vary
  // A key that breaks a rule between keys at the first point: once, up front.
  const CliRun rule = run_cli({"sweep", example("frontier_100x.toml"), "--out", out, "--vary",
                               "problem.shares.pretrain=0.2..0.5"});
  CHECK(is_one_line_error(rule));
  CHECK_THAT(rule.err, Catch::Contains("first point"));
  CHECK_FALSE(fs::exists(out + ".partial"));

  // merge: a missing point, a point twice, different sweeps.
  REQUIRE(run_cli(with(kSweep, {"--shard", "1/2", "--out", dir.file("a.csv")})).status == 0);
  REQUIRE(run_cli(with(kSweep, {"--shard", "2/2", "--out", dir.file("b.csv")})).status == 0);
  const CliRun missing = run_cli({"merge", dir.file("a.csv"), "-o", dir.file("m.csv")});
  CHECK(is_one_line_error(missing));
  CHECK_THAT(missing.err, Catch::Contains("point 64 of 120 is missing"));
  const CliRun twice = run_cli(
      {"merge", dir.file("a.csv"), dir.file("b.csv"), dir.file("a.csv"), "-o", dir.file("m.csv")});
  CHECK(is_one_line_error(twice));
  CHECK_THAT(twice.err, Catch::Contains("point 0 appears twice"));
  REQUIRE(run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                   "inference.requests=1e8..1e12:log:5", "--out", dir.file("c.csv")})
              .status == 0);
  const CliRun other =
      run_cli({"merge", dir.file("a.csv"), dir.file("c.csv"), "-o", dir.file("m.csv")});
  CHECK(is_one_line_error(other));
  CHECK_THAT(other.err, Catch::Contains("provenance field 'grid' differs"));
  CHECK_FALSE(fs::exists(dir.file("m.csv")));
}

// The mixes of the issue that each used to exit 0 ("each point once", "complete"), now one line
// naming the provenance field, exit 2, and no output.

TEST_CASE("merge: a shard run under another --set is refused, naming the scenario", "[sweep]") {
  const TempDir dir("merge_other_set");
  REQUIRE(run_cli(with(kSweep, {"--shard", "1/2", "--out", dir.file("a.csv")})).status == 0);
  REQUIRE(run_cli(with(kSweep, {"--shard", "2/2", "--set", "training.mfu=0.45", "--out",
                                dir.file("b.csv")}))
              .status == 0);
  const CliRun merge =
      run_cli({"merge", dir.file("a.csv"), dir.file("b.csv"), "-o", dir.file("m")});
  CHECK(is_one_line_error(merge));
  CHECK_THAT(merge.err, Catch::Contains("b.csv: provenance field 'scenario' differs from") &&
                            Catch::Contains("another scenario file or --set"));
  CHECK_FALSE(fs::exists(dir.file("m")));
}

TEST_CASE("merge: a shard over another --vary range is refused, naming the grid", "[sweep]") {
  const TempDir dir("merge_other_range");
  REQUIRE(run_cli(with(kSweep, {"--shard", "1/2", "--out", dir.file("a.csv")})).status == 0);
  // Same axes, same 120 points, same header: only the range of inference.requests differs.
  REQUIRE(
      run_cli({"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:3",
               "--vary", "inference.requests=1e8..1e11:log:40", "--shard", "2/2", "--out",
               dir.file("b.csv")})
          .status == 0);
  const CliRun merge =
      run_cli({"merge", dir.file("a.csv"), dir.file("b.csv"), "-o", dir.file("m")});
  CHECK(is_one_line_error(merge));
  CHECK_THAT(merge.err, Catch::Contains("provenance field 'grid' differs"));
}

TEST_CASE("merge: every row's varied values are checked against the recorded grid", "[sweep]") {
  const TempDir dir("merge_values");
  REQUIRE(run_cli(with(kSweep, {"--shard", "1/2", "--out", dir.file("a.csv")})).status == 0);
  REQUIRE(run_cli(with(kSweep, {"--shard", "2/2", "--out", dir.file("b.csv")})).status == 0);
  // Point 64 (b.csv's first row) is decode_mfu 0.2 (64 / 40 = axis index 1 of 0.1, 0.2,
  // 0.3) and requests 10^(8 + 4 * 24/39): give it 0.3 instead, the rest of the row unchanged.
  std::string b = read_file(dir.file("b.csv"));
  const std::string row = "\n64,120,0.2,";
  const auto at = b.find(row);
  REQUIRE(at != std::string::npos);
  b.replace(at, row.size(), "\n64,120,0.3,");
  std::ofstream(dir.file("b.csv"), std::ios::binary | std::ios::trunc) << b;
  const CliRun merge =
      run_cli({"merge", dir.file("a.csv"), dir.file("b.csv"), "-o", dir.file("m")});
  CHECK(is_one_line_error(merge));
  CHECK_THAT(merge.err, Catch::Contains("point 64 has other values of the varied inputs"));
}

TEST_CASE("sweep: --resume after a change of grid or scenario refuses the finished file",
          "[sweep]") {
  const TempDir dir("resume_changed");
  const std::string out = dir.file("s.csv");
  auto sweep = [&](const std::string& requests, const std::vector<std::string>& more) {
    return run_cli(with({"sweep", example("sardana_cost.toml"), "--vary",
                         "inference.requests=" + requests, "--out", out},
                        more));
  };
  REQUIRE(sweep("1e8..1e12:log:20", {}).status == 0);
  const std::string before = read_file(out);
  const CliRun grid = sweep("1e8..1e12:log:50", {"--resume"});
  CHECK(is_one_line_error(grid));
  CHECK_THAT(grid.err, Catch::Contains("provenance field 'grid' differs"));
  const CliRun scenario = sweep("1e8..1e12:log:20", {"--resume", "--set", "training.mfu=0.45"});
  CHECK(is_one_line_error(scenario));
  CHECK_THAT(scenario.err, Catch::Contains("provenance field 'scenario' differs"));
  const CliRun method = sweep("1e8..1e12:log:20", {"--resume", "--method", "nlopt"});
  CHECK(is_one_line_error(method));
  CHECK_THAT(method.err, Catch::Contains("provenance field 'solver' differs"));
  CHECK(read_file(out) == before);
  // The same command still finds it complete.
  CHECK(sweep("1e8..1e12:log:20", {"--resume"}).status == 0);
}

TEST_CASE("sweep: stopped, then resumed with another --set, is refused", "[sweep]") {
  const TempDir dir("resume_other_set");
  const std::string out = dir.file("s.csv");
  REQUIRE(run_cli(with(kSweep, {"--out", out, "--stop-after", "70"})).status == 0);
  const std::string partial = read_file(out + ".partial");
  const CliRun other =
      run_cli(with(kSweep, {"--out", out, "--resume", "--set", "training.mfu=0.45"}));
  CHECK(is_one_line_error(other));
  CHECK_THAT(other.err, Catch::Contains("s.csv.partial: provenance field 'scenario' differs"));
  CHECK(read_file(out + ".partial") == partial);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("sweep: the same question written differently has the same provenance", "[sweep]") {
  const TempDir dir("same_question");
  // sardana_cost.toml reordered, without comments, numbers spelled otherwise, and --set to the
  // value the file has: the same question.
  const std::string rewritten = dir.file("rewritten.toml");
  std::ofstream(rewritten) << "[problem]\ntarget_loss = 1.9470\nkind = \"min-lifetime-cost\"\n"
                              "[inference]\noutput_tokens = 250\ninput_tokens = 1e3\n"
                              "requests = 1.0e10\ndecode_mfu = 0.2\nprefill_mfu = 0.4\n"
                              "pricing = \"mfu\"\nusd_per_chip_hour = \"$0.6/h\"\n"
                              "precision = \"int8\"\nhardware = \"a100-40g\"\n"
                              "[training]\nusd_per_chip_hour = \"$1.4/h\"\nmfu = 0.50\n"
                              "precision = \"bf16\"\nhardware = \"a100-80g\"\n"
                              "[law]\npreset = \"sardana2024\"\n";
  REQUIRE(run_cli(with(kSweep, {"--out", dir.file("all.csv")})).status == 0);
  REQUIRE(run_cli(with(kSweep, {"--shard", "1/2", "--out", dir.file("a.csv")})).status == 0);
  std::vector<std::string> other = kSweep;
  other[1] = rewritten;
  // inference.requests is varied: its value in the file does not change a row.
  REQUIRE(run_cli(with(other, {"--shard", "2/2", "--set", "training.mfu=0.5", "--set",
                               "inference.requests=3e9", "--out", dir.file("b.csv")}))
              .status == 0);
  const CliRun merge =
      run_cli({"merge", dir.file("a.csv"), dir.file("b.csv"), "-o", dir.file("m.csv")});
  INFO(merge.err);
  REQUIRE(merge.status == 0);
  CHECK(read_file(dir.file("m.csv")) == read_file(dir.file("all.csv")));
}

TEST_CASE("sweep: the provenance lines, and the merge's shard=all", "[sweep]") {
  const TempDir dir("provenance_lines");
  REQUIRE(run_cli(with(kSweep, {"--shard", "2/2", "--out", dir.file("b.csv")})).status == 0);
  std::istringstream lines(read_file(dir.file("b.csv")));
  std::vector<std::string> provenance;
  for (std::string line; std::getline(lines, line) && line.starts_with("#");) {
    provenance.push_back(line);
  }
  REQUIRE(provenance.size() == 7);
  CHECK(provenance[0] == "# scaleopt-provenance: schema=2");
  // The version `scaleopt --version` prints: one source for both (scaleopt_version()).
  const CliRun version = run_cli({"--version"});
  REQUIRE(version.status == 0);
  REQUIRE(version.out.starts_with("scaleopt "));
  CHECK(provenance[1] ==
        "# scaleopt-provenance: version=" + version.out.substr(9, version.out.find('\n') - 9));
  CHECK(provenance[2] == "# scaleopt-provenance: command=sweep");
  // The grid in base units, as the shortest text that reads back as the same double.
  CHECK(provenance[3] ==
        "# scaleopt-provenance: grid=inference.decode_mfu=0.1..0.3:lin:3 "
        "inference.requests=1e+08..1e+12:log:40");
  CHECK_THAT(provenance[4], Catch::Matches("# scaleopt-provenance: scenario=[0-9a-f]{16}"));
  CHECK_THAT(provenance[5], Catch::StartsWith("# scaleopt-provenance: solver=method=auto "));
  CHECK(provenance[6] == "# scaleopt-provenance: shard=2/2");
  // An uncertainty file is not a sweep's shard.
  REQUIRE(run_cli({"uncertainty", example("frontier_uncertain.toml"), "--samples", "20", "--seed",
                   "7", "--out", dir.file("u.csv")})
              .status != 2);
  const std::string u = read_file(dir.file("u.csv"));
  CHECK_THAT(u, Catch::Contains("# scaleopt-provenance: command=uncertainty\n") &&
                    Catch::Contains("# scaleopt-provenance: samples=20\n") &&
                    Catch::Contains("# scaleopt-provenance: seed=7\n"));
  const CliRun merge = run_cli({"merge", dir.file("u.csv"), "-o", dir.file("m.csv")});
  CHECK(is_one_line_error(merge));
  CHECK_THAT(merge.err, Catch::Contains("command: not a sweep file (command=uncertainty)"));
}
