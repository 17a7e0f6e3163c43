// Prefill batched across prompts (costmodel/roofline.hpp, prefill_token): by default a pass is
// filled with prompts up to the compute ridge, so short prompts share the weight read;
// inference.prefill_tokens_per_pass sets the pass instead, and a longer prompt is split into
// chunks that each read the cache of the chunks before. Checked by hand from the roofline's
// equations, against the lifetime problems' closed form, and swept: output never costs less
// than input.

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/serving_inputs.hpp"

using namespace scaleopt;

namespace {

ServingSetup bf16_on(const std::string& chip, double chips) {
  ServingSetup setup;
  setup.chip = find_hardware(builtin_hardware(), chip);
  setup.chips = chips;
  return setup;
}

// Llama-3-70B (tests/test_roofline.cpp, one decode step by hand): N, the embedding table E,
// attention 2,621,440 FLOPs per context token, 327,680 bf16 KV bytes per token.
constexpr double kN = 70553706496.0, kE = 128256.0 * 8192, kA = 2621440.0, kKv = 327680.0;
constexpr double kF = 8 * 989e12, kW = 8 * 3.35e12;
constexpr double kWeightRead = 2 * (kN - kE);  // bf16, the input table not read
constexpr double kRow = 2 * 8192.0;            // one embedding row gathered per token

}  // namespace

TEST_CASE("a short prompt shares its pass up to the ridge: the weight read hidden", "[prefill]") {
  const Roofline r = make_roofline(architecture_preset("llama3-70b"), bf16_on("h100-sxm", 8), "t");
  const double S = 128;
  const PrefillToken token = prefill_token(r, S);
  // Per token: compute (2 (N - 2E) + 2E / S + a S / 2) / F; traffic (row + 2 S kv / S) / W.
  const double compute = (2 * (kN - 2 * kE) + 2 * kE / S + kA * S / 2) / kF;
  const double traffic = (kRow + 2 * kKv) / kW;
  CHECK(token.compute_seconds == Approx(compute).epsilon(1e-14));
  CHECK(token.traffic_memory_seconds == Approx(traffic).epsilon(1e-14));
  // The ridge T* = (weight read / W) / (compute - traffic): ~300 tokens, so a 128-token prompt
  // shares its pass with T* / 128 others and costs its compute.
  const double ridge = kWeightRead / kW / (compute - traffic);
  CHECK(ridge == Approx(300).margin(20));
  CHECK(token.weight_memory_seconds == Approx(kWeightRead / kW / ridge).epsilon(1e-12));
  CHECK(token.memory_seconds == Approx(token.compute_seconds).epsilon(1e-12));
  CHECK(token.seconds() == Approx(compute).epsilon(1e-12));
  // The pass of its own it used to be: read every weight for 128 tokens, ~2.3x the price.
  const PrefillPass alone = prefill_pass(r, 1, S);
  CHECK(alone.memory_seconds / S > 2.0 * token.seconds());
}

TEST_CASE("a given pass: prompts share it, a longer prompt is chunked and reads back",
          "[prefill]") {
  ServingSetup setup = bf16_on("h100-sxm", 8);
  setup.prefill_tokens_per_pass = 1024;
  const Roofline r = make_roofline(architecture_preset("llama3-70b"), setup, "t");
  // 256-token prompts: four to a pass of 1,024, the weight read over 1,024 tokens.
  const PrefillToken shared = prefill_token(r, 256);
  CHECK(shared.memory_seconds == Approx((kWeightRead / 1024 + kRow + 2 * kKv) / kW).epsilon(1e-14));
  // A 4,096-token prompt: 4 chunks, 4 weight reads; the chunks read the cache of the 1,024,
  // 2,048 and 3,072 tokens before them (6,144 tokens of KV) beside writing and reading back
  // their own (2 x 4,096).
  const double S = 4096;
  const PrefillToken chunked = prefill_token(r, S);
  const double bytes = 4 * kWeightRead + S * kRow + 2 * S * kKv + 6144 * kKv;
  CHECK(chunked.memory_seconds == Approx(bytes / kW / S).epsilon(1e-14));
  CHECK(chunked.weight_memory_seconds == Approx(4 * kWeightRead / kW / S).epsilon(1e-14));
  // Chunking does not change the FLOPs: the prompt's own (attention to S / 2 on average).
  CHECK(chunked.compute_seconds ==
        Approx((2 * (kN - 2 * kE) + 2 * kE / S + kA * S / 2) / kF).epsilon(1e-14));
  // A last chunk shorter than the pass still reads the weights: 4,097 tokens are 5 chunks.
  CHECK(prefill_token(r, 4097).weight_memory_seconds ==
        Approx(5 * kWeightRead / kW / 4097).epsilon(1e-14));
}

TEST_CASE("chunks read windows and compressed entries as the cache holds them", "[prefill]") {
  // DeepSeek-V4-Flash as shipped, chunks of 100K over a 1M prompt: the chunks before the j-th
  // hold j x 100K tokens; the cache read back is the sum of the cache at each of them.
  const Architecture flash = architecture_preset("deepseek-v4-flash");
  ServingSetup setup = bf16_on("h200", 8);
  apply_shipped_formats(flash, setup, false, false);
  setup.prefill_tokens_per_pass = 100e3;
  const Roofline r = make_roofline(flash, setup, "t");
  ServingSetup whole = setup;
  whole.prefill_tokens_per_pass = 1e6;
  const Roofline one = make_roofline(flash, whole, "t");
  double earlier = 0.0;
  for (int j = 1; j < 10; ++j) earlier += cached_bytes_per_sequence(r, j * 100e3);
  const double S = 1e6;
  CHECK(prefill_token(r, S).traffic_memory_seconds * S ==
        Approx(prefill_token(one, S).traffic_memory_seconds * S + earlier / r.bytes_per_second)
            .epsilon(1e-13));
}

TEST_CASE("the lifetime closed form prices prefill as the serving plan does", "[prefill]") {
  // 1e-12: the plan's batch is a TOMS 748 root (tests/test_roofline_fast.cpp, kClosedForm).
  // Elastic: with a floor of one replica the closed form is only a lower bound
  // (tests/test_fleet_plan.cpp).
  for (const char* pass : {"", "512", "16K"}) {
    for (const char* context : {"1K", "32K"}) {
      std::vector<std::string> set{std::string("inference.context=") + context,
                                   "problem.kind=min-lifetime-cost", "problem.target_params=1e11",
                                   "inference.elastic=true"};
      if (*pass) set.push_back(std::string("inference.prefill_tokens_per_pass=") + pass);
      const Scenario scenario = load_scenario(example("frontier.toml"), set);
      const QuestionSetup setup = question_setup(scenario, *scenario.law, scenario.problem);
      REQUIRE(setup.model.closed_form());
      for (double n = 1e8; n < setup.model.max_params; n *= 2.3) {
        INFO(pass << " " << context << " N " << n);
        const LifetimeCost plan = setup.model.cost(n, 1e12);
        const LifetimeCost closed = roofline_lifetime_cost(setup.model, n, 1e12);
        CHECK(closed.inference.usd == Approx(plan.inference.usd).epsilon(1e-12));
        CHECK(closed.rl.usd == Approx(plan.rl.usd).epsilon(1e-12));
        const auto total = setup.model.total(CostUnit::usd, n, 1e12);
        const ServingCost g =
            serving_cost(*setup.model.closed_form(), CostUnit::usd, setup.model.rl_tokens, n,
                         piece_at(*setup.model.closed_form(), n));
        CHECK(g.d1 == Approx(total.d_log_params - total.d_log_tokens).epsilon(1e-10));
      }
    }
  }
}

TEST_CASE("output never costs less than input: every model, chip, precision, 2K..128K",
          "[prefill]") {
  int checked = 0;
  for (const Architecture& model : architecture_presets()) {
    for (const Hardware& chip : builtin_hardware()) {
      for (Precision precision : {Precision::bf16, Precision::fp8, Precision::int8}) {
        if (!chip.supports(precision)) continue;
        for (Precision kv : {Precision::bf16, Precision::fp8}) {
          ServingSetup setup;
          setup.chip = chip;
          setup.precision = precision;
          setup.kv_precision = kv;
          setup.usd_per_chip_hour = 2.0;  // the ratio does not depend on it; not all chips have one
          setup.chips = default_replica_chips(model, setup);
          const Roofline r = make_roofline(model, setup, "t");
          for (double context = 2048; context <= 131072; context *= 2) {
            INFO(model.name << " on " << chip.id << " " << to_string(precision) << "/"
                            << to_string(kv) << " at " << context);
            const ServingPlan plan = plan_serving(r, setup, context, "t");
            REQUIRE(plan.status == Status::converged);
            // 1e-12: a model without a shape at the ridge costs exactly 2 N / F per token in
            // both phases, a ratio of 1 up to rounding.
            CHECK(plan.output_input_ratio() >= 1.0 - 1e-12);
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked > 1000);
  // The sweep can fail: with each prompt alone in its pass (a pass of the prompt's tokens, the
  // weight read over one prompt) V4-Pro as shipped on 24 H100s at 2K prices input above output.
  const Architecture pro = architecture_preset("deepseek-v4-pro");
  ServingSetup alone;
  alone.chip = find_hardware(builtin_hardware(), "h100-sxm");
  apply_shipped_formats(pro, alone, false, false);
  alone.chips = 24;
  alone.prefill_tokens_per_pass = 2048;
  const ServingPlan alone_plan = plan_serving(make_roofline(pro, alone, "t"), alone, 2048, "t");
  REQUIRE(alone_plan.status == Status::converged);
  CHECK(alone_plan.output_input_ratio() < 0.5);
  // And through the command a user runs: V4-Pro on H100 at 2K.
  const CliRun run = run_cli({"pricing", "ratio", "--hardware", "h100-sxm", "--model",
                              "deepseek-v4-pro", "--context", "2K", "--json"});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("\"output_input_ratio\""));
}
