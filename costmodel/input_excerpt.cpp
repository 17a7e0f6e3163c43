#include "scaleopt/costmodel/input_excerpt.hpp"

namespace scaleopt {
namespace {

// A UTF-8 continuation byte (10xxxxxx): a cut before it would split a character.
bool continues_character(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string input_excerpt(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  const std::size_t half = max_chars / 2;
  std::size_t head = half;
  while (head > 0 && continues_character(text[head])) --head;
  std::size_t tail = text.size() - half;
  while (tail < text.size() && continues_character(text[tail])) ++tail;
  return std::string(text.substr(0, head)) + "..." + std::string(text.substr(tail)) + " (" +
         std::to_string(text.size()) + " bytes)";
}

std::string quoted_input(std::string_view text) {
  std::string quoted(1, '\'');
  quoted += input_excerpt(text);
  quoted += '\'';
  return quoted;
}

}  // namespace scaleopt
