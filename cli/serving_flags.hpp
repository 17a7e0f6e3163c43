#pragma once
// The flags that describe a model served on a replica, shared by `roofline` and the `pricing`
// commands: --hardware --model --chips --precision --kv-precision --batch --latency-per-token
// --price --compute-efficiency --bandwidth-efficiency --attention-flops, and (for commands
// that read one) a scenario file with --set. Flags override the scenario's values; without a
// scenario, --hardware and --model are required and the defaults are those of `roofline`.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/scenario.hpp"
#include "costmodel/architecture.hpp"
#include "costmodel/price_list.hpp"
#include "costmodel/roofline.hpp"
#include "costmodel/serving_setup.hpp"
#include "problems/serving_plan.hpp"

namespace scaleopt::cli {

struct ServingFlags {
  std::string scenario;                // optional scenario file
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string hardware, model, chips, precision, kv_precision, batch, latency, price,
      compute_efficiency, bandwidth_efficiency;
  // --attention-flops, --no-attention-flops: neither leaves the scenario's choice (counted by
  // default); both is an error.
  bool attention_flops = false;
  bool no_attention_flops = false;
};

// Registers the flags on `command`; `with_scenario` adds the positional scenario and --set.
void add_serving_flags(CLI::App& command, ServingFlags& flags, bool with_scenario);

// A model and a serving setup, from flags or a scenario plus flags.
struct ServingInputs {
  Architecture model;
  ServingSetup setup;               // setup.context_tokens: the scenario's, or 8K = 8000 (assumed)
  std::optional<PriceList> prices;  // the scenario's [pricing] table
  std::vector<std::string> assumptions;
  std::string file;    // the scenario file, empty without one
  std::string prefix;  // how setup fields are named in errors: "--" or "inference"

  // make_roofline and plan_serving, with errors located in the scenario file when there is one.
  Roofline roofline() const;
  ServingPlan plan(const Roofline& roofline, double context_tokens) const;
};

// Throws InputError naming the flag (or file:line and key) for bad input.
ServingInputs resolve_serving(const ServingFlags& flags);

// The model, serving setup and price list of a scenario already read.
ServingInputs serving_inputs(const Scenario& scenario);

// The default replica of a model: the fewest whole nodes (the chip's node_chips, 8 when the
// catalog gives none) whose HBM holds the weights twice over, leaving about half for caches.
double default_replica_chips(const Architecture& model, const ServingSetup& setup);
std::string default_replica_text(const Hardware& chip);  // "the fewest whole 8-chip nodes ..."

// "8 x h200 (fp8 weights, bf16 KV)".
std::string describe_replica(const ServingInputs& inputs);

// The setup's numbers beyond 1e30 or below 1e-30 ("inference.chips = 1e+300", or "--price =
// 1e+300" from flags), for the message when an answer overflows (cli/overflow.hpp).
std::string extreme_serving_inputs(const ServingInputs& inputs);

}  // namespace scaleopt::cli
