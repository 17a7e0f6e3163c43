// Long context (problems/pricing/long_context.hpp): the attention variants of one model keep its
// parameters and cache what their configs say; sparse attention reads k tokens, not S, so its
// KV term is exactly k/S of the dense one; replicas grow only to hold one sequence.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/pricing/long_context.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

const AttentionVariant& variant(const std::vector<AttentionVariant>& variants,
                                const std::string& id) {
  for (const AttentionVariant& v : variants) {
    if (v.id == id) return v;
  }
  FAIL("no variant " << id);
  throw;
}

ServingSetup b200s(double chips) {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), "b200");
  setup.chips = chips;
  setup.precision = Precision::fp8;
  setup.usd_per_chip_hour = 4.0;
  setup.attention_flops = true;
  return setup;
}

}  // namespace

TEST_CASE("attention variants of DeepSeek-V3.2 cache what their shapes give", "[pricing][long]") {
  const Architecture base = architecture_preset("deepseek-v3.2");
  const std::vector<AttentionVariant> variants = attention_variants(base, VariantOptions{});
  REQUIRE(variants.size() == 6);
  // Elements per token, by hand from config.json (61 layers, 128 heads of 128, latent 512 +
  // RoPE 64): MHA 2 x 61 x 128 x 128; GQA-8 2 x 61 x 8 x 128; MLA 61 x 576; shared-KV GQA-8
  // over ceil(61 / 2) = 31 caches.
  CHECK(variant(variants, "mha").architecture.kv_elements_per_token() == 2.0 * 61 * 128 * 128);
  CHECK(variant(variants, "gqa").architecture.kv_elements_per_token() == 2.0 * 61 * 8 * 128);
  CHECK(variant(variants, "mla").architecture.kv_elements_per_token() == 61.0 * 576);
  CHECK(variant(variants, "shared-kv").architecture.kv_elements_per_token() == 2.0 * 31 * 8 * 128);
  CHECK(variant(variants, "sparse").architecture.kv_elements_per_token() == 61.0 * 576);
  CHECK(variant(variants, "sparse").architecture.sparse_top_k == 2048);
  CHECK(variant(variants, "sparse").architecture.indexer_bytes_per_token() == 61.0 * 128);
  // The hybrid: MLA rows on DeepSeek-V4-Pro's schedule (layers 0, 1 and the odd ones HCA, the
  // even ones from 2 CSA): 30 x 576 / 4 + 31 x 576 / 128 = 4,459.5 elements per token as the
  // context grows, plus 61 windows of 128 rows; FP4 indexer keys on the 30 CSA layers,
  // 30 x 128 x 0.5 / 4 = 480 bytes per token.
  const Architecture& hybrid = variant(variants, "hybrid").architecture;
  CHECK(hybrid.kv_elements_per_token() == 30 * 576 / 4.0 + 31 * 576 / 128.0);
  CHECK(hybrid.indexer_bytes_per_token() == 30 * 128 * 0.5 / 4);
  CHECK(hybrid.sparse_top_k == 1024);
  REQUIRE(hybrid.layer_pattern.size() == 61);
  CHECK(hybrid.layer_pattern == architecture_preset("deepseek-v4-pro").layer_pattern);
  for (const AttentionVariant& v : variants) {
    INFO(v.id);  // DeepSeek-V3 report: 671B total, 37B active; only the attention differs
    CHECK(v.architecture.total_param_count() == base.total_param_count());
    CHECK(v.architecture.active_param_count() == base.active_param_count());
  }
  // A model without MLA takes DeepSeek's latent; one without a shape has no variants.
  const std::vector<AttentionVariant> llama =
      attention_variants(architecture_preset("llama3-70b"), VariantOptions{});
  CHECK(variant(llama, "mla").architecture.kv_elements_per_token() == 80.0 * 576);
  CHECK_THROWS_AS(attention_variants(architecture_preset("frontier-100b"), VariantOptions{}),
                  InputError);
}

TEST_CASE("sparse attention at 1M reads k tokens: its KV term is exactly k/S of the dense one",
          "[pricing][long]") {
  const std::vector<AttentionVariant> variants =
      attention_variants(architecture_preset("deepseek-v3.2"), VariantOptions{});
  const ServingSetup setup = b200s(16);
  const double S = 1e6, k = 2048;
  const Roofline dense = make_roofline(variant(variants, "mla").architecture, setup, "t");
  const Roofline sparse = make_roofline(variant(variants, "sparse").architecture, setup, "t");
  CHECK(attended_kv_bytes_per_sequence(sparse, S) == k * 70272.0);
  CHECK(attended_kv_bytes_per_sequence(dense, S) == S * 70272.0);
  const OutputCostTerms d = output_cost_terms(dense, plan_serving(dense, setup, S, "t"));
  const OutputCostTerms s = output_cost_terms(sparse, plan_serving(sparse, setup, S, "t"));
  // Same replica, same bytes per token: the ratio is k/S up to two roundings.
  CHECK(s.kv_usd / d.kv_usd == Approx(k / S).epsilon(1e-15));
  // The indexer still reads its FP8 keys of all S tokens: 61 x 128 bytes each.
  const double usd_per_second = 16 * 4.0 / 3600.0, W = 16 * 8e12;
  CHECK(s.indexer_usd == Approx(usd_per_second * S * 61 * 128 / W).epsilon(1e-15));
  CHECK(d.indexer_usd == 0.0);
}

TEST_CASE("long context: replicas grow only to hold one sequence, and the binding resource",
          "[pricing][long]") {
  ServingSetup setup;
  setup.chip = find_hardware(scaleopt::builtin_hardware(), "h200");
  setup.chips = 20;
  setup.attention_flops = true;
  const std::vector<AttentionVariant> variants =
      attention_variants(architecture_preset("deepseek-v3.2"), VariantOptions{});
  const std::vector<LongContextRow> rows = compare_long_context(variants, setup, 8192, 1e6, "t");
  REQUIRE(rows.size() == 6);
  // MHA at 1M: bf16 weights 2 x 671,877,913,600 bytes plus 1M x 3,997,696 bytes of KV, over
  // 141GB per chip: 37.9, so 38 chips, in whole 8-chip nodes 40; at 8K the 20 given chips
  // hold it.
  const double needed = 2 * 671877913600.0 + 1e6 * 2 * 61 * 128 * 128 * 2.0;
  CHECK(rows[0].variant.id == "mha");
  CHECK(std::ceil(needed / 141e9) == 38);
  CHECK(rows[0].long_context.chips == 40);
  CHECK(rows[0].reference.chips == 20);
  for (const LongContextRow& row : rows) {
    INFO(row.variant.id);
    CHECK(row.reference.point.plan.status == Status::converged);
    CHECK(row.long_context.point.plan.status == Status::converged);
    // At 1M every variant is memory-bound with HBM capping the batch; longer costs more.
    CHECK(row.long_context.point.plan.step.memory_bound());
    CHECK(row.long_context.point.plan.bound == BatchBound::hbm);
    CHECK(row.long_context.point.plan.output_token.usd > row.reference.point.plan.output_token.usd);
  }
  // Attention FLOPs are counted: MLA decode at 1M does 2 (N_active - E) + 1M x 2 x 61 x 128 x
  // (576 + 512) FLOPs per token (absorbed projections, DeepSeek-V2 section 2.1.2), with
  // N_active = 38,403,791,872 and the input embedding E = 129,280 x 7,168 only gathered.
  const ServingPlan& mla = rows[2].long_context.point.plan;
  CHECK(mla.step.flops / mla.batch ==
        Approx(2 * (38403791872.0 - 926679040.0) + 1e6 * 2 * 61 * 128 * (576.0 + 512.0))
            .epsilon(1e-15));
}
