#pragma once
// How each layer of a transformer attends (docs/model.md, "Attention per layer"). A layer
// caches and reads some of these, and nothing else:
//
//   - a sliding window: the last `window` tokens, uncompressed;
//   - a stream of entries: every token (compress_ratio 1), or one entry pooled from each
//     `compress_ratio` tokens (DeepSeek-V4's compressor); all of them attended, or only the
//     top-k that a lightning indexer picks (DeepSeek-V3.2 DSA, DeepSeek-V4 CSA), the indexer
//     scoring every entry with keys of its own.
//
// Dense attention (MHA, GQA, MQA, MLA) is a stream of every token, all attended; DeepSeek-V3.2
// is every token, top-k; DeepSeek-V4's CSA layers are entries of 4 tokens, top-k, plus a
// window of 128; its HCA layers entries of 128 tokens, all attended, plus the window.
//
// The text form (scenario key architecture.layer_pattern, `scaleopt models`) lists the layers
// in order, comma-separated; "N x ITEM" repeats an item and parentheses group items:
//
//   layer := part ("+" part)*
//   part  := "all" | "top-k" | "window:" W | "compressed:" C | "compressed:" C "/top-k"
//
// "all" attends every token, "top-k" the indexer's choice among every token; "window:W" keeps
// W raw tokens; "compressed:C" attends every entry of C tokens, "compressed:C/top-k" the
// indexer's choice among them. A layer has at most one stream and at most one window, and a
// window beside "all" is refused (it adds nothing). DeepSeek-V4-Flash:
//
//   2 x window:128, 20 x (compressed:4/top-k+window:128, compressed:128+window:128),
//   compressed:4/top-k+window:128

#include <string>
#include <string_view>
#include <vector>

namespace scaleopt {

struct LayerAttention {
  double window = 0.0;          // raw tokens of the sliding window; 0: none
  double compress_ratio = 1.0;  // 0: no stream (window only); 1: every token; C: one per C
  bool top_k = false;           // the indexer picks the architecture's sparse_top_k entries

  bool has_stream() const { return compress_ratio > 0.0; }
  bool compressed() const { return compress_ratio > 1.0; }
  bool operator==(const LayerAttention&) const = default;
};

// One layer as text: "all", "compressed:4/top-k+window:128", "window:128".
std::string to_string(const LayerAttention& layer);

// The layers of `text` in order; throws InputError quoting the text and saying what was
// expected. An empty text gives no layers.
std::vector<LayerAttention> parse_layer_pattern(std::string_view text);

// The shortest text of the grammar above that parse_layer_pattern reads back to `layers`:
// repeated runs of up to four layers are written "N x (...)".
std::string format_layer_pattern(const std::vector<LayerAttention>& layers);

}  // namespace scaleopt
