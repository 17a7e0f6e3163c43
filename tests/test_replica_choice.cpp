// The chips per serving replica chosen when they are not given (problems/serving/
// replica_choice.hpp): whole nodes from the fewest holding the weights and one sequence up to
// inference.max_replica_nodes, the cheapest per output token kept, ties to the smallest; and
// `roofline` / `pricing` using it without --chips.

#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/problems/serving/replica_choice.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

// Llama 3 70B in bf16 on H100 SXM (989 TFLOP/s, 3.35 TB/s, 80 GB, 8 per node), the talk's
// roofline (--no-attention-flops). From its config.json: 70,553,706,496 parameters, of which
// the input embedding 128,256 x 8,192 = 1,050,673,152 is a lookup, so a decode step reads
// 2 N bytes of weights and does 2 N FLOPs per token with N = 69,503,033,344; 80 layers of 8 K/V
// heads of 128 cache 2 x 80 x 8 x 128 x 2 = 327,680 bytes per token; one embedding row is
// 8,192 x 2 = 16,384 bytes.
constexpr double kLlamaN = 69503033344.0;
constexpr double kLlamaWeightBytes = 2.0 * 70553706496.0;  // resident
constexpr double kLlamaKvPerToken = 327680.0;
constexpr double kLlamaRowBytes = 16384.0;
constexpr double kH100Flops = 989e12;
constexpr double kH100Bandwidth = 3.35e12;
constexpr double kH100HbmPerNode = 8 * 80e9;

// The batch at which decode turns compute-bound at context S: B 2N / F = (2N + B (S kv + row))
// / W, so B = 2N / (2N W / F - S kv - row), whatever the chips (F and W both scale with them).
double llama_ridge_batch(double context) {
  return 2.0 * kLlamaN /
         (2.0 * kLlamaN * kH100Bandwidth / kH100Flops - context * kLlamaKvPerToken -
          kLlamaRowBytes);
}

CliRun llama_talk_roofline(const std::string& context, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"roofline",   "--hardware",           "h100-sxm", "--model",
                                "llama3-70b", "--precision",          "bf16",     "--context",
                                context,      "--no-attention-flops", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("the chosen replica is not the fewest nodes when more HBM reaches the ridge",
          "[replica][roofline][cli]") {
  // At 1.3K tokens the ridge batch is 2N / (470,849,670 - 425,984,000 - 16,384) = 3,099.4
  // sequences, which need 141.1 GB + 3,099.4 x 1,300 x 327,680 B = 1,461 GB: 2.28 nodes of
  // 640 GB. On one or two nodes HBM fills first, so decode stays memory-bound and each token
  // pays a share of the weight read above the ridge's compute cost; three nodes hold the ridge
  // batch and reach the floor, 2N / F per token, which no larger replica beats (a tie, won by
  // the smallest). One sequence (141.5 GB) fits one node, so sizes from 1 node are tried.
  const double context = 1300.0;
  const double batch = llama_ridge_batch(context);
  REQUIRE(batch == Approx(3099.40).epsilon(1e-5));
  const double nodes =
      std::ceil((kLlamaWeightBytes + batch * context * kLlamaKvPerToken) / kH100HbmPerNode);
  REQUIRE(nodes == 3.0);
  const CliRun run = llama_talk_roofline("1300");
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto json = run.json();
  CHECK(json["replica_chips"].get<double>() == 8.0 * nodes);
  CHECK(json["chips"].get<double>() == 24.0);
  CHECK(json["replica_source"] == "chosen");
  CHECK(json["replica_nodes_considered"].front().get<double>() == 1.0);
  CHECK(json["replica_nodes_considered"].back().get<double>() == 32.0);
  CHECK(json["max_replica_nodes"].get<double>() == 32.0);
  CHECK(json["binding"] == "compute-bound");
  // The root finder's tolerance on ln B is far below 1e-9 relative.
  CHECK(json["batch"].get<double>() == Approx(batch).epsilon(1e-9));
  // The floor: $2 per chip-hour x 2N / F per token, per million tokens.
  const double floor = 2.0 / 3600.0 * 2.0 * kLlamaN / kH100Flops * 1e6;
  CHECK(json["usd_per_mtok_output"].get<double>() == Approx(floor).epsilon(1e-9));
  // Two nodes, given: HBM full, dearer.
  const auto two = llama_talk_roofline("1300", {"--chips", "16"}).json();
  CHECK(two["binding"] == "HBM full");
  CHECK(two["usd_per_mtok_output"].get<double>() > floor * (1.0 + 1e-6));
  const CliRun text = run_cli({"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b",
                               "--precision", "bf16", "--context", "1300", "--no-attention-flops"});
  CHECK_THAT(text.out, Catch::Contains("24 x h100-sxm (chosen)") &&
                           Catch::Contains("1..32 nodes (8..256 chips)") &&
                           Catch::Contains("--max-replica-nodes 32"));
}

TEST_CASE("at the compute ridge replica sizes tie and the smallest wins", "[replica]") {
  // At 1K tokens the ridge batch is 2N / (470,849,670 - 327,680,000 - 16,384) = 971.0, which
  // needs 141.1 GB + 971.0 x 1,000 x 327,680 B = 459 GB: one node holds it. Every size from 1 to
  // 32 nodes then costs 2N / F per token (the batch at the ridge does not depend on the chips),
  // and the first, the smallest, wins the tie.
  const double batch = llama_ridge_batch(1000.0);
  REQUIRE(kLlamaWeightBytes + batch * 1000.0 * kLlamaKvPerToken < kH100HbmPerNode);
  ServingSetup setup;
  setup.chip = find_hardware(builtin_hardware(), "h100-sxm");
  setup.usd_per_chip_hour = 2.0;
  setup.attention_flops = false;
  const Architecture model = architecture_preset("llama3-70b");
  const ReplicaChoice choice = choose_replica(model, setup, 1000.0, 32.0, "t");
  REQUIRE(choice.status == Status::converged);
  CHECK(choice.chips == 8.0);
  CHECK(choice.chips_considered.size() == 32);
  CHECK(choice.converged == 32);
  CHECK(choice.plan.bound == BatchBound::balance);
  CHECK(choice.plan.batch == Approx(batch).epsilon(1e-9));
  // The largest size ties: the same cost per token to 1e-9 (both are 2N / F).
  ServingSetup largest = setup;
  largest.chips = 256.0;
  const ServingPlan at_largest =
      plan_serving(make_roofline(model, largest, "t"), largest, 1000.0, "t");
  CHECK(at_largest.output_token.chip_hours ==
        Approx(choice.plan.output_token.chip_hours).epsilon(1e-9));
  // A given batch costs the same on every size that holds it: the smallest again.
  setup.batch = 64.0;
  CHECK(choose_replica(model, setup, 1000.0, 32.0, "t").chips == 8.0);
}

TEST_CASE("the default cap admits at least two replica sizes for every catalog preset",
          "[replica]") {
  // On the scenario's default chip (h100-sxm, 8 per node) at the default context (8K), in the
  // formats each model ships in.
  int checked = 0;
  for (const Architecture& model : architecture_presets()) {
    ServingSetup setup;
    setup.chip = find_hardware(builtin_hardware(), "h100-sxm");
    setup.usd_per_chip_hour = 2.0;
    (void)apply_shipped_formats(model, setup, false, false);
    INFO(model.name);
    const ReplicaChoice choice = choose_replica(model, setup, 8000.0, kDefaultMaxReplicaNodes, "t");
    CHECK(choice.chips_considered.size() >= 2);
    CHECK(choice.status == Status::converged);
    CHECK(std::fmod(choice.chips, 8.0) == 0.0);
    ++checked;
  }
  CHECK(checked >= 7);  // the seven presets `scaleopt models` lists, or more
}

TEST_CASE("given chips price as before; the cap and its errors", "[replica][cli]") {
  // --chips 8 at the ridge (1K, above): $2/h x 2N / F per token, 0.078085 $/Mtok, by hand.
  const CliRun run = llama_talk_roofline("1K", {"--chips", "8"});
  REQUIRE(run.status == 0);
  const auto json = run.json();
  CHECK(json["chips"].get<double>() == 8.0);
  CHECK(json["replica_source"] == "given");
  CHECK(json["replica_nodes_considered"].empty());
  CHECK(json["max_replica_nodes"].is_null());
  CHECK(json["usd_per_mtok_output"].get<double>() ==
        Approx(2.0 / 3600.0 * 2.0 * kLlamaN / kH100Flops * 1e6).epsilon(1e-9));
  CHECK(json["batch"].get<double>() == Approx(llama_ridge_batch(1000.0)).epsilon(1e-9));
  const CliRun text =
      run_cli({"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--chips", "8"});
  CHECK_THAT(text.out, Catch::Contains("8 x h100-sxm (given)"));

  // A smaller cap: 8K on one node at most is HBM-bound, so the cap is the choice.
  const auto capped = llama_talk_roofline("8K", {"--max-replica-nodes", "2"}).json();
  CHECK(capped["replica_chips"].get<double>() == 16.0);
  CHECK(capped["replica_nodes_considered"].size() == 2);
  // Llama 3 405B in bf16 (812 GB) needs two nodes; a cap of one refuses, naming the flag.
  const CliRun refused = run_cli({"roofline", "--hardware", "h100-sxm", "--model", "llama3-405b",
                                  "--precision", "bf16", "--max-replica-nodes", "1"});
  CHECK(is_one_line_error(refused));
  CHECK_THAT(refused.err, Catch::Contains("--max-replica-nodes: ") &&
                              Catch::Contains("2 nodes of 8 x h100-sxm, above the cap of 1 node"));
  const CliRun both = run_cli({"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b",
                               "--chips", "8", "--max-replica-nodes", "4"});
  CHECK(is_one_line_error(both));
  CHECK_THAT(both.err, Catch::Contains("--max-replica-nodes: bounds the replica chosen"));
}

TEST_CASE("pricing chooses the replica without --chips", "[replica][pricing][cli]") {
  // The curve's replica is chosen at its longest context, 1.3K here: three nodes (above).
  const CliRun curve =
      run_cli({"pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b", "--precision",
               "bf16", "--no-attention-flops", "--context", "1K..1300", "--json"});
  INFO(curve.err);
  REQUIRE(curve.status == 0);
  const auto c = curve.json();
  CHECK(c["replica_chips"].get<double>() == 24.0);
  CHECK(c["replica_context"].get<double>() == 1300.0);
  CHECK(c["binding"] == "compute-bound");
  // Every row reaches the ridge on it: the same 2N / F per token as its own cheapest size.
  for (const auto& point : c["points"]) {
    CHECK(point["usd_per_mtok_output"].get<double>() ==
          Approx(2.0 / 3600.0 * 2.0 * kLlamaN / kH100Flops * 1e6).epsilon(1e-9));
  }
  const CliRun ratio =
      run_cli({"pricing", "ratio", "--hardware", "h100-sxm", "--model", "llama3-70b", "--precision",
               "bf16", "--no-attention-flops", "--context", "1300", "--json"});
  REQUIRE(ratio.status == 0);
  CHECK(ratio.json()["replica_chips"].get<double>() == 24.0);
  CHECK(ratio.json()["replica_source"] == "chosen");
  const CliRun text =
      run_cli({"pricing", "ratio", "--hardware", "h100-sxm", "--model", "llama3-70b", "--precision",
               "bf16", "--no-attention-flops", "--context", "1300"});
  CHECK_THAT(text.out,
             Catch::Contains("24 x h100-sxm (chosen;") && Catch::Contains("replica (chosen)"));
}
