// scaleopt pricing as a user meets it: the examples (the talk's argument end to end), the
// documented JSON keys, the CSV of the curve, [pricing] price lists in scenarios and their
// file:line errors, and bad flags (one line on stderr, exit 2, nothing on stdout).

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "file_text.hpp"
#include "help_examples.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scenario_error.hpp"
#include "temp_file.hpp"

using namespace scaleopt;

namespace {

const std::string kGemini = std::string(SCALEOPT_SOURCE_DIR) + "/examples/gemini_200k.toml";
const std::string kLong = std::string(SCALEOPT_SOURCE_DIR) + "/examples/long_context_1m.toml";

// H100 SXM in fp8 (datasheet, dense): F/W = 1979e12 / 3.35e12; the talk's 100B and 1.7 KB.
const double kF = 1979e12, kW = 3.35e12, kN = 100e9, kKv = 1700.0;
const double kGeminiSStar = 2 * kN * kW / (kF * kKv);
const double kGeminiBStar = kF / (2 * kW);

}  // namespace

TEST_CASE("pricing infer-kv: the talk's 1666.67 bytes and, with H100 fp8, ~1693",
          "[cli][pricing]") {
  const CliRun talk = run_cli({"pricing", "infer-kv", "--breakpoint", "200K", "--active-params",
                               "100B", "--flop-per-byte", "600", "--json"});
  REQUIRE(talk.status == 0);
  // 2e11 / (600 x 2e5) = 5000/3; one division after exact products: 1e-15.
  CHECK(talk.json()["kv_bytes_per_token"].get<double>() == Approx(5000.0 / 3.0).epsilon(1e-15));
  CHECK(talk.json()["layouts"].size() > 0);
  const CliRun h100 = run_cli({"pricing", "infer-kv", "--breakpoint", "200K", "--active-params",
                               "100B", "--hardware", "h100-sxm", "--precision", "fp8", "--json"});
  REQUIRE(h100.status == 0);
  const double kv = h100.json()["kv_bytes_per_token"].get<double>();
  CHECK(kv == Approx(2 * kN * kW / (kF * 200e3)).epsilon(1e-15));
  CHECK(kv ==
        Approx(1693).margin(0.5));  // 2 N_active W / (F S*) with H100 fp8 figures (docs/model.md)
  // The scenario gives the same from its price step, model and chip.
  const CliRun scenario = run_cli({"pricing", "infer-kv", kGemini, "--json"});
  REQUIRE(scenario.status == 0);
  CHECK(scenario.json()["kv_bytes_per_token"].get<double>() == kv);
  CHECK_THAT(scenario.json()["sources"]["breakpoint_context"].get<std::string>(),
             Catch::EndsWith("pricing.tier[1].max_context"));
  const CliRun text = run_cli({"pricing", "infer-kv", kGemini});
  CHECK_THAT(text.out, Catch::Contains("1692.77 bytes") && Catch::Contains("MLA"));
}

TEST_CASE("pricing infer-kv: bad and missing inputs name the flag", "[cli][pricing]") {
  const CliRun tpu = run_cli({"pricing", "infer-kv", "--breakpoint", "200K", "--active-params",
                              "100B", "--hardware", "tpu-v5p", "--precision", "fp8"});
  CHECK(is_one_line_error(tpu));
  CHECK_THAT(tpu.err,
             Catch::Contains("--precision: tpu-v5p has no fp8 figure (it has bf16, int8)"));
  const CliRun both = run_cli({"pricing", "infer-kv", "--breakpoint", "200K", "--active-params",
                               "100B", "--flop-per-byte", "600", "--hardware", "h100-sxm"});
  CHECK(is_one_line_error(both));
  CHECK_THAT(both.err, Catch::Contains("--flop-per-byte: give it or --hardware, not both"));
  const CliRun none = run_cli({"pricing", "infer-kv", "--active-params", "100B"});
  CHECK(is_one_line_error(none));
  CHECK_THAT(none.err, Catch::Contains("--breakpoint: required"));
}

TEST_CASE("pricing curve of the Gemini example: S* at the price step, rows and CSV alike",
          "[cli][pricing]") {
  const TempDir dir("pricing_curve");
  const std::string csv = (dir.path / "curve.csv").string();
  const CliRun run =
      run_cli({"pricing", "curve", kGemini, "--points", "7", "--out", csv, "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  CHECK(json["status"] == "converged");
  CHECK(json["crossover_context"].get<double>() == Approx(kGeminiSStar).epsilon(1e-14));  // 199.1K
  CHECK(json["critical_batch"].get<double>() == Approx(kGeminiBStar).epsilon(1e-14));
  const auto& points = json["points"];
  // 7 log-spaced rows plus S*, the knee and the price step at 200K.
  REQUIRE(points.size() == 10);
  for (const auto& p : points) {
    const double context = p["context"].get<double>();
    INFO("S = " << context);
    // Gemini 2.5 Pro: $1.25 / $10 up to 200K, $2.50 / $15 above.
    CHECK(p["price_usd_per_mtok_input"].get<double>() == (context <= 200e3 ? 1.25 : 2.5));
    CHECK(p["price_usd_per_mtok_output"].get<double>() == (context <= 200e3 ? 10.0 : 15.0));
    CHECK(p["markup_output"].get<double>() == Approx(p["price_usd_per_mtok_output"].get<double>() /
                                                     p["usd_per_mtok_output"].get<double>())
                                                  .epsilon(1e-15));
  }
  // The CSV: a header named like the JSON keys, one row per context, the same numbers.
  std::ifstream in(csv);
  std::string line;
  REQUIRE(std::getline(in, line));
  std::vector<std::string> keys;  // in the order printed (run.json() sorts them)
  const auto ordered = nlohmann::ordered_json::parse(run.out);
  for (const auto& [key, value] : ordered["points"][0].items()) keys.push_back(key);
  CHECK(split(line) == keys);
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = split(line);
    REQUIRE(fields.size() == keys.size());
    CHECK(std::stod(fields[0]) == points[rows]["context"].get<double>());  // 17 digits
    CHECK(fields[1] == points[rows]["marker"].get<std::string>());
    CHECK(keys[8] == "usd_per_mtok_output");
    CHECK(std::stod(fields[8]) == ordered["points"][rows]["usd_per_mtok_output"].get<double>());
    ++rows;
  }
  CHECK(rows == points.size());
  // Written through a temporary file and a rename: nothing else is left in the directory.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path)) {
    (void)entry;
    ++files;
  }
  CHECK(files == 1);
}

TEST_CASE("pricing curve: bad ranges and unwritable files are one-line errors", "[cli][pricing]") {
  CHECK(is_one_line_error(run_cli({"pricing", "curve", kGemini, "--context", "1M..1K"})));
  CHECK(is_one_line_error(run_cli({"pricing", "curve", kGemini, "--context", "1K..x"})));
  const CliRun out = run_cli({"pricing", "curve", kGemini, "--points", "3", "--out",
                              "no-such-directory/for/scaleopt/curve.csv"});
  CHECK(is_one_line_error(out));
  CHECK_THAT(out.err,
             Catch::Contains("--out: cannot write no-such-directory/for/scaleopt/curve.csv"));
  CHECK(is_one_line_error(run_cli({"pricing"})));
  CHECK(is_one_line_error(run_cli({"pricing", "curve", "--hardware", "h200"})));  // no --model
}

TEST_CASE("pricing ratio of the Gemini example: 8x implies batch B* / (8 - S/S*)",
          "[cli][pricing]") {
  const CliRun run = run_cli({"pricing", "ratio", kGemini, "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  CHECK(json["price_ratio"].get<double>() == 8.0);  // $10 / $1.25 at 200K
  const double S = 200e3;
  CHECK(json["implied_batch"].get<double>() ==
        Approx(kGeminiBStar / (8.0 - S / kGeminiSStar)).epsilon(1e-12));
  CHECK(json["implied_memory_bound_factor"].get<double>() == Approx(8.0).epsilon(1e-12));
  // The forward ratio falls with the batch.
  double previous = INFINITY;
  for (const auto& row : json["ratio_by_batch"]) {
    CHECK(row["output_input_ratio"].get<double>() < previous);
    previous = row["output_input_ratio"].get<double>();
  }
  const CliRun impossible = run_cli({"pricing", "ratio", kGemini, "--price-ratio", "1"});
  CHECK(is_one_line_error(impossible));
  CHECK_THAT(impossible.err, Catch::Contains("--price-ratio: no batch gives"));
}

TEST_CASE("pricing cache of the Gemini example: flash for five minutes, crossings verified",
          "[cli][pricing]") {
  const CliRun run = run_cli({"pricing", "cache", kGemini, "--hold", "5m", "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  CHECK(json["status"] == "converged");
  CHECK(json["cheapest"] == "flash");
  CHECK(json["tiers"].size() == 5);
  std::vector<std::string> order{json["switches"][0]["from"].get<std::string>()};
  for (const auto& s : json["switches"]) {
    CHECK(s["hold_seconds"].get<double>() ==
          Approx(s["closed_form_hold_seconds"].get<double>()).epsilon(1e-12));
    order.push_back(s["to"].get<std::string>());
  }
  CHECK(order == std::vector<std::string>{"hbm", "host-dram", "flash", "disk", "recompute"});
  CHECK(is_one_line_error(run_cli({"pricing", "cache", kGemini, "--hold", "-5m"})));
}

TEST_CASE("pricing long-context of the 1M example: six attentions, sparse reads k of S",
          "[cli][pricing]") {
  const CliRun run = run_cli({"pricing", "long-context", kLong, "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  REQUIRE(json["variants"].size() == 6);
  CHECK(json["variants"][5]["variant"] == "hybrid");
  CHECK(json["attention_flops"] == true);
  const auto& mla = json["variants"][2];
  const auto& sparse = json["variants"][4];
  REQUIRE(mla["variant"] == "mla");
  REQUIRE(sparse["variant"] == "sparse");
  CHECK(sparse["long_context"]["kv_usd_per_mtok_output"].get<double>() /
            mla["long_context"]["kv_usd_per_mtok_output"].get<double>() ==
        Approx(2048.0 / 1e6).epsilon(1e-14));
  for (const auto& v : json["variants"]) {
    INFO(v["variant"]);
    CHECK(v["long_context"]["binding"].get<std::string>().rfind("HBM bandwidth", 0) == 0);
  }
  const CliRun text = run_cli({"pricing", "long-context", "--price", "$2/h"});
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("--model deepseek-v3.2") && Catch::Contains("sparse"));
}

TEST_CASE("every pricing subcommand has --help with examples", "[cli][pricing]") {
  for (const char* sub : {"curve", "infer-kv", "ratio", "cache", "long-context"}) {
    INFO(sub);
    const CliRun run = run_cli({"pricing", sub, "--help"});
    CHECK(run.status == 0);
    // Each example runs as printed (some print several, each a different use).
    const TempDir folder("pricing_help_examples");
    const auto examples = help_examples(run.out, folder.file("out.csv"));
    CHECK(examples.size() >= 2);
    for (const auto& example_args : examples) {
      const CliRun ran = run_cli(example_args);
      INFO(example_args[1] << " " << (example_args.size() > 2 ? example_args[2] : "") << ": "
                           << ran.err);
      CHECK(ran.status == 0);
    }
  }
  const CliRun typo = run_cli({"pricing", "curv"});
  CHECK(is_one_line_error(typo));
  CHECK(typo.err ==
        "scaleopt: error: unknown command 'pricing curv': expected one of curve, infer-kv, ratio, "
        "cache, long-context (see scaleopt pricing --help)\n");
}

TEST_CASE("[pricing] tiers are read with file:line errors", "[cli][pricing][scenario]") {
  const std::string head = "[architecture]\npreset = \"llama3-70b\"\n[pricing]\nname = \"x\"\n";
  const scaleopt::Scenario ok = scaleopt::load_scenario_text(
      head +
          "[[pricing.tier]]\nmax_context = \"200K\"\nusd_per_mtok_input = \"$1.25\"\n"
          "usd_per_mtok_output = 10\n"
          "[[pricing.tier]]\nusd_per_mtok_input = 2.5\nusd_per_mtok_output = \"$15\"\n",
      "s.toml");
  REQUIRE(ok.prices);
  REQUIRE(ok.prices->tiers.size() == 2);
  CHECK(ok.prices->tier_for(200e3).usd_per_mtok_output == 10.0);
  CHECK(ok.prices->tier_for(200001).usd_per_mtok_input == 2.5);
  CHECK(error_of(head + "[[pricing.tier]]\nusd_per_mtok_inptu = 1\nusd_per_mtok_output = 2\n") ==
        "s.toml:6: pricing.tier[1].usd_per_mtok_inptu: unknown key (did you mean "
        "'usd_per_mtok_input'?); known keys: max_context, usd_per_mtok_input, "
        "usd_per_mtok_output");
  CHECK(error_of(head + "[[pricing.tier]]\nmax_context = \"200K\"\nusd_per_mtok_input = 1\n"
                        "usd_per_mtok_output = 2\n") ==
        "s.toml:5: pricing.tier[1].max_context: the last tier must be unbounded (leave "
        "max_context out): longer prompts need a price too");
  CHECK(error_of(head + "[[pricing.tier]]\nmax_context = \"200K\"\nusd_per_mtok_input = 1\n"
                        "usd_per_mtok_output = 2\n"
                        "[[pricing.tier]]\nmax_context = \"100K\"\nusd_per_mtok_input = 1\n"
                        "usd_per_mtok_output = 2\n"
                        "[[pricing.tier]]\nusd_per_mtok_input = 1\nusd_per_mtok_output = 2\n") ==
        "s.toml:9: pricing.tier[2].max_context: tiers must ascend: each max_context above the "
        "previous one");
  CHECK(error_of(head + "[[pricing.tier]]\nusd_per_mtok_input = 1\n") ==
        "s.toml:5: pricing.tier[1]: missing usd_per_mtok_output");
  CHECK(error_of(head + "[[pricing.tier]]\nusd_per_mtok_input = \"-$1\"\n"
                        "usd_per_mtok_output = 2\n")
            .rfind("s.toml:6: pricing.tier[1].usd_per_mtok_input", 0) == 0);
  CHECK(error_of(head) == "s.toml:3: pricing: needs at least one [[pricing.tier]]");
}

TEST_CASE("docs/cli.md names every JSON key the pricing commands print", "[cli][pricing][docs]") {
  std::ifstream in(std::string(SCALEOPT_SOURCE_DIR) + "/docs/cli.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  auto check_keys = [&](const nlohmann::json& object) {
    for (const auto& [key, value] : object.items()) {
      INFO(key);
      CHECK_THAT(doc, Catch::Contains("`" + key + "`"));
    }
  };
  const auto curve = run_cli({"pricing", "curve", kGemini, "--points", "2", "--json"}).json();
  check_keys(curve);
  check_keys(curve["points"][0]);
  const auto kv = run_cli({"pricing", "infer-kv", kGemini, "--json"}).json();
  check_keys(kv);
  check_keys(kv["layouts"][0]);
  check_keys(run_cli({"pricing", "ratio", kGemini, "--json"}).json());
  const auto cache = run_cli({"pricing", "cache", kGemini, "--json"}).json();
  check_keys(cache);
  check_keys(cache["tiers"][0]);
  check_keys(cache["switches"][0]);
  const auto long_context = run_cli({"pricing", "long-context", kLong, "--json"}).json();
  check_keys(long_context);
  check_keys(long_context["variants"][0]);
  check_keys(long_context["variants"][0]["long_context"]);
}
