#include "scaleopt/costmodel/attention_pattern.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt {
namespace {

constexpr std::string_view kGrammar =
    "layers such as \"61 x all\", \"2 x window:128, 20 x (compressed:4/top-k+window:128, "
    "compressed:128+window:128)\"; a layer is all, top-k, window:W, compressed:C or "
    "compressed:C/top-k, joined by '+'";

// Most layers a pattern may list: far beyond any model's depth (a bound, so that nested
// repetitions cannot ask for unbounded memory).
constexpr double kMaxRepeat = 1e5;
constexpr std::size_t kMaxLayers = 100000;
// Deepest nesting of parentheses read (the recursion of the parser is bounded by it).
constexpr int kMaxDepth = 16;

std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::vector<LayerAttention> pattern() {
    std::vector<LayerAttention> layers;
    skip_space();
    if (at_end()) return layers;
    while (true) {
      item(layers);
      skip_space();
      if (at_end() || peek() == ')') return layers;
      expect(',');
    }
  }

  void finish() {
    skip_space();
    if (!at_end()) fail("unexpected '" + std::string(1, peek()) + "'");
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("cannot read layer pattern " + quoted_input(text_) + " (" + why +
                     " at character " + std::to_string(position_ + 1) + "): expected " +
                     std::string(kGrammar));
  }

  bool at_end() const { return position_ >= text_.size(); }
  char peek() const { return text_[position_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n')) ++position_;
  }
  void expect(char c) {
    skip_space();
    if (at_end() || peek() != c) fail(std::string("expected '") + c + "'");
    ++position_;
  }
  bool accept(std::string_view word) {
    skip_space();
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    return true;
  }

  // Characters of a number with an optional multiplier suffix ("128", "4K", "1e3").
  std::string_view number_token() {
    skip_space();
    const std::size_t start = position_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '.' ||
                         ((peek() == '+' || peek() == '-') && position_ > start &&
                          (text_[position_ - 1] == 'e' || text_[position_ - 1] == 'E')))) {
      ++position_;
    }
    return text_.substr(start, position_ - start);
  }

  double positive(std::string_view what) {
    const std::string_view token = number_token();
    if (token.empty()) fail("expected " + std::string(what));
    double value = 0.0;
    try {
      value = parse_quantity(token, Unit::count);
    } catch (const InputError& e) {
      fail(std::string(what) + ": " + e.what());
    }
    if (!(value >= 1.0)) fail(std::string(what) + " must be >= 1, got " + number_text(value));
    return value;
  }

  // "N x ITEM" or ITEM.
  void item(std::vector<LayerAttention>& layers) {
    skip_space();
    double repeat = 1.0;
    if (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) {
      const std::size_t start = position_;
      while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) ++position_;
      const std::string_view digits = text_.substr(start, position_ - start);
      skip_space();
      if (at_end() || (peek() != 'x' && peek() != '*')) fail("a count must be followed by 'x'");
      ++position_;
      const double value = digits.size() > 7 ? kMaxRepeat + 1 : std::stod(std::string(digits));
      if (!(value >= 1.0 && value <= kMaxRepeat)) {
        fail("a repeat count must be a whole number from 1 to 100000, got " + std::string(digits));
      }
      repeat = value;
    }
    std::vector<LayerAttention> unit;
    skip_space();
    if (!at_end() && peek() == '(') {
      if (++depth_ > kMaxDepth) fail("groups nest deeper than 16");
      ++position_;
      unit = pattern();
      --depth_;
      if (unit.empty()) fail("empty group");
      expect(')');
    } else {
      unit.push_back(layer());
    }
    if (static_cast<double>(layers.size()) + repeat * static_cast<double>(unit.size()) >
        static_cast<double>(kMaxLayers)) {
      fail("more than 100000 layers");
    }
    for (double i = 0; i < repeat; ++i) layers.insert(layers.end(), unit.begin(), unit.end());
  }

  LayerAttention layer() {
    LayerAttention a;
    a.compress_ratio = 0.0;
    bool stream = false, window = false;
    while (true) {
      const std::size_t start = position_;
      if (accept("all")) {
        if (stream) fail("a layer has at most one of all, top-k, compressed");
        stream = true;
        a.compress_ratio = 1.0;
      } else if (accept("top-k")) {
        if (stream) fail("a layer has at most one of all, top-k, compressed");
        stream = true;
        a.compress_ratio = 1.0;
        a.top_k = true;
      } else if (accept("window:")) {
        if (window) fail("a layer has at most one window");
        window = true;
        a.window = positive("window:W");
      } else if (accept("compressed:")) {
        if (stream) fail("a layer has at most one of all, top-k, compressed");
        stream = true;
        a.compress_ratio = positive("compressed:C");
        if (accept("/top-k")) a.top_k = true;
      } else {
        position_ = start;
        skip_space();
        fail(at_end() ? "a layer is missing" : "unknown layer part");
      }
      skip_space();
      if (at_end() || peek() != '+') break;
      ++position_;
    }
    if (a.compress_ratio == 1.0 && !a.top_k && window) {
      fail("a window beside all adds nothing: write all, or window:W alone");
    }
    return a;
  }

  std::string_view text_;
  std::size_t position_ = 0;
  int depth_ = 0;
};

}  // namespace

std::string to_string(const LayerAttention& layer) {
  std::string text;
  if (layer.compress_ratio == 1.0) {
    text = layer.top_k ? "top-k" : "all";
  } else if (layer.compress_ratio > 1.0) {
    text = "compressed:" + number_text(layer.compress_ratio) + (layer.top_k ? "/top-k" : "");
  }
  if (layer.window > 0.0) {
    if (!text.empty()) text += '+';
    text += "window:";
    text += number_text(layer.window);
  }
  return text.empty() ? "none" : text;
}

std::vector<LayerAttention> parse_layer_pattern(std::string_view text) {
  Parser parser(text);
  std::vector<LayerAttention> layers = parser.pattern();
  parser.finish();
  return layers;
}

std::string format_layer_pattern(const std::vector<LayerAttention>& layers) {
  constexpr std::size_t kLongestPeriod = 4;
  std::string text;
  std::size_t i = 0;
  while (i < layers.size()) {
    // The run covering most layers from i: a block of 1 to 4 layers repeated.
    std::size_t best_period = 1, best_repeats = 1;
    for (std::size_t period = 1; period <= kLongestPeriod && i + period <= layers.size();
         ++period) {
      std::size_t repeats = 1;
      while (i + (repeats + 1) * period <= layers.size()) {
        bool same = true;
        for (std::size_t k = 0; k < period && same; ++k) {
          same = layers[i + repeats * period + k] == layers[i + k];
        }
        if (!same) break;
        ++repeats;
      }
      if (repeats >= 2 && period * repeats > best_period * best_repeats) {
        best_period = period;
        best_repeats = repeats;
      }
    }
    if (!text.empty()) text += ", ";
    if (best_repeats == 1) {
      text += to_string(layers[i]);
    } else {
      const std::vector<LayerAttention> block(layers.begin() + i, layers.begin() + i + best_period);
      const std::string inner = format_layer_pattern(block);
      text += std::to_string(best_repeats) + " x " + (best_period == 1 ? inner : "(" + inner + ")");
    }
    i += best_period * best_repeats;
  }
  return text;
}

}  // namespace scaleopt
