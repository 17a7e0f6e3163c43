// `scaleopt models --json`: each preset's shape as its own fields, checked against the public
// config.json it comes from (the values below are copied from those files, not from the
// program), with null where the architecture has no such part.

#include <catch2/catch.hpp>
#include <string>

#include "cli_runner.hpp"

namespace {

nlohmann::json model_shape(const nlohmann::json& models, const std::string& name) {
  for (const auto& model : models) {
    if (model["name"] == name) return model["shape"];
  }
  FAIL("no model " << name << " in scaleopt models --json");
  return nullptr;
}

}  // namespace

TEST_CASE("models --json: the shape of each preset, as its config.json states it",
          "[architecture][cli]") {
  const CliRun run = run_cli({"models", "--json"});
  REQUIRE(run.status == 0);
  const nlohmann::json models = run.json()["models"];

  SECTION("llama3-70b: grouped-query attention, dense FFN") {
    // huggingface.co/meta-llama/Meta-Llama-3-70B config.json: hidden_size 8192,
    // num_hidden_layers 80, num_attention_heads 64, num_key_value_heads 8, intermediate_size
    // 28672, vocab_size 128256, tie_word_embeddings false; head_dim = 8192 / 64 = 128.
    const nlohmann::json s = model_shape(models, "llama3-70b");
    CHECK(s["hidden_size"] == 8192);
    CHECK(s["layers"] == 80);
    CHECK(s["attention_heads"] == 64);
    CHECK(s["kv_heads"] == 8);
    CHECK(s["head_dim"] == 128);
    CHECK(s["intermediate_size"] == 28672);
    CHECK(s["vocab_size"] == 128256);
    CHECK(s["tied_embeddings"] == false);
    CHECK(s["kv_cache_layers"] == 80);  // no cross-layer KV sharing: every layer caches
    // Not MLA, not a mixture of experts, dense attention.
    for (const char* absent :
         {"kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim",
          "o_groups", "o_lora_rank", "routed_experts", "experts_per_token", "shared_experts",
          "moe_intermediate_size", "dense_ffn_layers", "indexer_heads", "indexer_head_dim",
          "indexer_key_bytes_per_element"}) {
      INFO(absent);
      REQUIRE(s.contains(absent));
      CHECK(s[absent].is_null());
    }
  }

  SECTION("deepseek-v3: multi-head latent attention, mixture of experts") {
    // huggingface.co/deepseek-ai/DeepSeek-V3 config.json: hidden_size 7168, num_hidden_layers
    // 61, num_attention_heads 128, kv_lora_rank 512, q_lora_rank 1536, qk_rope_head_dim 64,
    // qk_nope_head_dim 128, v_head_dim 128, n_routed_experts 256, num_experts_per_tok 8,
    // n_shared_experts 1, moe_intermediate_size 2048, intermediate_size 18432,
    // first_k_dense_replace 3, vocab_size 129280.
    const nlohmann::json s = model_shape(models, "deepseek-v3");
    CHECK(s["hidden_size"] == 7168);
    CHECK(s["layers"] == 61);
    CHECK(s["attention_heads"] == 128);
    CHECK(s["kv_lora_rank"] == 512);
    CHECK(s["q_lora_rank"] == 1536);
    CHECK(s["qk_rope_head_dim"] == 64);
    CHECK(s["qk_nope_head_dim"] == 128);
    CHECK(s["v_head_dim"] == 128);
    CHECK(s["routed_experts"] == 256);
    CHECK(s["experts_per_token"] == 8);
    CHECK(s["shared_experts"] == 1);
    CHECK(s["moe_intermediate_size"] == 2048);
    CHECK(s["intermediate_size"] == 18432);
    CHECK(s["dense_ffn_layers"] == 3);
    CHECK(s["vocab_size"] == 129280);
    // MLA has no K/V heads of its own (every head is decompressed from the latent), V3 no
    // grouped output projection and dense attention (V3.2 adds the indexer).
    for (const char* absent :
         {"kv_heads", "head_dim", "keys_equal_values", "o_groups", "o_lora_rank", "indexer_heads",
          "indexer_head_dim", "indexer_key_bytes_per_element"}) {
      INFO(absent);
      REQUIRE(s.contains(absent));
      CHECK(s[absent].is_null());
    }
  }

  SECTION("frontier-100b: given by its totals, no shape") {
    // The talk states 100B active parameters and ~1.7 KB of KV per token, no dimensions.
    CHECK(model_shape(models, "frontier-100b").is_null());
  }
}
