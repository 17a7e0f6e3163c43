// Attention per layer (costmodel/attention_pattern.hpp) and DeepSeek-V4: the layer pattern's
// text form, the V4 presets' parameters, KV cache and decode FLOPs against a hand computation
// from their config.json, and the published ratios at 1M context against DeepSeek-V3.2
// ("27% of single-token inference FLOPs and 10% of KV cache" for V4-Pro, 10% and 7% for
// V4-Flash: the model cards of deepseek-ai/DeepSeek-V4-Pro and -Flash on Hugging Face).

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/attention_pattern.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

ServingSetup b200_fp8(double chips) {
  ServingSetup setup;
  setup.chip = find_hardware(builtin_hardware(), "b200");
  setup.precision = Precision::fp8;
  setup.kv_precision = Precision::fp8;
  setup.chips = chips;
  setup.usd_per_chip_hour = 4.0;
  return setup;
}

Roofline roofline_of(const std::string& model, double chips = 32) {
  return make_roofline(architecture_preset(model), b200_fp8(chips), "t");
}

}  // namespace

TEST_CASE("layer patterns read and print back", "[attention_pattern]") {
  const std::vector<LayerAttention> pro = architecture_preset("deepseek-v4-pro").layer_pattern;
  const std::string text = format_layer_pattern(pro);
  CHECK(text ==
        "2 x compressed:128+window:128, 29 x (compressed:4/top-k+window:128, "
        "compressed:128+window:128), compressed:4/top-k+window:128");
  CHECK(parse_layer_pattern(text) == pro);
  // config.json's compress_ratios for V4-Pro: [128, 128] then 4 on even, 128 on odd layers.
  REQUIRE(pro.size() == 61);
  for (std::size_t i = 0; i < pro.size(); ++i) {
    const double ratio = i < 2 ? 128.0 : (i % 2 == 0 ? 4.0 : 128.0);
    CHECK(pro[i].compress_ratio == ratio);
    CHECK(pro[i].window == 128.0);
    CHECK(pro[i].top_k == (ratio == 4.0));
  }
  const std::vector<LayerAttention> flash = architecture_preset("deepseek-v4-flash").layer_pattern;
  CHECK(format_layer_pattern(flash) ==
        "2 x window:128, 20 x (compressed:4/top-k+window:128, compressed:128+window:128), "
        "compressed:4/top-k+window:128");
  CHECK(parse_layer_pattern(format_layer_pattern(flash)) == flash);

  // Every form of a layer, nesting, and "*" for "x".
  const auto layers = parse_layer_pattern(" 2 * (all, 3 x window:4K), top-k , compressed:8 ");
  REQUIRE(layers.size() == 10);
  CHECK(layers[0] == LayerAttention{0.0, 1.0, false});
  CHECK(layers[1] == LayerAttention{4000.0, 0.0, false});
  CHECK(layers[8] == LayerAttention{0.0, 1.0, true});
  CHECK(layers[9] == LayerAttention{0.0, 8.0, false});
  CHECK(format_layer_pattern(layers) == "2 x (all, 3 x window:4000), top-k, compressed:8");
  CHECK(parse_layer_pattern("").empty());

  for (const char* bad : {"all+window:128", "all+top-k", "window:0", "compressed:0.5",
                          "window:128+window:64", "3 all", "0 x all", "(all", "all)", "dense",
                          "2 x ()", "100000 x (2 x all)", "all,", "compressed:4/top"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_layer_pattern(bad), InputError);
  }
  CHECK_THROWS_WITH(parse_layer_pattern(std::string(100000, '(')),
                    Catch::Contains("groups nest deeper than 16"));
  CHECK_THROWS_WITH(parse_layer_pattern("all+window:128"),
                    Catch::Contains("a window beside all adds nothing"));
}

TEST_CASE("a layer pattern is checked against the shape", "[attention_pattern]") {
  Architecture a = architecture_preset("llama3-70b");
  a.layer_pattern = parse_layer_pattern("79 x all");
  CHECK_THROWS_WITH(a.validate("architecture"),
                    Catch::Contains("architecture.layer_pattern: lists 79 layers but layers = 80"));
  a.layer_pattern = parse_layer_pattern("40 x (window:4096, top-k)");
  CHECK_THROWS_WITH(a.validate("architecture"),
                    Catch::Contains("architecture.sparse_top_k: must be > 0"));
  a.layer_pattern = parse_layer_pattern(
      "8 x (window:1, window:2, window:3, window:4, window:5, window:6, window:7, window:8, "
      "window:9, all)");
  CHECK_THROWS_WITH(a.validate("architecture"), Catch::Contains("has more than 8 distinct layers"));
  a.layer_pattern = parse_layer_pattern("80 x all");
  a.validate("architecture");
  // Eighty "all" layers are the uniform model: every number the same.
  const Architecture plain = architecture_preset("llama3-70b");
  CHECK(a.kv_elements_per_token() == plain.kv_elements_per_token());
  CHECK(a.total_param_count() == plain.total_param_count());
  a.kv_bytes_per_token = 1000.0;
  CHECK_THROWS_WITH(a.validate("architecture"),
                    Catch::Contains("kv_bytes_per_token: cannot be given with a layer_pattern"));
}

TEST_CASE("a sliding window caches and reads at most its tokens", "[attention_pattern]") {
  // Llama 3 70B with every other layer a 4096-token window: half the layers cache
  // min(S, 4096) tokens, half all S. At S = 100K, per sequence: 40 layers x 2 x 8 x 128 x 2
  // bytes = 163,840 bytes per token for each half; 163,840 (100,000 + 4,096) bytes.
  Architecture a = architecture_preset("llama3-70b");
  a.layer_pattern = parse_layer_pattern("40 x (window:4096, all)");
  ServingSetup setup = b200_fp8(8);
  setup.precision = Precision::bf16;
  setup.kv_precision = Precision::bf16;
  const Roofline r = make_roofline(a, setup, "t");
  CHECK(cached_bytes_per_sequence(r, 100e3) == 163840.0 * (100e3 + 4096));
  CHECK(kv_bytes_read_per_sequence(r, 100e3) == 163840.0 * (100e3 + 4096));
  CHECK(cached_bytes_per_sequence(r, 1000) == 327680.0 * 1000);  // below the window: all
  CHECK(cached_bytes_per_token(r) == 163840.0);                  // as the context grows
  // Decode attention FLOPs: 4 x 40 x 64 x 128 per attended token and layer half.
  CHECK(decode_attention_flops_per_token(r, 100e3) == 4.0 * 40 * 64 * 128 * (100e3 + 4096));
  // The longest context 10 GB holds: 163,840 (S + 4096) = 1e10 -> S = 56,939.75.
  CHECK(longest_context(r, 1e10) == Approx(1e10 / 163840.0 - 4096).epsilon(1e-12));
  CHECK(longest_context(r, 327680.0 * 1000) == Approx(1000).epsilon(1e-12));

  // S* with the kink at the window, against a scan of compute minus memory time.
  const double s_star = crossover_context(r);
  auto gap = [&](double S) {
    return decode_flops_per_token(r, S) / r.flop_per_second -
           (r.embedding_row_bytes + kv_bytes_read_per_sequence(r, S)) / r.bytes_per_second;
  };
  REQUIRE(std::isfinite(s_star));
  CHECK(std::abs(gap(s_star)) <= 1e-12 * decode_flops_per_token(r, s_star) / r.flop_per_second);
  CHECK(gap(s_star * 0.999) > 0.0);
  CHECK(gap(s_star * 1.001) < 0.0);
}

TEST_CASE("DeepSeek-V4 parameters match their config.json", "[deepseek_v4]") {
  // V4-Pro per layer: wq_a 7168*1536 = 11,010,048, q norm 1536, wq_b 1536*128*512 =
  // 100,663,296, wkv 7168*512 = 3,670,016 (one vector, keys = values), wo_a 128*512*1024 =
  // 67,108,864, wo_b 16*1024*7168 = 117,440,512, two norms 2*7168: 299,908,608 x 61 =
  // 18,294,425,088. Compressors (wkv + wgate, d -> 512, twice for CSA's overlapping windows):
  // 30 CSA x 14,680,064 + 31 HCA x 7,340,032 = 667,942,912. Indexers (30 CSA layers):
  // wq_b 1536*64*128 + weights_proj 7168*64 + compressor 4*7168*128 = 16,711,680 each,
  // 501,350,400. MoE per layer: 7 experts (6 + 1 shared) 3*7168*3072 + router 7168*384 =
  // 465,174,528 x 61 = 28,375,646,208 active; 385 experts: 1,551,593,766,912 total.
  // Embeddings 2*129280*7168 = 1,853,358,080, final norm 7168.
  const Architecture pro = architecture_preset("deepseek-v4-pro");
  pro.validate("t");
  CHECK(pro.total_param_count() == 1572910850560.0);
  CHECK(pro.active_param_count() == 49692729856.0);
  // The model card: 1.6T total, 49B activated. Ours leaves out the MTP layer, the hash
  // layers' routing table and the hyper-connection mixing (about 0.2% of the active), so the
  // total is 1.7% low; 3% and 2% bound that.
  CHECK(pro.total_param_count() == Approx(1.6e12).epsilon(0.03));
  CHECK(pro.active_param_count() == Approx(49e9).epsilon(0.02));

  // V4-Flash: per layer 4096*1024 + 1024 + 1024*64*512 + 4096*512 + 64*512*1024 + 8*1024*4096
  // + 2*4096 = 106,963,968 x 43 = 4,599,450,624; compressors 21 x 8,388,608 + 20 x 4,194,304
  // = 260,046,848; indexers 21 x (1024*64*128 + 4096*64 + 4*4096*128) = 225,705,984; MoE
  // 43 x (7*3*4096*2048 + 4096*256) = 7,620,001,792 active, 43 x (257*3*4096*2048 + 4096*256)
  // = 278,152,609,792 total; embeddings 2*129280*4096 = 1,059,061,760; final norm 4096.
  const Architecture flash = architecture_preset("deepseek-v4-flash");
  flash.validate("t");
  CHECK(flash.total_param_count() == 284296879104.0);
  CHECK(flash.active_param_count() == 13764271104.0);
  // The model card: 284B total, 13B activated (ours 13.76B: 6% above the rounded figure).
  CHECK(flash.total_param_count() == Approx(284e9).epsilon(0.005));
  CHECK(flash.active_param_count() == Approx(13e9).epsilon(0.07));

  // DeepSeek-V3.2 counts its indexer's weights now: 61 x (1536*64*128 + 7168*128 + 7168*64)
  // = 851,509,248 on top of DeepSeek-V3.
  const Architecture v3 = architecture_preset("deepseek-v3");
  const Architecture v32 = architecture_preset("deepseek-v3.2");
  CHECK(v32.total_param_count() - v3.total_param_count() == 851509248.0);
  CHECK(v32.active_param_count() - v3.active_param_count() == 851509248.0);
}

TEST_CASE("DeepSeek-V4's KV cache and decode FLOPs at 1M tokens, by hand", "[deepseek_v4]") {
  const double S = 1e6;
  // KV per sequence, FP8 rows (kv_precision fp8: 1 byte per element) and FP4 indexer keys:
  // every layer a window of 128 rows of 512 bytes; CSA layers S/4 entries of 512 bytes and
  // S/4 indexer keys of 128 x 0.5 bytes; HCA layers S/128 entries of 512 bytes.
  // V4-Pro: 61*128*512 + 30*250,000*(512 + 64) + 31*7,812.5*512 = 4,447,997,696.
  // V4-Flash: 43*128*512 + 21*250,000*576 + 20*7,812.5*512 = 3,106,818,048.
  const Roofline pro = roofline_of("deepseek-v4-pro");
  const Roofline flash = roofline_of("deepseek-v4-flash");
  CHECK(cached_bytes_per_sequence(pro, S) == 4447997696.0);
  CHECK(cached_bytes_per_sequence(flash, S) == 3106818048.0);
  // V3.2: every token in 61 layers, 576 bytes of latent and the indexer key as its inference
  // code caches it: 128 FP8 elements plus one FP32 scale per 128 elements, 128 + 4 = 132 bytes.
  const Roofline v32 = roofline_of("deepseek-v3.2");
  CHECK(cached_bytes_per_sequence(v32, S) == 61.0 * S * (576 + 128 + 4));

  // Decode FLOPs per token: 2 x (active - the input embedding table), plus per layer
  // 2 x heads x (512 + 512) per attended row or entry, plus the indexer's 2 x 64 x 128 per
  // scored entry. V4-Pro: 2 x (49,692,729,856 - 926,679,040) = 97,532,101,632; attended
  // 61 x 128 rows + 30 x 1024 top-k + 31 x 7,812.5 entries = 280,715.5, at 2 x 128 x 1024
  // = 262,144 FLOPs each: 73,587,884,032; indexer 30 x 250,000 x 16,384 = 122,880,000,000.
  const double pro_attended = 61 * 128 + 30 * 1024 + 31 * 7812.5;
  CHECK(decode_flops_per_token(pro, S) ==
        Approx(97532101632.0 + 2 * 128 * 1024 * pro_attended + 122880000000.0).epsilon(1e-15));
  // V4-Flash: 2 x (13,764,271,104 - 529,530,880) = 26,469,480,448; attended 43 x 128 +
  // 21 x 512 + 20 x 7,812.5; 2 x 64 x 1024 per entry; indexer 21 x 250,000 x 16,384.
  const double flash_attended = 43 * 128 + 21 * 512 + 20 * 7812.5;
  CHECK(decode_flops_per_token(flash, S) ==
        Approx(26469480448.0 + 2 * 64 * 1024 * flash_attended + 86016000000.0).epsilon(1e-15));
  // V3.2: 2 x (38,403,791,872 - 926,679,040) = 74,954,225,664; 61 x 2048 attended tokens at
  // 2 x 128 x (576 + 512) (absorbed MLA); indexer 61 x 1e6 x 16,384 = 999,424,000,000.
  CHECK(decode_flops_per_token(v32, S) ==
        Approx(74954225664.0 + 61 * 2048 * 2.0 * 128 * 1088 + 999424000000.0).epsilon(1e-15));
}

TEST_CASE("DeepSeek-V4 against V3.2 at 1M tokens: the published ratios", "[deepseek_v4]") {
  // Published (model cards): V4-Pro needs 27% of V3.2's single-token inference FLOPs and 10% of
  // its KV cache at 1M tokens; V4-Flash 10% and 7%. What counts as a FLOP here: every matmul
  // of a decoded token (2 per multiply-add: projections, compressors, indexer projections,
  // experts, the output head), attention over what each layer attends and the indexer's
  // scoring of every entry. KV: the deployed formats, FP8 rows for both (V3.2's 576-element
  // latent, V4's 512) and FP8 (V3.2, with the FP32 scale per 128 its inference code caches:
  // 132 bytes per layer) or FP4 (V4, scales not counted) indexer keys.
  const double S = 1e6;
  const Roofline v32 = roofline_of("deepseek-v3.2");
  const Roofline pro = roofline_of("deepseek-v4-pro");
  const Roofline flash = roofline_of("deepseek-v4-flash");
  const double kv32 = cached_bytes_per_sequence(v32, S);
  const double flops32 = decode_flops_per_token(v32, S);
  const double pro_kv = cached_bytes_per_sequence(pro, S) / kv32;
  const double pro_flops = decode_flops_per_token(pro, S) / flops32;
  const double flash_kv = cached_bytes_per_sequence(flash, S) / kv32;
  const double flash_flops = decode_flops_per_token(flash, S) / flops32;
  // By hand (the test above): V3.2 caches 61 x 1M x (576 + 132) = 43,188,000,000 bytes; KV
  // 4,447,997,696 / 43,188,000,000 = 10.30% and 3,106,818,048 / 43,188,000,000 = 7.19%; FLOPs
  // 294.0 / 1,109.2 GFLOP = 26.5% and 135.1 / 1,109.2 = 12.2%.
  CHECK(pro_kv == Approx(4447997696.0 / 43.188e9).epsilon(1e-12));
  CHECK(flash_kv == Approx(3106818048.0 / 43.188e9).epsilon(1e-12));
  CHECK(pro_flops == Approx(0.26506).epsilon(1e-4));
  CHECK(flash_flops == Approx(0.12180).epsilon(1e-4));
  // Against the published figures: KV within 15% (the precisions and the scales of the stored
  // formats move it by up to 10%: BF16 rows give 10.7% and 7.5%), FLOPs within 25% (what the
  // report counts as a FLOP is not stated; weighing each FLOP by its precision, FP8 at half
  // and FP4 at a quarter of a BF16 FLOP, would move Flash to 9% and Pro to 24%).
  CHECK(pro_kv == Approx(0.10).epsilon(0.15));
  CHECK(flash_kv == Approx(0.07).epsilon(0.15));
  CHECK(pro_flops == Approx(0.27).epsilon(0.25));
  CHECK(flash_flops == Approx(0.10).epsilon(0.25));

  // The same in BF16 rows (the indexer keys keep their own precision): still within 15%.
  ServingSetup bf16 = b200_fp8(32);
  bf16.kv_precision = Precision::bf16;
  const double kv32_bf16 =
      cached_bytes_per_sequence(make_roofline(architecture_preset("deepseek-v3.2"), bf16, "t"), S);
  const double pro_bf16 = cached_bytes_per_sequence(
                              make_roofline(architecture_preset("deepseek-v4-pro"), bf16, "t"), S) /
                          kv32_bf16;
  // By hand: V4-Pro 61 x 128 x 1,024 + 30 x 250,000 x (1,024 + 64) + 31 x 7,812.5 x 1,024 =
  // 8,415,995,392 bytes over V3.2's 61 x 1M x (1,152 + 132) = 78,324,000,000.
  CHECK(pro_bf16 == Approx(8415995392.0 / 78.324e9).epsilon(1e-12));
  CHECK(pro_bf16 == Approx(0.10).epsilon(0.15));
}
