// The talk's back-out (Pope on Dwarkesh 2026; docs/model.md, Inference roofline): a price step at
// S* gives kv = 2 N_active / ((F/W) S*), and the attention layouts that cache about that much.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/kv_layouts.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;

TEST_CASE("the talk's inverse: 100B active, 600 FLOP/byte, 200K -> 1666.67 bytes per token",
          "[pricing][kv]") {
  // 2e11 / (600 x 2e5) = 5000/3, in 50 digits; double division rounds twice: 1e-15.
  const Real50 exact = Real50(2) * Real50("100e9") / (Real50(600) * Real50("200e3"));
  CHECK(relative_difference(kv_bytes_for_crossover(100e9, 600.0, 200e3), exact) <= 1e-15);
  // With H100 fp8 figures (1979 TFLOP/s, 3.35 TB/s): 2e11 * 3.35e12 / (1979e12 * 2e5) = 1692.77.
  const Real50 h100 =
      Real50(2) * Real50("100e9") * Real50("3.35e12") / (Real50("1979e12") * Real50("200e3"));
  const double ours = kv_bytes_for_crossover(100e9, 1979e12 / 3.35e12, 200e3);
  CHECK(relative_difference(ours, h100) <= 1e-15);
  CHECK(ours == Approx(1693).margin(0.5));  // the published "~1693"
}

TEST_CASE("layouts within 10% of 1667 bytes per token, nearest first", "[pricing][kv]") {
  const double kv = 5000.0 / 3.0;
  const std::vector<KvLayout> layouts = kv_layouts_near(kv, KvLayoutOptions{}, "--");
  REQUIRE_FALSE(layouts.empty());
  // Nearest: MQA, one K/V head of 64, fp8, 13 cache layers: 2 x 13 x 64 x 1 = 1664 bytes.
  CHECK(layouts[0].attention == AttentionKind::mqa);
  CHECK(layouts[0].head_dim == 64);
  CHECK(layouts[0].bytes_per_element == 1);
  CHECK(layouts[0].cache_layers == 13);
  CHECK(layouts[0].kv_bytes_per_token == 1664);
  bool mla_fp8 = false;
  for (const KvLayout& l : layouts) {
    INFO(l.describe());
    const double by_hand = l.attention == AttentionKind::mla
                               ? l.cache_layers * 576 * l.bytes_per_element
                               : 2 * l.cache_layers * l.kv_heads * l.head_dim * l.bytes_per_element;
    CHECK(l.kv_bytes_per_token == by_hand);
    CHECK(std::abs(l.kv_bytes_per_token - kv) <= 0.1 * kv);
    CHECK(l.relative_difference == Approx((by_hand - kv) / kv).epsilon(1e-15));
    // DeepSeek's latent in fp8 over 3 layers: 1728 bytes, +3.7%.
    mla_fp8 = mla_fp8 || (l.attention == AttentionKind::mla && l.cache_layers == 3 &&
                          l.bytes_per_element == 1);
  }
  CHECK(mla_fp8);
  for (std::size_t i = 1; i < layouts.size(); ++i) {
    CHECK(std::abs(layouts[i].relative_difference) >= std::abs(layouts[i - 1].relative_difference));
  }
  // Llama 3 70B's own layout (GQA-8 x 128, bf16: 4096 bytes per layer) cannot be this small.
  for (const KvLayout& l : layouts) CHECK_FALSE((l.kv_heads == 8 && l.head_dim == 128));
}

TEST_CASE("a model's layer count bounds the cache layers; bad options name the flag",
          "[pricing][kv]") {
  KvLayoutOptions options;
  options.model_layers = 10;
  for (const KvLayout& l : kv_layouts_near(5000.0 / 3.0, options, "--")) {
    CHECK(l.cache_layers <= 10);
  }
  options.tolerance = 1.5;
  CHECK_THROWS_WITH(kv_layouts_near(1e3, options, "--"),
                    Catch::StartsWith("--tolerance: must be in (0, 1)"));
}
