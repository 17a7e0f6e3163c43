// DeepSeek's published inference fleet (open-infra-index, day 6, Feb 2025) against the roofline
// (examples/deepseek_fleet.toml, docs/validation.md "A published fleet"): the prediction of the
// serving plan, pinned by hand from the roofline's equations (docs/model.md), beside the
// published figures.

#include <algorithm>
#include <catch2/catch.hpp>

#include "example_path.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
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
  // 73.7k x 266 / 608 computed. The roofline serves each node 4.86x (decode) and 5.86x
  // (prefill) faster: the efficiencies that would close the gap are their inverses
  // (docs/validation.md, to the digits it prints).
  const double day = 86400;
  const double decode_nodes = 168e9 / day / decode_per_node;
  const double prefill_nodes = 266e9 / day / prefill_per_node;
  const double published_decode_nodes = 168e9 / day / 14.8e3;   // 131.4
  const double published_prefill_nodes = 608e9 / day / 73.7e3;  // 95.5
  CHECK(published_decode_nodes + published_prefill_nodes == Approx(226.75).epsilon(0.01));
  CHECK(decode_per_node == Approx(72.0e3).epsilon(5e-4));
  CHECK(prefill_per_node == Approx(188.8e3).epsilon(5e-4));
  CHECK(14.8e3 / decode_per_node == Approx(0.206).epsilon(5e-3));
  CHECK(73.7e3 * 266 / 608 / prefill_per_node == Approx(0.171).epsilon(5e-3));
  CHECK(decode_nodes == Approx(27.0).epsilon(2e-3));
  CHECK(prefill_nodes == Approx(16.3).epsilon(3e-3));
  // The day's cost at $2 per GPU-hour: 8 GPUs per node for 24 hours, as `scaleopt cost` sums it
  // (its prefill on the EP144 unit: compute-bound, so per token the same as on 32 chips).
  const double usd = (decode_nodes + prefill_nodes) * 8 * 24 * 2.0;
  CHECK(usd == Approx(16633).epsilon(1e-4));
  // The scenario's 434B tokens at output_fraction 0.387097 (168B / 434B to six digits).
  const double output_tokens = 434e9 * 0.387097, input_tokens = 434e9 - output_tokens;
  CHECK(phase_costs(scenario).total().usd ==
        Approx((output_tokens / decode_per_node + input_tokens / prefill_per_node) / 3600 * 8 * 2.0)
            .epsilon(1e-9));
}

TEST_CASE("DeepSeek's fleet at a fifth of the peak: the published node count within 2%",
          "[deepseek_fleet]") {
  // compute_efficiency = bandwidth_efficiency = 0.2: F and W a fifth of the peak. Decode stays
  // memory-bound (F / W unchanged), and the 47.6 ms step now bounds the batch before HBM does:
  // B = (L W - (N - E)) / read, the step L, per node B / L / 18. Prefill: a fifth of the peak's.
  const Scenario scenario =
      load_scenario(example("deepseek_fleet.toml"),
                    {"inference.compute_efficiency=0.2", "inference.bandwidth_efficiency=0.2"});
  const ServingInputs in = serving_inputs(scenario);
  const Architecture& v3 = in.model;
  const double S = 4989, L = 0.0476;
  const double total = v3.total_param_count(), active = v3.active_param_count();
  const double E = 129280.0 * 7168;
  const double W = 0.2 * 144 * 3.35e12, H = 144 * 80e9;
  const double kv = S * 61 * 1152, read = 7168 + kv;
  const double latency_batch = (L * W - (total - E)) / read;
  REQUIRE(latency_batch < (H - total) / kv);
  const ServingPlan plan = in.plan(in.roofline(), S);
  REQUIRE(plan.status == Status::converged);
  CHECK(plan.bound == BatchBound::latency);
  CHECK(plan.batch == Approx(latency_batch).epsilon(1e-9));
  const double decode_per_node = latency_batch / L / 18;
  const double F = 0.2 * 1979e12;  // per chip: prefill is compute-bound, chips cancel
  const double prefill_per_node =
      8 / ((2 * (active - 2 * E) + 2 * E / S + 2.0 * 61 * 128 * 320 * S / 2) / F);
  const double nodes = 168e9 / 86400 / decode_per_node + 266e9 / 86400 / prefill_per_node;
  // 2%: one efficiency for both phases, against a day of a real fleet (docs/validation.md).
  CHECK(nodes == Approx(226.75).epsilon(0.02));
  const double output_tokens = 434e9 * 0.387097, input_tokens = 434e9 - output_tokens;
  CHECK(phase_costs(scenario).total().usd ==
        Approx((output_tokens / decode_per_node + input_tokens / prefill_per_node) / 3600 * 8 * 2.0)
            .epsilon(1e-9));
  CHECK(phase_costs(scenario).total().usd == Approx(87072).epsilon(0.02));
}
