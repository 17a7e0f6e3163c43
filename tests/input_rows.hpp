#pragma once
// The row of one input in a sensitivity answer's JSON (its "elasticities" or "tornado").

#include <nlohmann/json.hpp>
#include <string>

// The row whose "input" is `input`, or null when the answer has none.
inline const nlohmann::json* input_row(const nlohmann::json& rows, const std::string& input) {
  for (const auto& row : rows) {
    if (row["input"] == input) return &row;
  }
  return nullptr;
}
