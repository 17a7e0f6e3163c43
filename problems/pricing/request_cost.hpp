#pragma once
// The cost of one request on a serving replica: its prompt of I tokens prefilled in a pass of
// its own, then its O output tokens decoded one after another, the k-th (k = 0 .. O - 1) at the
// context it is decoded at, I + k (the prompt and the k tokens before it in the KV cache), each
// at the cost per output token of that context (the best batch there, or the setup's batch):
//
//   request = I x input(I) + sum_{k=0}^{O-1} output(I + k)
//
// Up to kExactOutputTokens output tokens the sum is taken token by token. Beyond, it is the
// midpoint rule's integral, output(c) integrated over c from I - 1/2 to I + O - 1/2 by adaptive
// Gauss-Kronrod (Boost.Math): exact where output(c) is linear in c, as it is within one batch
// regime, and within output''/24 per token elsewhere (docs/pricing.md, "One request").

#include <string>
#include <string_view>

#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

inline constexpr double kExactOutputTokens = 16384;

struct RequestCost {
  double input_tokens = 0.0;
  double output_tokens = 0.0;
  double prefill_usd = 0.0;             // I x the cost of an input token of a prompt of I tokens
  double decode_usd = 0.0;              // the sum over the output tokens
  double first_output_token_usd = 0.0;  // output(I), 0 without output tokens
  double last_output_token_usd = 0.0;   // output(I + O - 1)
  std::string method;                   // "every output token" or "Gauss-Kronrod ..."
  Status status = Status::converged;    // not_converged when a context's batch is not verified
  std::string message;
  double usd() const { return prefill_usd + decode_usd; }
};

// Throws InputError naming `input_flag` / `output_flag` for counts that are not whole, below 1
// (input) or 0 (output), above 1e12, or a context the replica cannot hold (the message of
// serving_plan with the context reached). Fields of the setup are named with `prefix`.
RequestCost request_cost(const Roofline& roofline, const ServingSetup& setup, double input_tokens,
                         double output_tokens, std::string_view prefix,
                         std::string_view input_flag = "input_tokens",
                         std::string_view output_flag = "output_tokens");

}  // namespace scaleopt
