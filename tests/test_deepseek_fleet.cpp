// DeepSeek's published inference fleet (open-infra-index, day 6, Feb 2025) against the roofline
// (examples/deepseek_fleet.toml, docs/validation.md "A published fleet"): the prediction of the
// serving plan, pinned by hand from the roofline's equations (docs/model.md), beside the
// published figures.

#include <algorithm>
#include <catch2/catch.hpp>

#include "example_path.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/serving_inputs.hpp"

using namespace scaleopt;

TEST_CASE("DeepSeek's fleet: decode and prefill per node by hand, beside the published",
          "[deepseek_fleet]") {
  const Scenario scenario = load_scenario(example("deepseek_fleet.toml"));
  ServingInputs decode = serving_inputs(scenario);
  // As shipped: FP8 weights (one byte per parameter), BF16 MLA cache.
  REQUIRE(decode.setup.precision == Precision::fp8);
  REQUIRE(decode.setup.kv_precision == Precision::bf16);
  const Architecture& v3 = decode.model;
  const double S = 4989, nodes_per_unit = 18;
  const double total = v3.total_param_count(), active = v3.active_param_count();
  const double E = 129280.0 * 7168;  // the input embedding table, gathered not read
  // An EP144 unit: 144 H800 at the H100 SXM's figures.
  const double F = 144 * 1979e12, W = 144 * 3.35e12, H = 144 * 80e9;
  // Per sequence at S: the KV read 61 layers x (512 + 64) x 2 bytes per token, the embedding
  // row of 7,168 fp8 bytes; decode attention (absorbed MLA) 2 x 61 x 128 x (576 + 512) FLOPs
  // per context token.
  const double kv = S * 61 * 1152, read = 7168 + kv;
  const double decode_flops = 2 * (active - E) + 2.0 * 61 * 128 * 1088 * S;
  // Past S*: memory per sequence outlasts its FLOPs at any batch, so the batch is the smaller
  // of a full HBM and the 47.6 ms step.
  REQUIRE(decode_flops / F < read / W);
  const double hbm_batch = (H - total) / kv;
  const double latency_batch = (0.0476 * W - (total - E)) / read;
  const double batch = std::min(hbm_batch, latency_batch);
  const double step = (total - E + batch * read) / W;
  const double decode_per_node = batch / step / nodes_per_unit;

  const Roofline r = decode.roofline();
  const ServingPlan plan = decode.plan(r, S);
  REQUIRE(plan.status == Status::converged);
  // 1e-9: the plan's batch is a TOMS 748 root in ln B.
  CHECK(plan.batch == Approx(batch).epsilon(1e-9));
  CHECK(plan.bound == BatchBound::hbm);
  const double plan_per_node = 1.0 / (plan.output_token.chip_hours * 3600) * 8;
  CHECK(plan_per_node == Approx(decode_per_node).epsilon(1e-9));

  // Prefill on an EP32 unit (4 nodes): compute-bound at the ridge, per token
  // (2 (N - 2E) + 2E / S + 2 x 61 x 128 x (192 + 128) x S / 2) / F.
  ServingInputs prefill = decode;
  prefill.setup.chips = 32;
  const double F32 = 32 * 1979e12;
  const double prefill_seconds =
      (2 * (active - 2 * E) + 2 * E / S + 2.0 * 61 * 128 * 320 * S / 2) / F32;
  const double prefill_per_node = 1.0 / prefill_seconds / 4;
  const ServingPlan prefill_plan = prefill.plan(prefill.roofline(), S);
  CHECK(1.0 / (prefill_plan.input_token.chip_hours * 3600) * 8 ==
        Approx(prefill_per_node).epsilon(1e-12));

  // Beside the published day: 168B output tokens at ~14.8k per decode node; 266B computed
  // input tokens (608B less 342B cache hits) at 73.7k per prefill node counting the hits, so
  // 73.7k x 266 / 608 computed. The roofline serves each node ~4.9x (decode) and ~5.9x
  // (prefill) faster: the efficiencies that would close the gap are their inverses.
  const double day = 86400;
  const double decode_nodes = 168e9 / day / decode_per_node;
  const double prefill_nodes = 266e9 / day / prefill_per_node;
  const double published_decode_nodes = 168e9 / day / 14.8e3;   // 131.4
  const double published_prefill_nodes = 608e9 / day / 73.7e3;  // 95.5
  CHECK(published_decode_nodes + published_prefill_nodes == Approx(226.75).epsilon(0.01));
  CHECK(decode_per_node / 14.8e3 == Approx(4.9).epsilon(0.05));
  CHECK(prefill_per_node / (73.7e3 * 266 / 608) == Approx(5.9).epsilon(0.05));
  CHECK(decode_nodes + prefill_nodes == Approx(43).epsilon(0.05));
}
