#include "scaleopt/scenario/toml_nesting.hpp"

#include <algorithm>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

// Thrown where the text stops being TOML: the scan ends there, and toml++ reports the error.
struct NotToml {};

// A recursive descent over TOML's structure. It recurses once per level of nesting, and
// refuses a level beyond `max_depth` before descending, so its own stack stays shallow.
class NestingScan {
 public:
  NestingScan(std::string_view text, const std::string& name, std::size_t max_depth)
      : text_(text), name_(name), max_depth_(max_depth) {}

  void document() {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark
    std::size_t table_depth = 0;                      // the parts of the last table header
    for (;;) {
      skip_blank_lines();
      if (at_end()) return;
      if (peek() == '[') {
        ++pos_;
        const bool array_of_tables = peek() == '[';
        if (array_of_tables) ++pos_;
        table_depth = key(0);
        skip_blanks();
        expect(']');
        if (array_of_tables) expect(']');
      } else {
        const std::size_t depth = key(table_depth);
        skip_blanks();
        expect('=');
        skip_blanks();
        value(depth);
      }
      skip_blanks();
      if (peek() == '#') skip_comment();
      if (!at_end() && peek() != '\n' && peek() != '\r') throw NotToml{};
    }
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool looking_at(std::string_view s) const { return text_.substr(pos_).starts_with(s); }

  void expect(char c) {
    if (peek() != c) throw NotToml{};
    ++pos_;
  }

  void skip_blanks() {
    while (peek() == ' ' || peek() == '\t') ++pos_;
  }

  void skip_comment() {
    while (!at_end() && peek() != '\n') ++pos_;
  }

  // Blanks, line breaks and comments: between the lines of a document and the values of an
  // array.
  void skip_blank_lines() {
    for (;;) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++pos_;
      } else if (c == '#') {
        skip_comment();
      } else {
        return;
      }
    }
  }

  [[noreturn]] void too_deep() const {
    const auto line = 1 + std::count(text_.begin(), text_.begin() + static_cast<long>(pos_), '\n');
    throw InputError(name_ + ":" + std::to_string(line) + ": nested more than " +
                     std::to_string(max_depth_) +
                     " levels deep (the parts of a table header or dotted key and the inline "
                     "tables and arrays around a value count together; the limit is " +
                     std::to_string(max_depth_) + ")");
  }

  // A bare key's characters: anything that cannot end it (a superset of TOML's A-Za-z0-9_-,
  // so that the scan never stops where toml++ would go on).
  static bool bare_key_character(char c) {
    return std::string_view(" \t\r\n.=[]{}\"'#,").find(c) == std::string_view::npos && c != '\0';
  }

  // A dotted key whose first part sits at `depth` levels; returns the depth of its value.
  std::size_t key(std::size_t depth) {
    for (;;) {
      skip_blanks();
      if (peek() == '"') {
        basic_string();
      } else if (peek() == '\'') {
        literal_string();
      } else {
        const std::size_t start = pos_;
        while (bare_key_character(peek())) ++pos_;
        if (pos_ == start) throw NotToml{};
      }
      if (++depth > max_depth_) too_deep();
      skip_blanks();
      if (peek() != '.') return depth;
      ++pos_;
    }
  }

  // "...", with backslash escapes, on one line.
  void basic_string() {
    ++pos_;
    for (;;) {
      const char c = peek();
      if (at_end() || c == '\n') throw NotToml{};
      pos_ += c == '\\' ? 2 : 1;
      if (c == '"') return;
    }
  }

  // '...', no escapes, on one line.
  void literal_string() {
    ++pos_;
    for (;;) {
      const char c = peek();
      if (at_end() || c == '\n') throw NotToml{};
      ++pos_;
      if (c == '\'') return;
    }
  }

  // """...""" or '''...''' (`quote`), over lines; backslash escapes in the first. The closing
  // quotes may be followed by up to two more, which belong to the text.
  void multi_line_string(char quote) {
    const char delimiter[] = {quote, quote, quote};
    const std::string_view closing(delimiter, 3);
    pos_ += 3;
    for (;;) {
      if (at_end()) throw NotToml{};
      if (looking_at(closing)) {
        pos_ += 3;
        for (int extra = 0; extra < 2 && peek() == quote; ++extra) ++pos_;
        return;
      }
      pos_ += quote == '"' && peek() == '\\' ? 2 : 1;
    }
  }

  // A value at `depth` levels.
  void value(std::size_t depth) {
    const char c = peek();
    if (c == '"' || c == '\'') {
      if (looking_at(c == '"' ? "\"\"\"" : "'''")) {
        multi_line_string(c);
      } else if (c == '"') {
        basic_string();
      } else {
        literal_string();
      }
    } else if (c == '{') {
      inline_table(depth);
    } else if (c == '[') {
      array(depth);
    } else {
      // A number, boolean or date (which may hold a space: 1979-05-27 07:32:00).
      const std::size_t start = pos_;
      while (!at_end() && std::string_view(",]}#\r\n\"'").find(peek()) == std::string_view::npos)
        ++pos_;
      if (pos_ == start) throw NotToml{};
    }
  }

  // { key = value, ... }: each key's parts below the table's own depth. Line breaks and
  // comments are allowed between the entries (toml++ may accept them; TOML 1.0 does not).
  void inline_table(std::size_t depth) {
    ++pos_;
    skip_blank_lines();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      const std::size_t value_depth = key(depth);
      skip_blanks();
      expect('=');
      skip_blanks();
      value(value_depth);
      skip_blank_lines();
      if (peek() == ',') {
        ++pos_;
        skip_blank_lines();
        if (peek() != '}') continue;
      }
      expect('}');
      return;
    }
  }

  // [ value, ... ]: each value one level below the array (an empty array adds no level).
  void array(std::size_t depth) {
    ++pos_;
    for (;;) {
      skip_blank_lines();
      if (peek() == ']') break;
      if (depth + 1 > max_depth_) too_deep();
      value(depth + 1);
      skip_blank_lines();
      if (peek() != ',') break;
      ++pos_;
    }
    expect(']');
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t max_depth_;
  std::size_t pos_ = 0;
};

}  // namespace

void check_toml_nesting(std::string_view text, const std::string& name, std::size_t max_depth) {
  try {
    NestingScan(text, name, max_depth).document();
  } catch (const NotToml&) {
    // Not TOML from here on: toml++ stops at the same place, or before, with its own message.
  }
}

}  // namespace scaleopt
