// The cost and roofline commands as a user meets them: the documented JSON keys, the example
// scenario, and the numbers the library gives.

#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

TEST_CASE("scaleopt cost examples/frontier.toml prints the phases and assumptions", "[cli][cost]") {
  const CliRun run = run_cli({"cost", example("frontier.toml")});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("pretraining") && Catch::Contains("RL") &&
                          Catch::Contains("prefill") && Catch::Contains("decode") &&
                          Catch::Contains("total") && Catch::Contains("GPU-hours") &&
                          Catch::Contains("Assumptions") && Catch::Contains("(peak)"));
}

TEST_CASE("cost --json has pretrain, rl, inference, total with flops, gpu_hours, usd",
          "[cli][cost]") {
  const CliRun run = run_cli({"cost", example("frontier.toml"), "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  for (const char* phase : {"pretrain", "rl", "inference", "total"}) {
    INFO(phase);
    for (const char* key : {"flops", "gpu_hours", "usd"}) CHECK(json[phase].contains(key));
  }
  for (const char* part : {"prefill", "decode"}) {
    for (const char* key : {"flops", "gpu_hours", "usd", "tokens"}) {
      CHECK(json["inference"][part].contains(key));
    }
  }
  CHECK(json["status"] == "converged");
  // The phases add up to the total, and the shares to 1.
  double usd = 0, share = 0;
  for (const char* phase : {"pretrain", "rl", "inference"}) {
    usd += json[phase]["usd"].get<double>();
    share += json[phase]["share"].get<double>();
  }
  CHECK(usd == Approx(json["total"]["usd"].get<double>()).epsilon(1e-14));
  CHECK(share == Approx(1.0).epsilon(1e-14));
  // Pretraining by hand: 6 * 100e9 * 263e12 FLOPs at 989e12 * 0.4 FLOP/s, $2 per chip-hour.
  const double flops = 6 * 100e9 * 263e12;
  CHECK(json["pretrain"]["flops"].get<double>() == Approx(flops).epsilon(1e-15));
  CHECK(json["pretrain"]["usd"].get<double>() ==
        Approx(flops / (989e12 * 0.4) / 3600 * 2).epsilon(1e-15));
  // Inference: 50M/s for 2 months, 20% output; decode FLOPs are 2 N per output token.
  const double tokens = 50e6 * 2 * 365.25 * 86400 / 12;
  CHECK(json["inference"]["tokens"].get<double>() == Approx(tokens).epsilon(1e-15));
  CHECK(json["inference"]["decode"]["flops"].get<double>() ==
        Approx(2 * 100e9 * 0.2 * tokens).epsilon(1e-14));
  // RL: k = 2 + 6 * 0.5 = 5 FLOPs per active parameter per rollout token.
  CHECK(json["rl"]["flops_per_param_token"].get<double>() == Approx(5.0).epsilon(1e-14));
}

TEST_CASE("cost --set changes the scenario for one run", "[cli][cost]") {
  const CliRun base = run_cli({"cost", example("frontier.toml"), "--json"});
  const CliRun doubled =
      run_cli({"cost", example("frontier.toml"), "--json", "--set", "inference.rate=100M/s"});
  REQUIRE(doubled.status == 0);
  CHECK(doubled.json()["inference"]["usd"].get<double>() ==
        Approx(2 * base.json()["inference"]["usd"].get<double>()).epsilon(1e-14));
  const CliRun bad = run_cli({"cost", example("frontier.toml"), "--set", "inference.chips=0"});
  CHECK(is_one_line_error(bad));
  CHECK(bad.err == "scaleopt: error: --set: inference.chips: must be >= 1, got 0\n");
  const CliRun keys = run_cli({"cost", "--keys"});
  REQUIRE(keys.status == 0);
  CHECK_THAT(keys.out, Catch::StartsWith("| key | type | default | allowed | meaning |"));
}

TEST_CASE("roofline --json prints B*, S*, $/Mtok in and out and their ratio", "[cli][roofline]") {
  // In bf16 (V3 ships fp8: --precision bf16 keeps the formulas below in one precision).
  const CliRun run = run_cli({"roofline", "--hardware", "h100-sxm", "--model", "deepseek-v3",
                              "--precision", "bf16", "--context", "200K", "--json"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  for (const char* key : {"critical_batch", "crossover_context", "usd_per_mtok_input",
                          "usd_per_mtok_output", "output_input_ratio"}) {
    CHECK(json.contains(key));
  }
  // B* = 295.22 * N_total / N_active for bf16 on H100 (the talk: ~300 / sparsity; docs/model.md,
  // Critical batch), both without the input embedding E = 129,280 x 7,168, which a step only
  // gathers rows of.
  const double e = 129280.0 * 7168;
  const double n = 37552282624.0 - e;
  CHECK(json["critical_batch"].get<double>() ==
        Approx(989e12 * 2 * (671026404352.0 - e) / (2 * 3.35e12 * n)).epsilon(1e-14));
  // S* with the attention FLOPs counted (the default): per sequence (2 N + a S) / F against
  // (2 d + S kv) / W, with a = 16,990,208 (absorbed MLA) and kv = 70,272 bytes in bf16:
  // S* = (2 N W - 2 d F) / (F kv - a W), the same for any number of chips.
  CHECK(json["crossover_context"].get<double>() ==
        Approx((2 * n * 3.35e12 - 2 * 7168 * 989e12) / (989e12 * 70272.0 - 16990208.0 * 3.35e12))
            .epsilon(1e-12));
  // The talk's roofline (--no-attention-flops): S* = (2 N W / F - 2 d) / kv.
  const CliRun talk =
      run_cli({"roofline", "--hardware", "h100-sxm", "--model", "deepseek-v3", "--precision",
               "bf16", "--context", "200K", "--no-attention-flops", "--json"});
  REQUIRE(talk.status == 0);
  CHECK(talk.json()["attention_flops"] == false);
  CHECK(talk.json()["crossover_context"].get<double>() ==
        Approx((2 * n * 3.35e12 / 989e12 - 2 * 7168) / 70272.0).epsilon(1e-12));
  // At the context: the KV of one sequence and the FLOPs of a decoded token, attention in.
  CHECK(json["kv_bytes_per_sequence"].get<double>() == 200e3 * 70272.0);
  CHECK(json["decode_flops_per_token"].get<double>() == 2 * n + 16990208.0 * 200e3);
  CHECK(json["output_input_ratio"].get<double>() ==
        Approx(json["usd_per_mtok_output"].get<double>() / json["usd_per_mtok_input"].get<double>())
            .epsilon(1e-12));
  // The replica, chosen: 200K is above S* (checked above), so decode is memory-bound at every
  // batch and each token pays weights / B + KV; more HBM admits a larger batch and costs less,
  // so the largest size tried wins, the default cap of 32 nodes of 8 H100s, full. The fewest
  // nodes tried hold the 1.34TB of bf16 weights and one 14.05GB sequence: 1,356GB / 640GB per
  // node, 3 nodes.
  CHECK(json["chips"].get<double>() == 256);
  CHECK(json["replica_source"] == "chosen");
  CHECK(json["replica_nodes_considered"].front().get<double>() == 3);
  CHECK(json["replica_nodes_considered"].back().get<double>() == 32);
  CHECK(json["batch_bound"] == "HBM full");
  CHECK(json["binding"] == "HBM full");
}

TEST_CASE("roofline tables, assumptions and bad flags", "[cli][roofline]") {
  const CliRun run = run_cli(
      {"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--precision", "fp8"});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("critical batch B*") && Catch::Contains("295.4") &&
                          Catch::Contains("--price $2/h per chip") &&
                          Catch::Contains("--context 8K"));
  const CliRun fp8 = run_cli({"roofline", "--hardware", "tpu-v5e", "--model", "llama3-70b",
                              "--precision", "fp8", "--price", "$1/h"});
  CHECK(is_one_line_error(fp8));
  CHECK(fp8.err == "scaleopt: error: --precision: tpu-v5e has no fp8 figure (it has bf16, int8)\n");
  const CliRun small =
      run_cli({"roofline", "--hardware", "h100-sxm", "--model", "llama3-405b", "--chips", "8"});
  CHECK(is_one_line_error(small));
  CHECK_THAT(small.err, Catch::Contains("--chips: the model does not fit: its weights alone need "
                                        "812GB but a replica of 8 x h100-sxm has 640GB"));
  const CliRun no_price = run_cli({"roofline", "--hardware", "b200", "--model", "llama3-70b"});
  CHECK(is_one_line_error(no_price));
  CHECK(no_price.err ==
        "scaleopt: error: --price: required: b200 has no price in the catalog (e.g. --price "
        "'$3/h')\n");
  CHECK(is_one_line_error(run_cli({"roofline", "--model", "llama3-70b"})));
}
