#pragma once
// The flags that describe a model served on a replica, shared by `roofline` and the `pricing`
// commands: --hardware --model --chips --max-replica-nodes --precision --kv-precision --batch
// --latency-per-token
// --price --compute-efficiency --bandwidth-efficiency --attention-flops, and (for commands
// that read one) a scenario file with --set. Flags override the scenario's values; without a
// scenario, --hardware and --model are required and the defaults are those of `roofline`.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scaleopt/problems/pricing/request_cost.hpp"
#include "scaleopt/scenario/serving_inputs.hpp"

namespace scaleopt::cli {

struct ServingFlags {
  std::string scenario;                // optional scenario file
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string hardware, model, chips, max_replica_nodes, precision, kv_precision, batch, latency,
      price, compute_efficiency, bandwidth_efficiency;
  // --attention-flops, --no-attention-flops: neither leaves the scenario's choice (counted by
  // default); both is an error.
  bool attention_flops = false;
  bool no_attention_flops = false;
  // Set by a command that prints no dollars (pricing ratio: a ratio of chip-times, in which the
  // price cancels): a chip without a catalog price (b200, mi300x) then needs no --price.
  bool price_cancels = false;
};

// Registers the flags on `command`; `with_scenario` adds the positional scenario and --set.
void add_serving_flags(CLI::App& command, ServingFlags& flags, bool with_scenario);

// Throws InputError naming the flag (or file:line and key) for bad input. Without --chips (or
// the scenario's inference.chips) the replica is left to ServingInputs::choose_chips, which the
// command calls at its context.
ServingInputs resolve_serving(const ServingFlags& flags);

// --input-tokens and --output-tokens: one request, priced token by token
// (problems/pricing/request_cost.hpp). Empty when not given.
struct RequestFlags {
  std::string input_tokens, output_tokens;
};
void add_request_flags(CLI::App& command, RequestFlags& flags);

// The request's cost on `inputs`' replica, or nullopt without the flags; InputError when only one
// of them is given, or for a request the replica cannot serve.
std::optional<RequestCost> resolve_request(const RequestFlags& flags, const ServingInputs& inputs,
                                           const Roofline& roofline);

}  // namespace scaleopt::cli
