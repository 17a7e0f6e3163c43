#include "scaleopt/costmodel/architecture_presets.hpp"

#include <string>
#include <utility>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {
namespace {

// Llama 3's checkpoints ship BF16 (config.json torch_dtype "bfloat16"), and its reference code
// caches K and V in the activations' BF16.
ShippedFormats llama_formats(const std::string& config) {
  ShippedFormats f;
  f.weights = Precision::bf16;
  f.weights_source = config + " torch_dtype bfloat16";
  f.kv = Precision::bf16;
  f.kv_source = config + " torch_dtype bfloat16 (K and V cached in the activations' format)";
  return f;
}

// DeepSeek-V3 and V3.2 ship FP8 weights: config.json quantization_config quant_method fp8, fmt
// e4m3, weight_block_size [128, 128] (one scale per 128 x 128 block, not counted). Their
// inference/model.py caches the MLA latent and the RoPE key in BF16 (the default dtype):
// (512 + 64) x 2 = 1,152 bytes per token and layer.
ShippedFormats deepseek_v3_formats(const std::string& repository) {
  ShippedFormats f;
  f.weights = Precision::fp8;
  f.weights_source = repository +
                     " config.json quantization_config: quant_method fp8, fmt e4m3, "
                     "weight_block_size [128, 128]";
  f.kv = Precision::bf16;
  f.kv_source = repository +
                " inference/model.py: kv_cache (kv_lora_rank 512) and pe_cache (qk_rope_head_dim "
                "64) in the default dtype bfloat16, 1,152 bytes per token and layer";
  return f;
}

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
  a.shipped = llama_formats("Meta-Llama-3-70B config.json");
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
  a.shipped = llama_formats("Llama-3.1-405B config.json");
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
  a.shipped = deepseek_v3_formats("huggingface.co/deepseek-ai/DeepSeek-V3");
  return a;
}

// DeepSeek-V3.2-Exp: the V3 shape plus DeepSeek Sparse Attention, config.json
// (huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp): index_topk 2048, index_n_heads 64,
// index_head_dim 128; the indexer's keys are cached in FP8 with one FP32 scale per 128
// elements (inference/model.py: k_cache float8_e4m3fn, k_scale_cache float32 of head_dim /
// block_size), 128 + 4 = 132 bytes per token and layer, so 132 / 128 bytes per element. The
// indexer's own weights (wq_b from the query latent, wk, weights_proj: 0.85B over 61 layers)
// are counted.
Architecture deepseek_v32() {
  Architecture a = deepseek_v3();
  a.name = "deepseek-v3.2";
  a.source =
      "DeepSeek-V3.2-Exp config.json (huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp): the "
      "DeepSeek-V3 shape plus index_topk 2048, index_n_heads 64, index_head_dim 128; "
      "inference/model.py: indexer keys cached in FP8 with an FP32 scale per 128 (132 bytes "
      "per token and layer), indexer weights wq_b, wk, weights_proj (counted)";
  a.sparse_top_k = 2048;
  a.indexer_heads = 64;
  a.indexer_head_dim = 128;
  a.indexer_bytes_per_element = 132.0 / 128.0;
  a.shipped = deepseek_v3_formats("huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp");
  return a;
}

// DeepSeek-V4 attention (inference/model.py of the Hugging Face repositories; vLLM
// vllm/models/deepseek_v4/attention.py): per layer one KV vector of head_dim 512 shared by all
// query heads, keys equal to values (the last qk_rope_head_dim 64 of it rotary); queries
// through q_lora_rank; output through o_groups groups of o_lora_rank; every layer keeps a
// window of sliding_window 128 raw rows; compress_ratios[i] = 4 is a CSA layer (entries of 4
// tokens, the indexer's index_topk), 128 an HCA layer (all entries), 0 the window alone. The
// indexer keys are cached in FP4 (DeepSeek's serving recipe sets use_fp4_indexer_cache; vLLM
// stores 64 packed bytes per 128-element key). Every layer is a mixture of experts (the first
// num_hash_layers 3 route by a token-id hash: their gate is not counted, nor are the
// multi-token-prediction layer and the hyper-connection mixing, hc_mult 4, about 0.2% of
// the active parameters).
Architecture deepseek_v4(std::string name, std::string source) {
  Architecture a;
  a.name = std::move(name);
  a.source = std::move(source);
  a.vocab = 129280;
  a.attention = AttentionKind::mqa;
  a.kv_heads = 1;
  a.head_dim = 512;
  a.rope_dim = 64;
  a.shared_key_value = true;
  a.dense_ffn_layers = 0;
  a.shared_experts = 1;
  a.experts_per_token = 6;
  a.indexer_heads = 64;
  a.indexer_head_dim = 128;
  a.indexer_bytes_per_element = 0.5;
  // DeepSeek-V4 technical report: FP8 weights with the MoE experts in FP4, computed as
  // "equivalent FP8 FLOPs" (so at the FP8 peak here); section 2.3.4: each KV row stored as 448
  // FP8 elements and the 64 RoPE dimensions in BF16, 576 bytes (FlashMLA's layout adds 8 bytes
  // of scales, not counted: the report's figure). The shared expert is counted in FP8 (the
  // report's FP4 is for the routed experts' weights).
  ShippedFormats f;
  f.weights = Precision::fp8;
  f.routed_expert_bytes_per_param = 0.5;
  f.weights_source =
      "DeepSeek-V4 technical report: FP8 weights, MoE experts in FP4 (0.5 bytes per parameter), "
      "FLOPs counted as equivalent FP8 FLOPs";
  f.kv = Precision::fp8;
  f.kv_rope = Precision::bf16;
  f.kv_source =
      "DeepSeek-V4 technical report, section 2.3.4: KV rows of 448 FP8 elements and 64 BF16 "
      "RoPE dimensions, 576 bytes per row";
  a.shipped = f;
  return a;
}

// The layer of one entry of config.json's compress_ratios (sliding_window 128 in every layer).
LayerAttention v4_layer(double ratio) {
  LayerAttention layer;
  layer.window = 128;
  layer.compress_ratio = ratio;
  layer.top_k = ratio == 4;
  return layer;
}

// DeepSeek-V4-Pro config.json (huggingface.co/deepseek-ai/DeepSeek-V4-Pro): num_hidden_layers
// 61, hidden_size 7168, num_attention_heads 128, num_key_value_heads 1, head_dim 512,
// qk_rope_head_dim 64, q_lora_rank 1536, o_groups 16, o_lora_rank 1024, sliding_window 128,
// compress_ratios [128, 128, 4, 128, 4, ..., 4, 0] (layers 0 and 1 HCA, then CSA on even and
// HCA on odd layers; the last entry is the MTP layer), index_n_heads 64, index_head_dim 128,
// index_topk 1024, n_routed_experts 384, n_shared_experts 1, num_experts_per_tok 6,
// moe_intermediate_size 3072, vocab_size 129280, untied. Model card: 1.6T total, 49B active.
Architecture deepseek_v4_pro() {
  Architecture a = deepseek_v4(
      "deepseek-v4-pro",
      "DeepSeek-V4-Pro config.json (huggingface.co/deepseek-ai/DeepSeek-V4-Pro): "
      "num_hidden_layers 61, hidden_size 7168, num_attention_heads 128, num_key_value_heads 1, "
      "head_dim 512 (keys = values), qk_rope_head_dim 64, q_lora_rank 1536, o_groups 16, "
      "o_lora_rank 1024, sliding_window 128, compress_ratios [128, 128] + [4, 128] x 29 + [4] "
      "(+ 0 for the MTP layer), index_n_heads 64, index_head_dim 128, index_topk 1024, "
      "n_routed_experts 384, n_shared_experts 1, num_experts_per_tok 6, moe_intermediate_size "
      "3072, vocab_size 129280, untied; model card: 1.6T total, 49B activated; inference/"
      "model.py: FP8 KV rows (RoPE part BF16), indexer on compress ratio 4; FP4 indexer keys "
      "(use_fp4_indexer_cache)");
  a.layers = 61;
  a.d_model = 7168;
  a.heads = 128;
  a.q_latent_dim = 1536;
  a.output_groups = 16;
  a.output_latent_dim = 1024;
  a.routed_experts = 384;
  a.expert_ffn_dim = 3072;
  a.sparse_top_k = 1024;
  a.layer_pattern = {v4_layer(128), v4_layer(128)};
  for (int i = 2; i < 61; ++i) a.layer_pattern.push_back(v4_layer(i % 2 == 0 ? 4 : 128));
  return a;
}

// DeepSeek-V4-Flash config.json (huggingface.co/deepseek-ai/DeepSeek-V4-Flash):
// num_hidden_layers 43, hidden_size 4096, num_attention_heads 64, num_key_value_heads 1,
// head_dim 512, qk_rope_head_dim 64, q_lora_rank 1024, o_groups 8, o_lora_rank 1024,
// sliding_window 128, compress_ratios [0, 0] + [4, 128] x 20 + [4, 0] (layers 0 and 1 window
// only, then CSA on even and HCA on odd layers; the last entry is the MTP layer),
// index_n_heads 64, index_head_dim 128, index_topk 512, n_routed_experts 256,
// n_shared_experts 1, num_experts_per_tok 6, moe_intermediate_size 2048, vocab_size 129280.
// Model card: 284B total, 13B active.
Architecture deepseek_v4_flash() {
  Architecture a = deepseek_v4(
      "deepseek-v4-flash",
      "DeepSeek-V4-Flash config.json (huggingface.co/deepseek-ai/DeepSeek-V4-Flash): "
      "num_hidden_layers 43, hidden_size 4096, num_attention_heads 64, num_key_value_heads 1, "
      "head_dim 512 (keys = values), qk_rope_head_dim 64, q_lora_rank 1024, o_groups 8, "
      "o_lora_rank 1024, sliding_window 128, compress_ratios [0, 0] + [4, 128] x 20 + [4] "
      "(+ 0 for the MTP layer), index_n_heads 64, index_head_dim 128, index_topk 512, "
      "n_routed_experts 256, n_shared_experts 1, num_experts_per_tok 6, moe_intermediate_size "
      "2048, vocab_size 129280, untied; model card: 284B total, 13B activated; inference/"
      "model.py: FP8 KV rows (RoPE part BF16), indexer on compress ratio 4; FP4 indexer keys "
      "(use_fp4_indexer_cache)");
  a.layers = 43;
  a.d_model = 4096;
  a.heads = 64;
  a.q_latent_dim = 1024;
  a.output_groups = 8;
  a.output_latent_dim = 1024;
  a.routed_experts = 256;
  a.expert_ffn_dim = 2048;
  a.sparse_top_k = 512;
  LayerAttention window_only;
  window_only.window = 128;
  window_only.compress_ratio = 0;
  a.layer_pattern = {window_only, window_only};
  for (int i = 2; i < 43; ++i) a.layer_pattern.push_back(v4_layer(i % 2 == 0 ? 4 : 128));
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
  return {llama3_70b(),      llama3_405b(),       deepseek_v3(),  deepseek_v32(),
          deepseek_v4_pro(), deepseek_v4_flash(), frontier_100b()};
}

Architecture architecture_preset(std::string_view name) {
  std::string known;
  for (Architecture& a : architecture_presets()) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  throw InputError("unknown model " + quoted_input(name) + ": expected one of " + known +
                   " (see 'scaleopt models')");
}

}  // namespace scaleopt
