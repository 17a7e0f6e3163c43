// What a million-token context costs across models: default replicas of whole nodes, pricing
// curves that mark the contexts a replica cannot hold, the per-layer attention of a scenario
// file, and the cost-vs-context-models figure (plot, report) of inference.compare_models.

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "figure_checks.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/plots/context_cost_figure.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"
#include "scaleopt/report/temporary_directory.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scenario_error.hpp"

using namespace scaleopt;

TEST_CASE("a chosen replica is made of whole nodes", "[roofline][cli]") {
  // DeepSeek-V3 in bf16 on B200s at 8K: the weights (1,342,052,808,704 bytes) and one
  // sequence (8,000 x 70,272 bytes) need 1,342.6GB / 180GB = 7.46 chips, one 8-chip node, so
  // the sizes tried are 1 to 32 nodes, each a multiple of 8 chips.
  const auto b200 = run_cli({"roofline", "--hardware", "b200", "--model", "deepseek-v3",
                             "--precision", "bf16", "--price", "$4/h", "--json"})
                        .json();
  CHECK(std::fmod(b200["chips"].get<double>(), 8.0) == 0.0);
  CHECK(b200["replica_node_chips"].get<double>() == 8);
  CHECK(b200["replica_nodes_considered"].front().get<double>() == 1);
  CHECK(b200["replica_nodes_considered"].size() == 32);
  CHECK_THAT(b200["assumptions"].dump(),
             Catch::Contains("the cheapest per output token of whole 8-chip nodes"));
  // Llama 3 70B in bf16 on TPU v5p, whose host has 4 chips: 141.1GB of weights and one 2.6GB
  // sequence need 1.51 chips of 95GB, one host, and every size is a multiple of 4.
  const auto v5p = run_cli({"roofline", "--hardware", "tpu-v5p", "--model", "llama3-70b", "--price",
                            "$4/h", "--json"})
                       .json();
  CHECK(std::fmod(v5p["chips"].get<double>(), 4.0) == 0.0);
  CHECK(v5p["replica_node_chips"].get<double>() == 4);
  CHECK(v5p["replica_nodes_considered"].front().get<double>() == 1);
  // Given chips are used as given.
  const auto given = run_cli({"roofline", "--hardware", "b200", "--model", "deepseek-v3", "--price",
                              "$4/h", "--chips", "15", "--json"})
                         .json();
  CHECK(given["chips"].get<double>() == 15);
  CHECK(given["replica_source"] == "given");
}

TEST_CASE("pricing curve marks the contexts a replica cannot hold", "[pricing][cli]") {
  // Llama 3 70B on 4 H100s: (320GB - 141.1GB of bf16 weights) / 327,680 bytes per token =
  // 545,943 tokens fit beside the weights. Longer rows are marked, not an error.
  const double longest = (4 * 80e9 - 2 * 70553706496.0) / 327680.0;
  const CliRun run = run_cli({"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b",
                              "--chips", "4", "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto json = run.json();
  int marked = 0;
  for (const auto& point : json["points"]) {
    const double context = point["context"].get<double>();
    INFO(context);
    if (context <= longest) {
      CHECK(point["status"] == "converged");
      CHECK(point["usd_per_mtok_output"].is_number());
    } else {
      ++marked;
      CHECK(point["status"] == "infeasible");
      CHECK(point["usd_per_mtok_output"].is_null());
      CHECK_THAT(point["message"].get<std::string>(), Catch::Contains("does not fit"));
    }
  }
  CHECK(marked >= 3);  // 25 log-spaced rows from 1K to 1M: those above 546K
  CHECK_THAT(json["message"].get<std::string>(), Catch::Contains("do not fit the replica"));
  const CliRun table = run_cli(
      {"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--chips", "4"});
  REQUIRE(table.status == 0);
  CHECK_THAT(table.out, Catch::Contains("does not fit"));
  // On a chosen replica every row fits: it is chosen at the longest context, 1M, where the
  // weights and one sequence (141.1GB + 327.7GB) fit one node, and 1M is far above S* (about
  // 1.5K tokens: 2N W / F = 470.8MB over 327.7KB of KV less the attention FLOPs' 8.9KB), so decode
  // is memory-bound at any batch there and the cap's 32 nodes, whose HBM admits the largest batch,
  // cost least per token.
  const auto whole =
      run_cli({"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--json"})
          .json();
  CHECK(whole["chips"].get<double>() == 256);
  CHECK(whole["replica_context"].get<double>() == 1e6);
  CHECK(whole["replica_nodes_considered"].front().get<double>() == 1);
  for (const auto& point : whole["points"]) CHECK(point["status"] == "converged");
  // Weights that do not fit at all are still an error.
  CHECK(is_one_line_error(run_cli(
      {"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--chips", "1"})));
}

TEST_CASE("a scenario describes attention per layer", "[scenario]") {
  const Scenario scenario = load_scenario_text(
      "[architecture]\npreset = \"llama3-70b\"\nlayer_pattern = \"40 x (window:4096, all)\"\n",
      "s.toml");
  REQUIRE(scenario.architecture.layer_pattern.size() == 80);
  CHECK(scenario.architecture.layer_pattern[0] == LayerAttention{4096, 0, false});
  CHECK(scenario.architecture.layer_pattern[1] == LayerAttention{0, 1, false});
  // Half the layers cache 2 x 8 x 128 bf16 elements per token: 163,840 bytes.
  CHECK(scenario.architecture.kv_cache_bytes_per_token(2.0) == 163840.0);
  CHECK_THAT(
      error_of("[architecture]\npreset = \"llama3-70b\"\nlayer_pattern = \"80 x all+window:8\"\n"),
      Catch::StartsWith("s.toml:3: architecture.layer_pattern: cannot read layer pattern"));
  CHECK_THAT(error_of("[architecture]\npreset = \"llama3-70b\"\nlayer_pattern = \"79 x all\"\n"),
             Catch::Contains("architecture.layer_pattern: lists 79 layers but layers = 80"));
  CHECK_THAT(
      error_of(
          "[architecture]\npreset = \"llama3-70b\"\n[inference]\ncompare_models = \"gpt-5\"\n"),
      Catch::Contains("unknown model 'gpt-5'"));
}

TEST_CASE("the models' lines are their pricing curves, and end where a sequence stops fitting",
          "[plot][pricing]") {
  ServingSetup base;
  base.chip = find_hardware(builtin_hardware(), "h100-sxm");
  base.precision = Precision::fp8;
  base.usd_per_chip_hour = 2.0;
  std::vector<plots::ModelContextCost> models;
  for (const char* name : {"deepseek-v3", "deepseek-v4-flash"}) {
    plots::ModelContextCost m;
    m.label = name;
    m.setup = base;
    m.setup.chips = 16;
    m.roofline = make_roofline(architecture_preset(name), m.setup, "t");
    models.push_back(m);
  }
  const auto lines = plots::model_context_costs(models, 8e3, 1e6, 5, "t");
  REQUIRE(lines.size() == 2);
  const std::vector<double> contexts = log_spaced_contexts(8e3, 1e6, 5);
  for (std::size_t m = 0; m < 2; ++m) {
    const PricingCurve curve = pricing_curve(models[m].roofline, models[m].setup, contexts, "t");
    for (std::size_t i = 0; i < contexts.size(); ++i) {
      INFO(models[m].label << " at " << contexts[i]);
      REQUIRE(lines[m][i].fits == curve.points[i].feasible());
      if (lines[m][i].fits) {
        CHECK(lines[m][i].usd_per_mtok_output == curve.points[i].plan.output_token.usd * 1e6);
      }
    }
  }
  // DeepSeek-V3 on 16 H100s in fp8, bf16 KV: (1,280GB - 671GB) / 70,272 bytes = 8.67M tokens:
  // it fits. With 8 chips it would not hold the weights; V4-Flash caches ~3.1KB per token.
  CHECK(lines[0].back().fits);
  CHECK(lines[1].back().usd_per_mtok_output < lines[0].back().usd_per_mtok_output);
  const plots::Figure figure = plots::context_cost_models_figure(models, {"t", "a", ""}, "t");
  REQUIRE(figure.data.size() == 1);
  CHECK_THAT(figure.commands, Catch::Contains("index 1 using 2:4"));
  CHECK_THAT(figure.commands, Catch::Contains("deepseek-v4-flash: output"));
}

TEST_CASE("plot cost-vs-context-models draws the example's four DeepSeek models",
          "[plot][gnuplot]") {
  const report::TemporaryDirectory directory;
  const std::string out = directory.file("models.svg");
  const CliRun run =
      run_cli({"plot", "cost-vs-context-models", example("long_context_1m.toml"), "--out", out});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto text = svg_text(read_file(out));
  REQUIRE(text.has_value());
  for (const char* legend :
       {"deepseek-v3, 8 x b200: output", "deepseek-v3.2, 8 x b200: output",
        "deepseek-v4-pro, 24 x b200: output", "deepseek-v4-flash, 8 x b200: output"}) {
    CHECK_THAT(*text, Catch::Contains(legend));
  }
  // A scenario without models to compare says which key to give.
  const CliRun none =
      run_cli({"plot", "cost-vs-context-models", example("gemini_200k.toml"), "--out", out});
  CHECK(is_one_line_error(none));
  CHECK_THAT(none.err, Catch::Contains("inference.compare_models: required"));
}

TEST_CASE("report: the models' figure where the scenario names them", "[report][gnuplot]") {
  const report::TemporaryDirectory directory;
  const std::string out = directory.file("r.html");
  const CliRun run = run_cli({"report", example("sardana_cost.toml"), "--out", out, "--set",
                              "inference.compare_models=deepseek-v3.2,deepseek-v4-flash"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const std::string html = read_file(out);
  CHECK_THAT(html, Catch::Contains("deepseek-v4-flash"));
  CHECK_THAT(html, Catch::Contains("plot cost-vs-context-models"));
  const CliRun plain = run_cli({"report", example("sardana_cost.toml"), "--out", out});
  REQUIRE(plain.status == 0);
  CHECK_THAT(read_file(out), !Catch::Contains("cost-vs-context-models"));
}
