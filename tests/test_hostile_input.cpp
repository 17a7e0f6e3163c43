// Hostile input (docs/reliability.md, "Bounded work, no inf or nan, contradictions refused"):
// every count has a documented maximum and is refused above it with the limit in the message;
// the stress run streams its records; no inf or nan is printed as an answer; a fit on data that
// cannot determine the law says so; contradictory flags are refused naming flags that exist.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/analysis/stress_check.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

namespace fs = std::filesystem;

// Removes the files a test names, before and after it.
struct Cleanup {
  std::vector<std::string> paths;
  explicit Cleanup(std::vector<std::string> p) : paths(std::move(p)) { remove(); }
  ~Cleanup() { remove(); }
  void remove() const {
    std::error_code ignored;
    for (const std::string& path : paths) fs::remove(path, ignored);
  }
};

// Whether `text` has "inf" or "nan" (any case) as a word: what a non-finite double prints as.
bool prints_non_finite(const std::string& text) {
  std::string word;
  auto bad = [&word] {
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return word == "inf" || word == "nan" || word == "infinity" || word == "infx";
  };
  for (const char c : text) {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += c;
      continue;
    }
    if (bad()) return true;
    word.clear();
  }
  return bad();
}

// A run for every (N, D) of `sizes` x `tokens`, its loss from epoch2024.
std::string runs_csv(const std::vector<double>& sizes, const std::vector<double>& tokens) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "N,D,loss\n";
  for (double n : sizes) {
    for (double d : tokens) {
      csv << n << "," << d << ","
          << 1.8172 + 482.01 / std::pow(n, 0.3478) + 2085.43 / std::pow(d, 0.3658) << "\n";
    }
  }
  return csv.str();
}

std::vector<std::string> fit_tokens_args(const std::string& path) {
  return {"fit", path, "--params-col", "N", "--tokens-col", "D", "--loss-col", "loss"};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Bounded work

TEST_CASE("every count flag is refused above its limit, with the limit in the message",
          "[cli][limits]") {
  const TempFile runs("limits_runs.csv", runs_csv({1e8, 1e9, 1e10}, {2e9, 2e10, 2e11}));
  const std::string out = temp_path("limits_sweep.csv");
  const std::string mc = example("frontier_uncertain.toml");
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"optimal", "--compute", "1e24", "--starts", "101"}, "--starts: at most 100 (the limit)"},
      {{"optimal", "--compute", "1e24", "--starts", "1000000000"},
       "--starts: at most 100 (the limit)"},
      {{"optimal", "--compute", "1e24", "--max-evaluations", "2e6"},
       "--max-evaluations: at most 1e6 (the limit)"},
      {{"selftest", "--instances", "2e9"}, "--instances: at most 1e9 (the limit)"},
      {{"selftest", "--threads", "5000"}, "--threads: at most 1024 (the limit)"},
      {{"uncertainty", mc, "--samples", "1000001"}, "--samples: at most 1e6 (the limit)"},
      {{"uncertainty", mc, "--threads", "100000"}, "--threads: at most 1024 (the limit)"},
      {{"plot", "uncertainty", mc, "--out", "mc.svg", "--samples", "2000000"},
       "--samples: at most 1e6 (the limit)"},
      {{"sensitivity", mc, "--threads", "1025"}, "--threads: at most 1024 (the limit)"},
      {with(fit_tokens_args(runs.path()), {"--bootstrap", "100001"}),
       "--bootstrap: at most 100000 (the limit)"},
      {with(fit_tokens_args(runs.path()), {"--threads", "4096"}),
       "--threads: at most 1024 (the limit)"},
      {{"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--points",
        "1000000000"},
       "--points: at most 10000 (the limit)"},
      {{"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--chips", "2e9"},
       "--chips: at most 1e9 (the limit)"},
      {{"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:2000000000",
        "--out", out},
       "the point count must be from 2 to 1e9 (the limit)"},
      {{"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:1000000",
        "--vary", "inference.requests=1e8..1e12:1000000", "--vary", "training.mfu=0.3..0.5:3",
        "--out", out},
       "more than 1e12 (the limit)"},
      {{"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:3",
        "--threads", "2000", "--out", out},
       "--threads: at most 1024 (the limit)"},
  };
  for (const auto& c : cases) {
    const CliRun run = run_cli(c.args);
    INFO(c.args.front() << " " << c.message << "\n" << run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(c.message));
  }
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("counts take the usual forms (1e2, 2K) but not fractions", "[cli][limits]") {
  const CliRun hundred =
      run_cli({"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--context",
               "1K..100K", "--points", "1e2", "--json"});
  REQUIRE(hundred.status == 0);
  CHECK(hundred.json()["points"].size() >= 100);
  const CliRun starts = run_cli({"optimal", "--compute", "1e24", "--starts", "2", "--json"});
  CHECK(starts.status == 0);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"optimal", "--compute", "1e24", "--starts", "1.5"},
           {"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--chips", "4.5"},
           {"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--batch", "2.5"},
           {"selftest", "--instances", "10.5"}}) {
    const CliRun run = run_cli(args);
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains("must be a whole number"));
  }
}

TEST_CASE("the stress run streams its records: 1e9 instances start at once", "[stress][limits]") {
  // Storing a record per instance asked bad_alloc for 1e9 of them before the first was solved.
  StressRunOptions options;
  options.instances = 1'000'000'000;
  options.threads = 1;
  std::uint64_t checked_when_asked = 0;
  options.stop = [&](std::uint64_t checked) {
    checked_when_asked = checked;
    return true;  // stop after the first block
  };
  const StressSummary summary = run_stress(options);
  CHECK(summary.instances == checked_when_asked);
  CHECK(summary.instances > 0);
  CHECK(summary.instances < 10'000);
}

TEST_CASE("the stress summary keeps the first failures and counts the rest", "[stress][limits]") {
  StressCheck failed;
  failed.outcome = StressOutcome::failed;
  failed.message = "a failure";
  StressSummary summary;
  for (std::uint64_t i = 0; i < 2500; ++i) summary.add(i, failed, 1000);
  CHECK(summary.instances == 2500);
  CHECK(summary.failure_count() == 2500);
  REQUIRE(summary.failures.size() == 1000);
  CHECK(summary.failures.front().index == 0);
  CHECK(summary.failures.back().index == 999);

  const CliRun run = run_cli({"selftest", "--instances", "20", "--json"});
  REQUIRE(run.status == 0);
  CHECK(run.json()["failures_not_listed"] == 0);
}

TEST_CASE("a sweep of more than 1e7 points notes its file size on stderr first",
          "[cli][sweep][limits]") {
  const std::string out = temp_path("huge_sweep.csv");
  const Cleanup files({out, out + ".partial"});
  // 10,001 x 1,001 = 10,011,001 points; one is solved.
  const CliRun run = run_cli(
      {"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:10001",
       "--vary", "inference.requests=1e8..1e12:log:1001", "--stop-after", "1", "--out", out});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK_THAT(run.err,
             Catch::StartsWith("scaleopt: note: " + out + " will hold 10011001 rows, about "));
  CHECK_THAT(run.err, Catch::Contains("GB (") && Catch::Contains(" bytes a row)"));
  CHECK_THAT(run.out, !Catch::Contains("note:"));
  // A small sweep says nothing.
  const std::string small = temp_path("small_sweep.csv");
  const Cleanup small_files({small, small + ".partial"});
  const CliRun quiet = run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                                "inference.decode_mfu=0.1..0.3:3", "--out", small});
  CHECK(quiet.status == 0);
  CHECK(quiet.err.empty());
}

// ---------------------------------------------------------------------------------------------
// No inf or nan as an answer

TEST_CASE("an answer that overflows is an error naming the input, not a converged plan",
          "[cli][solve][overflow]") {
  for (const bool json : {false, true}) {
    // (An MFU of 1e-300 is refused before any solve: below 1e-3 nothing trains or serves.)
    std::vector<std::string> args = {"solve", example("frontier_100x.toml"), "--set",
                                     "inference.rate=1e300/s"};
    if (json) args.push_back("--json");
    const CliRun run = run_cli(args);
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err,
               Catch::Contains("came out as inf") && Catch::Contains("inference.rate = 1e+300"));
  }
  // The same point in a sweep is a row whose status says so, its numbers empty.
  const std::string out = temp_path("overflow_sweep.csv");
  const Cleanup files({out, out + ".partial"});
  const CliRun sweep = run_cli({"sweep", example("frontier_100x.toml"), "--vary",
                                "inference.rate=1e7..1e300:log:2", "--out", out, "--json"});
  INFO(sweep.err);
  REQUIRE(sweep.status == 0);
  CHECK(sweep.json()["invalid_input"] == 1);
  const std::string rows = read_file(out);
  CHECK_THAT(rows, Catch::Contains(",invalid_input,"));
  CHECK_FALSE(prints_non_finite(rows));
}

TEST_CASE("an MFU or efficiency below a thousandth of peak is refused with its range",
          "[cli][scenario]") {
  // Decoding one sequence at a time on an H100 reaches 295 FLOP/byte peak against ~1 FLOP per
  // byte of bf16 weights read, ~3e-3 of peak: nothing meaningful lies below 1e-3.
  for (const char* key : {"training.mfu", "inference.decode_mfu", "inference.prefill_mfu"}) {
    const CliRun run =
        run_cli({"solve", example("sardana_cost.toml"), "--set", std::string(key) + "=1e-300"});
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(std::string(key) + ": must be in [0.001, 1], got 1e-300"));
  }
  const CliRun flag = run_cli({"roofline", "--model", "llama3-70b", "--hardware", "h100-sxm",
                               "--compute-efficiency", "1e-4"});
  CHECK(is_one_line_error(flag));
  CHECK_THAT(flag.err, Catch::Contains("--compute-efficiency: must be in [0.001, 1], got 0.0001"));
  // A percentage typed as a number is named as one, with both ways to write it.
  const CliRun percent =
      run_cli({"solve", example("sardana_cost.toml"), "--set", "training.mfu=40"});
  CHECK(is_one_line_error(percent));
  CHECK_THAT(percent.err,
             Catch::Contains("(a percentage? 40% is 0.4: training.mfu = 0.4 or \"40%\")"));
  // At the bound the answer is given (1e-3 is slow, not meaningless).
  CHECK(run_cli({"solve", example("sardana_cost.toml"), "--set", "training.mfu=1e-3"}).status == 0);
}

TEST_CASE("every command refuses an answer that overflowed, naming the input", "[cli][overflow]") {
  const std::string gemini = example("gemini_200k.toml");
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"cost", example("frontier_100x.toml"), "--set", "rl.rollout_tokens=1e300"},
       "rl.rollout_tokens = 1e+300"},
      {{"cost", example("frontier.toml"), "--set", "training.usd_per_chip_hour=1e306"},
       "training.usd_per_chip_hour = 1e+306"},
      {{"loss", "--params", "1e300", "--tokens", "1T"}, "--params = 1e+300"},
      {{"loss", "--params", "70B", "--tokens", "1T", "--beta", "1e-300"}, "law beta = 1e-300"},
      {{"optimal", "--params", "1e300"}, "--params = 1e+300"},
      {{"pricing", "infer-kv", "--breakpoint", "1e-300", "--active-params", "100B",
        "--flop-per-byte", "600"},
       "--breakpoint = 1e-300"},
      // Given chips: the replica grows to hold the context, and the answer overflows (a chosen
      // one refuses first, the context needing more nodes than the cap).
      {{"pricing", "long-context", "--context", "1e300", "--chips", "8"}, "--context = 1e+300"},
      {{"pricing", "curve", gemini, "--set", "inference.usd_per_chip_hour=1e300"},
       "inference.usd_per_chip_hour = 1e+300"},
      // (A context of 1e-300 no longer overflows: a prompt is prefilled as at least one token.)
      {{"pricing", "ratio", gemini, "--set", "inference.chips=1e300"}, "inference.chips = 1e+300"},
      {{"pricing", "cache", gemini, "--set", "inference.chips=1e300"}, "inference.chips = 1e+300"},
      {{"sensitivity", example("frontier_100x.toml"), "--set", "inference.rate=1e300/s"},
       "inference.rate = 1e+300"},
  };
  for (const auto& c : cases) {
    for (const bool json : {false, true}) {
      const CliRun run = run_cli(json ? with(c.args, {"--json"}) : c.args);
      INFO(c.args.front() << " " << c.message << "\n" << run.err << run.out);
      CHECK(is_one_line_error(run));
      CHECK_THAT(run.err, Catch::Contains("came out as") && Catch::Contains(c.message));
    }
  }
}

TEST_CASE("Monte Carlo with no converged sample prints no quantiles and exits 1",
          "[cli][uncertainty][overflow]") {
  std::string scenario = read_file(example("frontier_uncertain.toml"));
  const std::string mfu = R"("training.mfu" = { dist = "uniform", lo = 0.3, hi = 0.5 })";
  REQUIRE(scenario.find(mfu) != std::string::npos);
  // Every draw above 1: every sample invalid.
  scenario.replace(scenario.find(mfu), mfu.size(),
                   R"("training.mfu" = { dist = "uniform", lo = 2, hi = 3 })");
  const TempFile file("all_invalid.toml", scenario);
  const CliRun text = run_cli({"uncertainty", file.path(), "--samples", "50"});
  CHECK(text.status == 1);
  CHECK_THAT(text.out,
             Catch::StartsWith("STATUS: not_converged: none of the 50 samples converged"));
  CHECK_FALSE(prints_non_finite(text.out));
  const CliRun json = run_cli({"uncertainty", file.path(), "--samples", "50", "--json"});
  CHECK(json.status == 1);
  CHECK(json.json()["status"] == "not_converged");
  CHECK(json.json()["quantiles"]["params"]["p50"].is_null());
  CHECK(json.json()["invalid"] == 50);
}

TEST_CASE("draws whose optimum sits at the 1e30 bound are infeasible, not converged",
          "[cli][uncertainty][overflow]") {
  std::string scenario = read_file(example("frontier_uncertain.toml"));
  const std::string rate = R"(median = "50M/s", sigma = 0.7)";
  REQUIRE(scenario.find(rate) != std::string::npos);
  // Rates up to e^(3 x 30) times the median: inference so large that the cheapest plan would
  // train the smallest model on more than 1e30 tokens.
  scenario.replace(scenario.find(rate), rate.size(), R"(median = "50M/s", sigma = 30)");
  const TempFile file("bound_draws.toml", scenario);
  const std::string out = temp_path("bound_draws.csv");
  const Cleanup files({out});
  const CliRun run =
      run_cli({"uncertainty", file.path(), "--samples", "500", "--out", out, "--json"});
  INFO(run.err);
  REQUIRE(run.json()["infeasible"].get<int>() > 0);
  // No converged row at the bound.
  std::istringstream rows(read_file(out));
  std::string line;
  while (std::getline(rows, line) && line.starts_with("#")) {  // provenance lines
  }
  std::vector<std::string> header;
  for (std::stringstream cells(line); std::getline(cells, line, ',');) header.push_back(line);
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t tokens = column("pretrain_tokens"), status = column("status");
  REQUIRE(tokens < header.size());
  int converged = 0;
  while (std::getline(rows, line)) {
    std::vector<std::string> cells;
    for (std::stringstream stream(line); std::getline(stream, line, ',');) cells.push_back(line);
    if (cells.size() <= status || cells[status] != "converged") continue;
    ++converged;
    CHECK(std::stod(cells[tokens]) < 1e30 * (1 - 1e-9));
  }
  CHECK(converged == run.json()["converged"].get<int>());
}

// ---------------------------------------------------------------------------------------------
// A fit on data that cannot determine the law

TEST_CASE("fit: runs that cannot determine the law are not_identifiable, exit 1",
          "[cli][fit][identifiable]") {
  std::string identical = "N,D,loss\n";
  for (int i = 0; i < 25; ++i) identical += "1e9,2e10,2.5\n";
  const TempFile same("identical.csv", identical);
  const TempFile two_sizes("two_sizes.csv", runs_csv({1e8, 1e9}, {1e9, 2e9, 4e9, 8e9, 1.6e10}));
  const TempFile two_tokens("two_tokens.csv", runs_csv({1e8, 3e8, 1e9, 3e9}, {2e10, 4e10}));
  const TempFile four_runs("four_runs.csv",
                           "N,D,loss\n1e8,2e9,3.1\n2e8,4e9,2.9\n4e8,8e9,2.7\n"
                           "8e8,2e10,2.5\n");
  const struct {
    std::string path;
    std::string reason;
  } cases[] = {
      {same.path(),
       "the runs have 1 distinct model size N; separating E, A and alpha needs at "
       "least 3"},
      {two_sizes.path(), "the runs have 2 distinct model sizes N"},
      {two_tokens.path(),
       "the runs have 2 distinct token counts D; separating E, B and beta "
       "needs at least 3"},
      {four_runs.path(), "4 runs, fewer than the 5 coefficients E, A, B, alpha, beta"},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    const CliRun text = run_cli(fit_tokens_args(c.path));
    CHECK(text.status == 1);
    CHECK_THAT(text.out, Catch::StartsWith("STATUS: not_identifiable: " + c.reason));
    CHECK_THAT(text.out, !Catch::Contains("E + A / N^alpha"));  // no table of coefficients
    CHECK_FALSE(prints_non_finite(text.out));
    const CliRun json = run_cli(with(fit_tokens_args(c.path), {"--json"}));
    CHECK(json.status == 1);
    CHECK(json.json()["status"] == "not_identifiable");
    CHECK_THAT(json.json()["message"].get<std::string>(), Catch::StartsWith(c.reason));
    CHECK(json.json()["E"].is_null());
    CHECK(json.json()["tokens_per_param_at_1e24_flops"].is_null());
  }
  // No law is written from such data.
  const std::string law = temp_path("unidentifiable_law.toml");
  const Cleanup files({law});
  const CliRun emit = run_cli(with(fit_tokens_args(same.path()), {"--emit-law", law}));
  CHECK(emit.status == 1);
  CHECK_FALSE(fs::exists(law));
  // Three sizes and three token counts suffice.
  const TempFile enough("enough.csv", runs_csv({1e8, 1e9, 1e10}, {2e9, 2e10, 2e11}));
  CHECK(run_cli(fit_tokens_args(enough.path())).status == 0);
}

// ---------------------------------------------------------------------------------------------
// Contradictions

TEST_CASE("contradictory flags are refused, naming flags that exist", "[cli][contradictions]") {
  const TempFile law("contradiction_law.toml",
                     "[law]\nE = 1.8\nA = 480\nB = 2000\nalpha = 0.35\nbeta = 0.37\n");
  const std::string out = temp_path("contradiction_sweep.csv");
  const Cleanup files({out, out + ".partial"});
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"optimal", "--compute", "1e24", "--law", "epoch2024", "--law-file", law.path()},
       "--law-file: give --law or --law-file, not both"},
      {{"loss", "--params", "70B", "--tokens", "1T", "--law", "hoffmann2022", "--law-file",
        law.path()},
       "--law-file: give --law or --law-file, not both"},
      {{"pricing", "long-context", "--attention-flops", "--no-attention-flops"},
       "--no-attention-flops: contradicts --attention-flops"},
      {{"pricing", "long-context", "--context", "8K"},
       "--reference: the short context (8K, the default) must be below --context (8K)"},
      {{"pricing", "long-context", "--context", "100K", "--reference", "1M"},
       "--reference: the short context (1M) must be below --context (100K)"},
      {{"pricing", "long-context", "--kv-heads", "1000"},
       "--kv-heads: at most the model's 128 query heads (deepseek-v3.2), got 1000"},
      {{"pricing", "long-context", "--share-layers", "100"},
       "--share-layers: at most the model's 61 layers"},
      {{"pricing", "long-context", "--kv-heads", "2.5"}, "--kv-heads: must be a whole number"},
      {{"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:3",
        "--stop-after", "-1", "--out", out},
       "--stop-after: must be from 1 to"},
      {{"sweep", example("sardana_cost.toml"), "--vary", "inference.decode_mfu=0.1..0.3:3",
        "--stop-after", "0", "--out", out},
       "--stop-after: must be from 1 to"},
      {{"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--context",
        "8K..8K"},
       "--context: a range FIRST..LAST needs FIRST below LAST, got '8K..8K'"},
      {{"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--context", "8K",
        "--points", "5"},
       "--points: spreads rows over a --context range FIRST..LAST, but --context 8K is one "
       "context"},
      {{"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--chips", "4.5"},
       "--chips: must be a whole number"},
      {{"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--price", "-1"},
       "--price: must be >= 0, got -1"},
      {{"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b",
        "--compute-efficiency", "1.5"},
       "--compute-efficiency: must be in [0.001, 1], got 1.5"},
      {{"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--latency-per-token",
        "-5ms"},
       "--latency-per-token: must be > 0"},
      {{"optimal", "--compute", "1e24", "--starts", "0"}, "--starts: must be from 1 to 100"},
      {{"optimal", "--compute", "1e24", "--kkt-tolerance", "2"},
       "--kkt-tolerance: must be above 0 and below 1"},
  };
  for (const auto& c : cases) {
    const CliRun run = run_cli(c.args);
    INFO(c.message << "\n" << run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(c.message));
    // Errors name flags as typed, never a struct field in flag form.
    CHECK_THAT(run.err, !Catch::Contains("--usd-per-chip-hour") &&
                            !Catch::Contains("--gqa-kv-heads") &&
                            !Catch::Contains("solver.starts"));
  }
  CHECK_FALSE(fs::exists(out + ".partial"));
}

TEST_CASE("a training-only scenario needs no KV bytes per token", "[cli][cost]") {
  const TempFile train("train_only.toml",
                       "[architecture]\ntotal_params = \"70B\"\n[training]\ntokens = \"10T\"\n");
  const CliRun run = run_cli({"cost", train.path()});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("4.2e24") && Catch::Contains("KV per token not given"));
  CHECK(run_cli({"cost", train.path(), "--json"}).status == 0);
  // Serving it by the roofline does need them, and says which key.
  const TempFile serve("serve_no_kv.toml",
                       "[architecture]\ntotal_params = \"70B\"\n[training]\ntokens = \"10T\"\n"
                       "[inference]\ntokens = \"1T\"\noutput_fraction = 0.5\n");
  const CliRun served = run_cli({"cost", serve.path()});
  CHECK(is_one_line_error(served));
  CHECK_THAT(served.err, Catch::Contains("architecture.kv_bytes_per_token: required to price "
                                         "serving by the roofline"));
}
