// Architectures: parameters, KV bytes per token and attention FLOPs of each preset against a
// hand computation from its public config.json (the comments show the arithmetic).

#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/pretraining_cost.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

TEST_CASE("KV bytes per token of each preset match the hand computation", "[architecture]") {
  // GQA: 2 (K and V) * layers * kv_heads * head_dim elements per token.
  // llama3-70b: 2 * 80 * 8 * 128 = 163,840; llama3-405b: 2 * 126 * 8 * 128 = 258,048.
  CHECK(architecture_preset("llama3-70b").kv_elements_per_token() == 163840.0);
  CHECK(architecture_preset("llama3-70b").kv_cache_bytes_per_token(2.0) == 327680.0);
  CHECK(architecture_preset("llama3-405b").kv_elements_per_token() == 258048.0);
  CHECK(architecture_preset("llama3-405b").kv_cache_bytes_per_token(2.0) == 516096.0);
  // MLA: layers * (kv_lora_rank + qk_rope_head_dim) = 61 * (512 + 64) = 35,136 (docs/model.md,
  // "KV bytes per token").
  const Architecture v3 = architecture_preset("deepseek-v3");
  CHECK(v3.kv_elements_per_token() == 35136.0);
  CHECK(v3.kv_cache_bytes_per_token(2.0) == 70272.0);
  CHECK(v3.kv_cache_bytes_per_token(1.0) == 35136.0);
  // The talk's frontier model: given directly, whatever the KV precision.
  CHECK(architecture_preset("frontier-100b").kv_cache_bytes_per_token(2.0) == 1700.0);
  CHECK(architecture_preset("frontier-100b").kv_cache_bytes_per_token(1.0) == 1700.0);
}

TEST_CASE("parameter counts of the presets match their configs", "[architecture]") {
  // Llama: per layer q 8192^2 + k,v 2*8192*1024 + o 8192^2 + FFN 3*8192*28672 + 2 norms
  // 2*8192 = 855,654,400; x 80 + untied embeddings 2*128256*8192 + final norm 8192
  // = 70,553,706,496 (the Hugging Face model page shows 70.6B).
  const Architecture l70 = architecture_preset("llama3-70b");
  CHECK(l70.total_param_count() == 70553706496.0);
  CHECK(l70.active_param_count() == 70553706496.0);
  // Same for 405B: 126 * 3,187,703,808 + 2*128256*16384 + 16384 = 405,853,388,800 (HF: 406B).
  CHECK(architecture_preset("llama3-405b").total_param_count() == 405853388800.0);
  // DeepSeek-V3: attention 187,107,328 per layer (q 7168*1536 + 1536 + 1536*128*192; kv
  // 7168*576 + 512 + 512*128*256; o 128*128*7168), 3 dense FFNs 3*7168*18432, 58 MoE layers of
  // 257 experts 3*7168*2048 and a router 7168*256, norms, untied 129280*7168 embeddings:
  // 671,026,404,352 total; with 8 routed + 1 shared experts: 37,552,282,624 active.
  const Architecture v3 = architecture_preset("deepseek-v3");
  CHECK(v3.total_param_count() == 671026404352.0);
  CHECK(v3.active_param_count() == 37552282624.0);
  // The report's rounded figures: "671B total parameters with 37B activated".
  CHECK(v3.total_param_count() == Approx(671e9).epsilon(1e-4));
  CHECK(v3.active_param_count() == Approx(37e9).epsilon(0.02));
}

TEST_CASE("attention FLOPs per context token follow Kaplan et al. and MLA", "[architecture]") {
  // MHA/GQA: 2 FLOPs per multiply-add, q.k and values: 4 * layers * heads * head_dim.
  const Architecture l70 = architecture_preset("llama3-70b");
  CHECK(l70.attention_flops_per_context_token(AttentionPass::prefill) == 4.0 * 80 * 64 * 128);
  // Kaplan et al. 2020: 2 n_layer n_ctx d_attn forward per training token, x3 with backward.
  const double context = 8192.0;
  CHECK(training_flops_per_token(l70, context) ==
        6.0 * l70.active_param_count() + 3.0 * 2.0 * 80 * context * 8192);
  // MLA: prefill on decompressed heads, 2*61*128*((128+64) + 128) = 4,997,120; decode on the
  // cached latent (absorbed), 2*61*128*((512+64) + 512) = 16,990,208.
  const Architecture v3 = architecture_preset("deepseek-v3");
  CHECK(v3.attention_flops_per_context_token(AttentionPass::prefill) == 4997120.0);
  CHECK(v3.attention_flops_per_context_token(AttentionPass::decode) == 16990208.0);
  // DeepSeek-V3.2's indexer: 61 layers * (128 FP8 bytes of key + one 4-byte FP32 scale per 128
  // elements) = 61 * 132 = 8,052 bytes; 2 * 61 * 64 * 128 FLOPs.
  const Architecture v32 = architecture_preset("deepseek-v3.2");
  CHECK(v32.indexer_bytes_per_token() == 61.0 * (128 + 4));
  CHECK(v32.indexer_flops_per_context_token() == 999424.0);
}

TEST_CASE("MHA, MQA and layers sharing a KV cache", "[architecture]") {
  Architecture a = architecture_preset("llama3-70b");
  a.attention = AttentionKind::mha;
  a.kv_heads = 0;  // MHA: one K/V head per query head
  CHECK(a.kv_elements_per_token() == 2.0 * 80 * 64 * 128);
  a.attention = AttentionKind::mqa;
  CHECK(a.kv_elements_per_token() == 2.0 * 80 * 1 * 128);
  a.attention = AttentionKind::gqa;
  a.kv_heads = 8;
  a.kv_cache_layers = 40;  // pairs of layers share one cache: each pair counts once
  CHECK(a.kv_elements_per_token() == 2.0 * 40 * 8 * 128);
}

TEST_CASE("inconsistent architectures name the field", "[architecture]") {
  Architecture a = architecture_preset("llama3-70b");
  a.attention = AttentionKind::mha;
  CHECK_THROWS_WITH(a.validate("architecture"),
                    "architecture.kv_heads: must equal heads for attention = \"mha\" (use \"gqa\" "
                    "for fewer)");
  Architecture moe = architecture_preset("deepseek-v3");
  moe.experts_per_token = 300;
  CHECK_THROWS_WITH(moe.validate("architecture"),
                    "architecture.experts_per_token: must be between 1 and routed_experts");
  Architecture direct;
  direct.total_params = 1e9;
  // Totals alone are a valid model to train; KV bytes are needed only to serve it.
  CHECK_NOTHROW(direct.validate("architecture"));
  ServingSetup serving;
  serving.chip = find_hardware(builtin_hardware(), "h100-sxm");
  CHECK_THROWS_WITH(make_roofline(direct, serving, "inference"),
                    Catch::StartsWith("architecture.kv_bytes_per_token: required to price "
                                      "serving by the roofline"));
  direct.kv_bytes_per_token = 1000;
  direct.active_params = 2e9;
  CHECK_THROWS_WITH(direct.validate("architecture"),
                    Catch::StartsWith("architecture.active_params: active parameters"));
  CHECK_THROWS_WITH(architecture_preset("gpt-5"),
                    Catch::StartsWith("unknown model 'gpt-5': expected one of llama3-70b"));
}

TEST_CASE("scaleopt models lists the presets", "[architecture][cli]") {
  const CliRun run = run_cli({"models", "--json"});
  REQUIRE(run.status == 0);
  const auto list = run.json()["models"];
  REQUIRE(list.size() == 7);
  CHECK(list[2]["name"] == "deepseek-v3");
  CHECK(list[4]["name"] == "deepseek-v4-pro");
  CHECK(list[4]["layer_pattern"] ==
        "2 x compressed:128+window:128, 29 x (compressed:4/top-k+window:128, "
        "compressed:128+window:128), compressed:4/top-k+window:128");
  CHECK(list[2]["layer_pattern"].is_null());
  CHECK(list[2]["kv_bytes_per_token_bf16"].get<double>() == 70272.0);
  CHECK(run_cli({"models"}).out.find("frontier-100b") != std::string::npos);
}
