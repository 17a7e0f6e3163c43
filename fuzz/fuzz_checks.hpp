#pragma once
// What every fuzz target shares: how an input is split into parts, and how a broken invariant
// is reported. libFuzzer records a crash for any abort, any sanitizer report and any exception
// that escapes LLVMFuzzerTestOneInput; the targets catch InputError alone (input a user can
// correct, rejected with a message), so every other exception is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/non_finite_text.hpp"

namespace scaleopt::fuzz {

// The bytes as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits at NUL bytes: the first part and up to `max_rest` more (the remainder of the input is
// ignored beyond them, so inputs stay cheap to run).
inline std::vector<std::string> split_at_nul(std::string_view text, std::size_t max_rest) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (parts.size() <= max_rest) {
    const std::size_t nul = text.find('\0', start);
    parts.emplace_back(text.substr(start, nul - start));
    if (nul == std::string_view::npos) break;
    start = nul + 1;
  }
  return parts;
}

// Reports a broken invariant with the evidence and aborts, which libFuzzer records as a crash
// and saves the input of.
[[noreturn]] inline void invariant_broken(std::string_view what, std::string_view evidence) {
  std::fprintf(stderr, "fuzz invariant broken: %.*s\n--- evidence ---\n%.*s\n---\n",
               static_cast<int>(what.size()), what.data(), static_cast<int>(evidence.size()),
               evidence.data());
  std::abort();
}

}  // namespace scaleopt::fuzz
