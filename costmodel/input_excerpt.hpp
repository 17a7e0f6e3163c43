#pragma once
// Input quoted in an error message, at most a few dozen characters of it. Messages are one
// line a person reads: a 2 MB CSV cell or a key of 60,000 parts, quoted whole, made a line of
// megabytes on stderr. Every error that quotes what a user typed or a file holds (keys, cells,
// --set, names of laws, chips, models) quotes it through here.

#include <cstddef>
#include <string>
#include <string_view>

namespace scaleopt {

// The most characters of an input a message quotes.
inline constexpr std::size_t kMaxQuotedChars = 48;

// `text` itself when it has at most `max_chars` bytes; else its beginning and its end around
// "...", with its length: "aaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaaa (2000000 bytes)". Cuts
// fall between UTF-8 characters, never inside one.
std::string input_excerpt(std::string_view text, std::size_t max_chars = kMaxQuotedChars);

// "'" + input_excerpt(text) + "'".
std::string quoted_input(std::string_view text);

}  // namespace scaleopt
