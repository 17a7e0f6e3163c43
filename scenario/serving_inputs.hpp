#pragma once
// A model served on a replica: the architecture, the serving setup and the price list of a
// scenario, or of the serving flags of `roofline` and `pricing` (cli/serving_flags.hpp), which
// start from a scenario's when one is given. Errors of the roofline and the serving plan are
// located in the scenario file when there is one.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/price_list.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/problems/serving/replica_choice.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

// A model and a serving setup, from a scenario, or from flags (or a scenario plus flags).
struct ServingInputs {
  Architecture model;
  ServingSetup setup;               // setup.context_tokens: the scenario's, or 8K = 8000 (assumed)
  std::optional<PriceList> prices;  // the scenario's [pricing] table
  std::vector<std::string> assumptions;
  std::string file;    // the scenario file, empty without one
  std::string prefix;  // how setup fields are named in errors: "--" or "inference"
  // The scenario gave inference.precision / inference.kv_precision (else the model's shipped
  // formats were applied: costmodel/shipped_formats.hpp).
  bool precision_given = false;
  bool kv_precision_given = false;
  // The chips per replica were given (inference.chips, --chips); else choose_chips picks them.
  bool chips_given = false;
  double max_replica_nodes = kDefaultMaxReplicaNodes;  // inference.max_replica_nodes
  bool max_replica_nodes_given = false;
  // How the replica was chosen, after choose_chips; empty when the chips were given.
  std::optional<ReplicaChoice> replica_choice;

  // make_roofline and plan_serving, with errors located in the scenario file when there is one.
  Roofline roofline() const;
  ServingPlan plan(const Roofline& roofline, double context_tokens) const;

  // Without given chips: chooses the replica at `context_tokens` (choose_replica), sets
  // setup.chips, keeps the choice in replica_choice and lists the cap among the assumptions
  // when it was not given. With given chips: nothing. Errors located as roofline()'s.
  void choose_chips(double context_tokens);
  // What choose_chips does to the assumptions, for a command that chooses replicas itself (one
  // per variant): the cap listed when not given, the scenario's assumed inference.chips gone.
  void note_replica_choice();
  // "chosen" or "given", beside the replica size in text output.
  std::string_view replica_source() const { return chips_given ? "given" : "chosen"; }
  // The setup's field names: "--max-replica-nodes" from flags, "inference.max_replica_nodes".
  std::string max_replica_nodes_name() const;
};

// The model, serving setup and price list of a scenario already read.
ServingInputs serving_inputs(const Scenario& scenario);

// The replica `plot`'s context-cost figures draw each model on: the fewest whole nodes (the
// chip's node_chips, 8 when the catalog gives none) whose HBM holds the weights twice over,
// leaving about half for caches. `roofline` and `pricing` choose theirs (choose_chips).
double default_replica_chips(const Architecture& model, const ServingSetup& setup);
std::string default_replica_text(const Hardware& chip);  // "the fewest whole 8-chip nodes ..."

// "8 x h200 (chosen; fp8 weights, bf16 KV)" ("given; " for given chips, nothing for a
// scenario's assumed ones); mixed formats say so ("fp8 weights (routed experts 0.5
// bytes per parameter), fp8 KV (RoPE dims bf16)").
std::string describe_replica(const ServingInputs& inputs);

// The setup's numbers beyond 1e30 or below 1e-30 ("inference.chips = 1e+300", or "--price =
// 1e+300" from flags), for the message when an answer overflows (report/overflow.hpp).
std::string extreme_serving_inputs(const ServingInputs& inputs);

}  // namespace scaleopt
