#include "scaleopt/costmodel/kv_layouts.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt {
namespace {

constexpr double kKvHeads[] = {1.0, 2.0, 4.0, 8.0, 16.0};
constexpr double kHeadDims[] = {64.0, 128.0, 256.0};
constexpr double kBytesPerElement[] = {1.0, 2.0};  // fp8, bf16
constexpr double kLatentDim = 512.0;               // DeepSeek-V2/V3 kv_lora_rank
constexpr double kRopeDim = 64.0;                  // DeepSeek-V2/V3 qk_rope_head_dim

std::string number(double value) {
  return format_quantity(value, Unit::number, 6);
}

}  // namespace

double KvLayout::bytes_per_cache_layer() const {
  if (attention == AttentionKind::mla) return (kv_latent_dim + rope_dim) * bytes_per_element;
  return 2.0 * kv_heads * head_dim * bytes_per_element;
}

std::string KvLayout::describe() const {
  std::ostringstream text;
  if (attention == AttentionKind::mla) {
    text << "MLA, latent " << number(kv_latent_dim) << " + RoPE " << number(rope_dim);
  } else {
    text << (kv_heads == 1.0 ? "MQA" : "GQA") << ", " << number(kv_heads) << " K/V head"
         << (kv_heads == 1.0 ? "" : "s") << " x " << number(head_dim);
  }
  text << ", " << (bytes_per_element == 1.0 ? "fp8" : "bf16") << ", " << number(cache_layers)
       << " cache layer" << (cache_layers == 1.0 ? "" : "s");
  return text.str();
}

void KvLayoutOptions::validate(std::string_view prefix) const {
  auto fail = [&](std::string_view field, std::string_view rule, double value) {
    std::ostringstream message;
    message << rule << ", got " << value;
    throw field_error(qualified_field(prefix, field), message.str());
  };
  if (!(tolerance > 0.0 && tolerance < 1.0)) fail("tolerance", "must be in (0, 1)", tolerance);
  if (!(model_layers >= 0.0 && std::isfinite(model_layers))) {
    fail("model_layers", "must be >= 0", model_layers);
  }
  if (!(max_cache_layers >= 1.0 && std::isfinite(max_cache_layers))) {
    fail("max_cache_layers", "must be >= 1", max_cache_layers);
  }
}

std::vector<KvLayout> kv_layouts_near(double kv_bytes_per_token, const KvLayoutOptions& options,
                                      std::string_view prefix) {
  options.validate(prefix);
  std::vector<KvLayout> families;
  for (double bytes : kBytesPerElement) {
    for (double heads : kKvHeads) {
      for (double dim : kHeadDims) {
        KvLayout layout;
        layout.attention = heads == 1.0 ? AttentionKind::mqa : AttentionKind::gqa;
        layout.kv_heads = heads;
        layout.head_dim = dim;
        layout.bytes_per_element = bytes;
        families.push_back(layout);
      }
    }
    KvLayout mla;
    mla.attention = AttentionKind::mla;
    mla.kv_latent_dim = kLatentDim;
    mla.rope_dim = kRopeDim;
    mla.bytes_per_element = bytes;
    families.push_back(mla);
  }
  const double max_layers = options.model_layers > 0.0
                                ? std::min(options.model_layers, options.max_cache_layers)
                                : options.max_cache_layers;
  std::vector<KvLayout> near;
  for (KvLayout layout : families) {
    // The one unknown, solved for: cache layers = target / bytes per cache layer, rounded.
    layout.cache_layers = std::round(kv_bytes_per_token / layout.bytes_per_cache_layer());
    if (layout.cache_layers < 1.0 || layout.cache_layers > max_layers) continue;
    layout.kv_bytes_per_token = layout.cache_layers * layout.bytes_per_cache_layer();
    layout.relative_difference =
        (layout.kv_bytes_per_token - kv_bytes_per_token) / kv_bytes_per_token;
    if (std::abs(layout.relative_difference) <= options.tolerance) near.push_back(layout);
  }
  std::stable_sort(near.begin(), near.end(), [](const KvLayout& a, const KvLayout& b) {
    return std::abs(a.relative_difference) < std::abs(b.relative_difference);
  });
  return near;
}

}  // namespace scaleopt
