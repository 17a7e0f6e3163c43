#pragma once
// Llama 3 70B's shape on H100s serving 1M tokens/s for 18 months, trained and served at
// $2/chip-hour, asked for the cheapest life at the loss of 70B parameters: inference is a large
// share of the life, so the replica and the serving price move the optimum. No inference.chips,
// so the replica size is chosen.

#include <string>
#include <string_view>

// The scenario's text with `inference_lines` (TOML lines ending in a newline) added to its
// [inference] table, which comes last so that they land there.
inline std::string llama3_70b_h100_scenario(std::string_view inference_lines = {}) {
  std::string text = R"([law]
preset = "epoch2024"
[architecture]
preset = "llama3-70b"
[training]
hardware = "h100-sxm"
usd_per_chip_hour = 2.0
[problem]
kind = "min-lifetime-cost"
target_params = 7e10
[inference]
hardware = "h100-sxm"
usd_per_chip_hour = 2.0
context = "2K"
rate = "1M/s"
duration = "18mo"
output_fraction = 0.3
)";
  text += inference_lines;
  return text;
}
