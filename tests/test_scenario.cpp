// Scenario files: reading through the key registry, file:line errors, --set, numeric inputs
// by path, and docs/scenario.md generated from the same registry.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scenario_error.hpp"

using namespace scaleopt;
using namespace scaleopt::cli;

namespace {

const std::string kMinimal =
    "[architecture]\npreset = \"llama3-70b\"\n"
    "[training]\ntokens = \"15T\"\n"
    "[inference]\ntokens = \"1T\"\noutput_fraction = 0.25\n";

}  // namespace

TEST_CASE("a scenario reads its keys into the typed structs", "[scenario]") {
  const Scenario s = load_scenario(example("frontier.toml"));
  CHECK(s.architecture.name == "frontier-100b");
  CHECK(s.training.tokens == 263e12);
  CHECK(s.training.chip.id == "h100-sxm");
  CHECK(s.training.cluster_chips == 100e3);
  CHECK(s.serving.chip.id == "b200");
  CHECK(s.serving.precision == Precision::fp8);
  CHECK(*s.demand.tokens_per_second == 50e6);
  // 2 months = 2/12 of a Julian year (costmodel/quantity.hpp).
  CHECK(*s.demand.duration_seconds == Approx(2 * 365.25 * 86400 / 12).epsilon(1e-15));
  CHECK(s.demand.total_tokens() == Approx(2.63e14).epsilon(1e-3));  // the talk's ~2.6e14
  CHECK(s.rl.trained_fraction == 0.5);
  REQUIRE(s.law);
  CHECK(s.law->name == "epoch2024");
}

TEST_CASE("defaults that are assumptions are listed, for the tables a file has", "[scenario]") {
  const Scenario s = load_scenario_text(kMinimal, "s.toml");
  CHECK(s.training.mfu == 0.4);
  CHECK(s.serving.chips == 8.0);
  const auto has = [&](const std::string& text) {
    for (const auto& a : s.assumptions) {
      if (a.starts_with(text)) return true;
    }
    return false;
  };
  CHECK(has("training.hardware = h100-sxm"));
  CHECK(has("training.mfu = 0.4"));
  CHECK(has("inference.chips = 8"));
  CHECK(has("inference.usd_per_chip_hour = $2/h, the catalog price of h100-sxm"));
  CHECK_FALSE(has("rl."));  // no [rl] table: nothing of it is assumed
}

TEST_CASE("bad scenarios name the file, line and key", "[scenario]") {
  CHECK(error_of("[training]\ntokens = \"1T\"\nmfoo = 0.4\n") ==
        "s.toml:3: training.mfoo: unknown key (did you mean 'mfu'?); known keys: hardware, "
        "precision, tokens, mfu, chips, max_chips, deadline, goodput, context, usd_per_chip_hour");
  CHECK(error_of("[trainning]\ntokens = 1\n") ==
        "s.toml:1: trainning: unknown key (did you mean 'training'?); known keys: law, "
        "architecture, training, inference, rl, problem, data, power, pricing, hardware, "
        "uncertainty");
  CHECK(error_of("[training]\nusd_per_chip_hour = -2\n") ==
        "s.toml:2: training.usd_per_chip_hour: must be >= 0, got -2");
  CHECK(error_of("[training]\nmfu = \"high\"\n") ==
        "s.toml:2: training.mfu: cannot read 'high': expected a plain number, a fraction or a "
        "percentage, e.g. 0.4, 1/3 or 40%");
  CHECK(error_of("[training]\nmfu = true\n") ==
        "s.toml:2: training.mfu: expected a plain number, a fraction or a percentage, e.g. 0.4, "
        "1/3 or 40%, got a boolean");
  CHECK(error_of("[inference]\nhardware = \"h300\"\n") ==
        "s.toml:2: inference.hardware: unknown hardware 'h300': expected one of a100-80g, "
        "a100-40g, h100-sxm, h800, h200, b200, mi300x, tpu-v5e, tpu-v5p (see 'scaleopt hardware'), "
        "or define it in a [hardware.h300] table");
  const std::string model = "[architecture]\npreset = \"llama3-70b\"\n";
  CHECK(error_of(model + "[inference]\nprecision = \"fp8\"\nhardware = \"a100-80g\"\n") ==
        "s.toml: inference.precision: a100-80g has no fp8 figure (it has bf16, int8)");
  CHECK(error_of(model + "[inference]\nrate = \"50M/s\"\n") ==
        "s.toml: inference.duration: rate and duration go together");
  CHECK(error_of(model + "kv_heads = 100\n") ==
        "s.toml: architecture.kv_heads: must be between 1 and heads for attention = \"gqa\"");
  CHECK(error_of("[training]\ntokens = \"1T\"\n") ==
        "s.toml: architecture: missing: give architecture.preset or a shape (layers, d_model, "
        "...) or total_params");
}

TEST_CASE("a scenario defines and overrides chips", "[scenario]") {
  const Scenario s = load_scenario_text(
      kMinimal +
          "hardware = \"my-chip\"\n"
          "[hardware.my-chip]\nbf16 = \"2P\"\nhbm_bandwidth = \"10TB/s\"\nhbm = \"300GB\"\n"
          "usd_per_hour = \"$5/h\"\n[hardware.h100-sxm]\nusd_per_hour = \"$2.5/h\"\n",
      "s.toml");
  CHECK(s.serving.chip.id == "my-chip");
  CHECK(*s.serving.chip.bf16_flop_per_second == 2e15);
  CHECK(*s.training.chip.usd_per_hour == 2.5);
}

TEST_CASE("overrides apply before reading, and their errors name the parameter set", "[scenario]") {
  const std::string rate_form =
      "[architecture]\npreset = \"llama3-70b\"\n[inference]\noutput_fraction = 0.25\n";
  const Scenario s =
      load_scenario_text(rate_form, "s.toml",
                         {"inference.rate=100M/s", "inference.duration=1y", "training.mfu=45%",
                          "inference.attention_flops=true", "rl.rollout_tokens=2T"});
  CHECK(*s.demand.tokens_per_second == 100e6);
  CHECK(s.training.mfu == 0.45);
  CHECK(s.serving.attention_flops);
  CHECK(s.rl.rollout_tokens == 2e12);
  CHECK(error_of(kMinimal, {"inference.rate=100M/s", "inference.duration=1y"}) ==
        "s.toml: inference.rate: give the demand either as tokens or as rate and duration, not "
        "both");
  CHECK(error_of(kMinimal, {"training.mfu=1.5"}) ==
        "set: training.mfu: must be in [0.001, 1], got 1.5 (a percentage? 1.5% is 0.015: "
        "training.mfu = 0.015 or \"1.5%\")");
  CHECK(error_of(kMinimal, {"infrence.rate=1"}) ==
        "set infrence.rate: unknown key (did you mean 'inference.rate'?); see "
        "docs/scenario.md or 'scaleopt cost --keys'");
  CHECK(error_of(kMinimal, {"inference.rate"}) ==
        "set: expected KEY=VALUE, e.g. inference.rate=100M/s, got 'inference.rate'");
  CHECK(error_of(kMinimal, {"inference.attention_flops=yes"}) ==
        "set inference.attention_flops: expected true or false, got 'yes'");
  // A chip field and a law coefficient go through the same path.
  const Scenario chip = load_scenario_text(kMinimal, "s.toml", {"hardware.h100-sxm.hbm=96GB"});
  CHECK(chip.serving.chip.hbm_bytes == 96e9);
  const Scenario law = load_scenario_text(kMinimal + "[law]\npreset = \"epoch2024\"\n", "s.toml",
                                          {"law.alpha=0.35"});
  CHECK(law.law->alpha == 0.35);
  CHECK(law.law->name == "custom");
}

TEST_CASE("numeric inputs are listed and set by path on the typed scenario", "[scenario]") {
  Scenario s = load_scenario(example("frontier.toml"));
  const auto inputs = numeric_inputs(s);
  const auto has = [&](const std::string& path) {
    for (const NumericInput& input : inputs) {
      if (input.path == path) return true;
    }
    return false;
  };
  for (const char* path : {"inference.rate", "inference.duration", "training.tokens",
                           "training.mfu", "rl.rollout_tokens", "architecture.active_params",
                           "hardware.b200.hbm_bandwidth", "hardware.h100-sxm.bf16", "law.alpha"}) {
    INFO(path);
    CHECK(has(path));
  }
  CHECK_FALSE(has("inference.batch"));      // unset optional: no value to vary
  CHECK_FALSE(has("architecture.layers"));  // frontier-100b has no shape, only totals
  CHECK(has("architecture.kv_bytes_per_token"));
  CHECK(numeric_input(s, "inference.rate") == 50e6);
  set_numeric_input(s, "inference.rate", 100e6);
  CHECK(*s.demand.tokens_per_second == 100e6);
  set_numeric_input(s, "hardware.b200.hbm_bandwidth", 7.7e12);
  CHECK(s.serving.chip.hbm_bytes_per_second == 7.7e12);
  set_numeric_input(s, "law.beta", 0.4);
  CHECK(s.law->beta == 0.4);
  CHECK_THROWS_WITH(set_numeric_input(s, "inference.rate", -1),
                    "inference.rate: must be >= 0, got -1");
  CHECK_THROWS_WITH(set_numeric_input(s, "inference.rat", 1),
                    "inference.rat: unknown numeric input (did you mean 'inference.rate'?)");
  CHECK_THROWS_WITH(set_numeric_input(s, "hardware.h200.bf16", 1e15),
                    Catch::StartsWith("hardware.h200.bf16: the scenario does not use chip 'h200'"));
  // Every numeric registry entry can be read back after it is set.
  for (const NumericInput& input : inputs) {
    INFO(input.path);
    Scenario copy = load_scenario(example("frontier.toml"));
    set_numeric_input(copy, input.path, input.value);
    CHECK(numeric_input(copy, input.path) == input.value);
  }
}

TEST_CASE("docs/scenario.md holds the registry's key table", "[scenario][docs]") {
  const std::string doc = read_file(std::string(SCALEOPT_SOURCE_DIR) + "/docs/scenario.md");
  CHECK_THAT(doc, Catch::Contains(scenario_keys_markdown()));
  for (const ScenarioKey& key : scenario_keys()) {
    std::string quoted(1, '`');  // built by appending: GCC 12 warns on "`" + string (-Wrestrict)
    quoted.append(key.path).push_back('`');
    CHECK_THAT(doc, Catch::Contains(quoted));
  }
}

TEST_CASE("scaleopt cost rejects bad scenarios with exit status 2 and nothing on stdout",
          "[scenario][cli]") {
  const std::string dir = std::string(SCALEOPT_SOURCE_DIR) + "/tests/data/";
  const CliRun unknown = run_cli({"cost", dir + "unknown_key.toml"});
  CHECK(is_one_line_error(unknown));
  CHECK_THAT(unknown.err,
             Catch::EndsWith("unknown_key.toml:7: inference.rates: unknown key (did "
                             "you mean 'rate'?); known keys: hardware, chips, max_replica_nodes, "
                             "peak_to_mean, elastic, precision, kv_precision, context, batch, "
                             "prefill_tokens_per_pass, latency_per_token, compute_efficiency, "
                             "bandwidth_efficiency, attention_flops, "
                             "usd_per_chip_hour, pricing, prefill_mfu, decode_mfu, "
                             "compare_models, "
                             "tokens, rate, duration, "
                             "output_fraction, requests, input_tokens, output_tokens\n"));
  const CliRun price = run_cli({"cost", dir + "negative_price.toml"});
  CHECK(is_one_line_error(price));
  CHECK_THAT(price.err,
             Catch::EndsWith("negative_price.toml:6: hardware.h100-sxm.usd_per_hour: must be >= 0, "
                             "got -2\n"));
  const CliRun big = run_cli({"cost", dir + "too_big.toml"});
  CHECK(is_one_line_error(big));
  CHECK_THAT(big.err,
             Catch::EndsWith("too_big.toml: inference.chips: the model does not fit: its weights "
                             "alone need 812GB but a replica of 8 x h100-sxm has 640GB of HBM; use "
                             "more chips per replica or a lower precision\n"));
  const CliRun missing = run_cli({"cost", dir + "no_such_file.toml"});
  CHECK(is_one_line_error(missing));
}
