#pragma once
// The chips per serving replica, chosen: whole nodes of the chip, from the fewest whole nodes
// whose HBM holds the weights and the KV cache of one sequence at the context up to a cap, each
// size served at its best batch (plan_serving), and the size with the lowest cost per output
// token kept.
//
// A replica acts as one device (costmodel/serving_setup.hpp): its FLOP/s, bandwidth and HBM
// grow with the chips, so the cost per output token, price x chips x max(t_compute, t_memory)
// / B = price x max(decode FLOPs / F_chip, (weights / B + KV) / W_chip), depends on the size
// only through the batch it admits. A larger replica holds more sequences beside the weights
// (and runs a step faster under a latency target), so the cost never rises with the size:
// it falls while HBM or the latency target binds the batch, and is flat once decode reaches the
// compute ridge, whose batch does not depend on the size. The sizes tie there, and the
// smallest that reaches the ridge wins (choose_among, ties to the first candidate).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

struct ReplicaChoice {
  Status status = Status::not_converged;  // converged: the size and its batch are verified
  std::string message;
  double chips = 0.0;                    // the chosen size (the first tried when none converged)
  double node_chips = 0.0;               // chips per node: the chip's node_chips
  std::vector<double> chips_considered;  // every size tried, ascending, in chips
  std::size_t converged = 0;             // sizes whose best batch was found
  ServingPlan plan;                      // at the chosen size
};

// Tries every whole-node size from the fewest nodes holding the weights plus one sequence's
// KV cache at `context_tokens` up to `max_replica_nodes` (setup.chips is ignored; setup.batch
// and the latency target apply to every size). Throws InputError (fields named with `prefix`)
// when one sequence needs more nodes than the cap, or when no size can serve the context (the
// error of the largest size, e.g. a latency target out of reach).
ReplicaChoice choose_replica(const Architecture& model, const ServingSetup& setup,
                             double context_tokens, double max_replica_nodes,
                             std::string_view prefix);

// "the fewest whole 8-chip nodes holding the weights and one sequence's KV cache, up to 32
// nodes, at the lowest cost per output token": how a chosen replica was chosen.
std::string replica_choice_text(double node_chips, double max_replica_nodes);

// "1..32 nodes (8..256 chips)": the sizes a choice tried.
std::string replica_sizes_text(const ReplicaChoice& choice);

}  // namespace scaleopt
