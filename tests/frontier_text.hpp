#pragma once
// The text of examples/frontier.toml, with its serving replica as given (8 B200 chips) or with
// `inference.chips` removed, so that the replica size is chosen with N.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "example_path.hpp"

inline std::string frontier_text(bool replica_given) {
  std::ifstream file(example("frontier.toml"));
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::string text = buffer.str();
  if (!replica_given) {
    const std::size_t at = text.find("\nchips = 8 ");
    REQUIRE(at != std::string::npos);
    text.erase(at + 1, text.find('\n', at + 1) - at);
  }
  return text;
}
