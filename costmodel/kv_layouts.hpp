#pragma once
// Attention layouts that cache a given number of KV bytes per token: the second half of the
// talk's back-out (Pope on Dwarkesh 2026). A price step gives kv_bytes_per_token
// (kv_bytes_for_crossover in costmodel/roofline.hpp); which architectures cache that much?
//
//   MHA/GQA/MQA: 2 x cache_layers x kv_heads x head_dim x bytes per element
//   MLA:         cache_layers x (kv_latent_dim + rope_dim) x bytes per element
//
// For each family of the published grid below, the number of layers with their own cache is
// solved for and rounded; the layouts within the tolerance are listed. Fewer cache layers than
// the model has layers means cross-layer sharing (or layers without a global cache).

#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"

namespace scaleopt {

struct KvLayout {
  AttentionKind attention = AttentionKind::gqa;
  double kv_heads = 0.0;       // MHA/GQA/MQA
  double head_dim = 0.0;       // MHA/GQA/MQA
  double kv_latent_dim = 0.0;  // MLA
  double rope_dim = 0.0;       // MLA
  double bytes_per_element = 0.0;
  double cache_layers = 0.0;         // layers with their own KV cache
  double kv_bytes_per_token = 0.0;   // of this layout, exactly
  double relative_difference = 0.0;  // (layout - target) / target

  double bytes_per_cache_layer() const;
  // "GQA, 2 K/V heads x 128, fp8, 7 cache layers"
  std::string describe() const;
};

struct KvLayoutOptions {
  double tolerance =
      0.10;  // |layout - target| / target, "within 10%": the shapes published models use
  double max_cache_layers = 128.0;  // no published model has more layers than this
  // The model's layer count when known (0: unknown): layouts need no more cache layers.
  double model_layers = 0.0;

  // Throws InputError naming the field with `prefix` ("--tolerance", "--model-layers").
  void validate(std::string_view prefix) const;
};

// Layouts within tolerance of `kv_bytes_per_token`, nearest first. The grid: K/V heads 1 (MQA),
// 2, 4, 8, 16 (GQA; Llama 3 uses 8) of width 64, 128 or 256, and MLA with DeepSeek-V2/V3's
// latent 512 + RoPE 64; each in fp8 (1 byte) and bf16 (2 bytes).
std::vector<KvLayout> kv_layouts_near(double kv_bytes_per_token, const KvLayoutOptions& options,
                                      std::string_view prefix);

}  // namespace scaleopt
