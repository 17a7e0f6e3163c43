#pragma once
// A served model's formats when the user gives none: the ones its published checkpoint and
// reference inference code use (Architecture::shipped, each with its source), set on the
// serving setup. A given precision is one format for everything it covers (every weight, or
// every element of a cached row); without a shipped format the default is bf16 (assumed).

#include <string>
#include <string_view>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"

namespace scaleopt {

// What apply_shipped_formats chose, as the assumption lines list it: "fp8, routed experts FP4
// (0.5 bytes per parameter), as deepseek-v4-pro ships: <source>". Empty where the part was
// given or the model has no shipped format (bf16 then, the keys' documented default).
struct ShippedChoice {
  std::string weights;
  std::string kv;
};

// Sets the weights' formats (precision, routed_expert_bytes_per_param) unless
// `weights_given`, and the KV cache's (kv_precision, kv_rope_precision) unless `kv_given`,
// from the model's shipped formats, or bf16 without them; a given part drops the mixed format
// it does not name.
ShippedChoice apply_shipped_formats(const Architecture& model, ServingSetup& setup,
                                    bool weights_given, bool kv_given);

// Architecture::cached_bytes_per_token in the model's shipped KV format (bf16 without one).
double shipped_kv_bytes_per_token(const Architecture& model);

// "fp8 weights (routed experts 0.5 bytes per parameter), fp8 KV (RoPE dims bf16)".
std::string describe_formats(const ServingSetup& setup);

}  // namespace scaleopt
