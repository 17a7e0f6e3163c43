#pragma once
// Number formats a chip computes in and a model is stored in. One enum for both: the serving
// precision sets the peak FLOP/s used (Hardware::peak_flop_per_second) and the bytes per
// weight; the KV precision sets the bytes per cached element.

#include <string_view>

namespace scaleopt {

enum class Precision { bf16, fp8, int8 };

// "bf16", "fp8", "int8".
std::string_view to_string(Precision precision);

// 2 for bf16, 1 for fp8 and int8.
double bytes_per_element(Precision precision);

// Reads "bf16", "fp8" or "int8"; throws InputError listing them otherwise.
Precision parse_precision(std::string_view text);

}  // namespace scaleopt
