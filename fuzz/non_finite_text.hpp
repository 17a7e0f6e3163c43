#pragma once
// Whether printed output shows a non-finite number. Shared by the fuzz targets and the tests
// of extreme inputs: no command may print nan or inf (docs/reliability.md).

#include <cctype>
#include <string>
#include <string_view>

namespace scaleopt::fuzz {

// Whether `text` prints a non-finite number: the word nan or inf (any case, any sign), as
// printf and our formatters spell them. "inference" and "infeasible" are words of their own.
inline bool prints_non_finite(std::string_view text) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = 0; i + 3 <= text.size(); ++i) {
    std::string word;
    for (std::size_t k = 0; k < 3; ++k) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + k])));
    }
    if (word != "nan" && word != "inf") continue;
    const bool starts = i == 0 || !word_char(text[i - 1]);
    // "infinity" is how some formatters spell inf.
    const bool ends = i + 3 == text.size() || !word_char(text[i + 3]) ||
                      (word == "inf" && text.substr(i + 3, 5) == "inity");
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace scaleopt::fuzz
