#include "scaleopt/costmodel/architecture_presets.hpp"

#include <string>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

// Meta-Llama-3-70B config.json (huggingface.co/meta-llama/Meta-Llama-3-70B): hidden_size 8192,
// num_hidden_layers 80, num_attention_heads 64, num_key_value_heads 8 (head_dim 8192/64 = 128),
// intermediate_size 28672, vocab_size 128256, tie_word_embeddings false.
Architecture llama3_70b() {
  Architecture a;
  a.name = "llama3-70b";
  a.source =
      "Meta-Llama-3-70B config.json (huggingface.co/meta-llama/Meta-Llama-3-70B): "
      "hidden_size 8192, num_hidden_layers 80, num_attention_heads 64, num_key_value_heads 8, "
      "intermediate_size 28672, vocab_size 128256, untied embeddings";
  a.layers = 80;
  a.d_model = 8192;
  a.vocab = 128256;
  a.attention = AttentionKind::gqa;
  a.heads = 64;
  a.kv_heads = 8;
  a.head_dim = 128;
  a.ffn_dim = 28672;
  return a;
}

// Llama-3.1-405B config.json (huggingface.co/meta-llama/Llama-3.1-405B): hidden_size 16384,
// num_hidden_layers 126, num_attention_heads 128, num_key_value_heads 8 (head_dim 128),
// intermediate_size 53248, vocab_size 128256, tie_word_embeddings false.
Architecture llama3_405b() {
  Architecture a;
  a.name = "llama3-405b";
  a.source =
      "Llama-3.1-405B config.json (huggingface.co/meta-llama/Llama-3.1-405B): hidden_size "
      "16384, num_hidden_layers 126, num_attention_heads 128, num_key_value_heads 8, "
      "intermediate_size 53248, vocab_size 128256, untied embeddings";
  a.layers = 126;
  a.d_model = 16384;
  a.vocab = 128256;
  a.attention = AttentionKind::gqa;
  a.heads = 128;
  a.kv_heads = 8;
  a.head_dim = 128;
  a.ffn_dim = 53248;
  return a;
}

// DeepSeek-V3 config.json (huggingface.co/deepseek-ai/DeepSeek-V3): hidden_size 7168,
// num_hidden_layers 61, num_attention_heads 128, q_lora_rank 1536, kv_lora_rank 512,
// qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, intermediate_size 18432 (the
// first_k_dense_replace = 3 dense layers), n_routed_experts 256, n_shared_experts 1,
// num_experts_per_tok 8, moe_intermediate_size 2048, vocab_size 129280, untied. The
// multi-token-prediction module (num_nextn_predict_layers 1) is not counted: DeepSeek-V3
// report, "671B total parameters with 37B activated for each token".
Architecture deepseek_v3() {
  Architecture a;
  a.name = "deepseek-v3";
  a.source =
      "DeepSeek-V3 config.json (huggingface.co/deepseek-ai/DeepSeek-V3): hidden_size 7168, "
      "num_hidden_layers 61, num_attention_heads 128, q_lora_rank 1536, kv_lora_rank 512, "
      "qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, intermediate_size 18432, "
      "first_k_dense_replace 3, n_routed_experts 256, n_shared_experts 1, num_experts_per_tok "
      "8, moe_intermediate_size 2048, vocab_size 129280; DeepSeek-V3 technical report "
      "(arXiv:2412.19437): 671B total, 37B activated";
  a.layers = 61;
  a.d_model = 7168;
  a.vocab = 129280;
  a.attention = AttentionKind::mla;
  a.heads = 128;
  a.head_dim = 128;
  a.v_head_dim = 128;
  a.kv_latent_dim = 512;
  a.rope_dim = 64;
  a.q_latent_dim = 1536;
  a.ffn_dim = 18432;
  a.dense_ffn_layers = 3;
  a.routed_experts = 256;
  a.shared_experts = 1;
  a.experts_per_token = 8;
  a.expert_ffn_dim = 2048;
  return a;
}

// DeepSeek-V3.2-Exp: the V3 shape plus DeepSeek Sparse Attention, config.json
// (huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp): index_topk 2048, index_n_heads 64,
// index_head_dim 128; the indexer runs in FP8. The indexer's own weights (~0.85B) are not
// counted in the parameters.
Architecture deepseek_v32() {
  Architecture a = deepseek_v3();
  a.name = "deepseek-v3.2";
  a.source =
      "DeepSeek-V3.2-Exp config.json (huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp): the "
      "DeepSeek-V3 shape plus index_topk 2048, index_n_heads 64, index_head_dim 128 (FP8 "
      "indexer keys); indexer weights not counted";
  a.sparse_top_k = 2048;
  a.indexer_heads = 64;
  a.indexer_head_dim = 128;
  return a;
}

// The frontier model of Pope on Dwarkesh (2026) as the talk states it (docs/model.md, Sources):
// 100B active parameters and about 1.7 KB of KV cache per token (the talk's inverse: a price step
// at 200K tokens with F/W ~ 600 FLOP/byte gives 1667 bytes). The talk gives no total
// parameter count; this preset assumes a dense model (total = active): set total_params for
// a mixture of experts.
Architecture frontier_100b() {
  Architecture a;
  a.name = "frontier-100b";
  a.source =
      "Pope on Dwarkesh (2026): 100B active parameters, ~1.7 KB of "
      "KV cache per token; total parameters not stated, assumed equal to active (dense)";
  a.total_params = 100e9;
  a.active_params = 100e9;
  a.kv_bytes_per_token = 1.7e3;
  return a;
}

}  // namespace

std::vector<Architecture> architecture_presets() {
  return {llama3_70b(), llama3_405b(), deepseek_v3(), deepseek_v32(), frontier_100b()};
}

Architecture architecture_preset(std::string_view name) {
  std::string known;
  for (Architecture& a : architecture_presets()) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  throw InputError("unknown model '" + std::string(name) + "': expected one of " + known +
                   " (see 'scaleopt models')");
}

}  // namespace scaleopt
