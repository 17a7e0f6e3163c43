#pragma once
// The serving fleet of a model of N parameters for a demand: the replica's size (given, or
// chosen with N), its batch, how many replicas the demand keeps and what they cost over the
// serving life.
//
// The replica. Given (inference.chips), or chosen: whole nodes of the chip, from the fewest whose
// HBM holds the weights and one sequence's KV cache at the context up to max_replica_nodes,
// and of those the cheapest for the demand (the fleet's chip-hours below), ties to within 1e-9
// going to the smallest. At a fixed batch bound the cost per token depends on the size only
// through the batch it admits (problems/serving/replica_choice.hpp): it falls while HBM or the
// latency target binds and is flat from the size at which decode reaches the compute ridge (or
// the batch is given), so the sizes are tried in ascending order up to that one; a size whose
// one replica alone costs more than the best so far ends the search, as every larger one does.
//
// The fleet. The elastic price E of the demand is its busy replica-seconds at the replica's
// best batch (problems/serving/serving_plan.hpp) times its chips. With a duration T the fleet
// is sized for the peak (peak_to_mean p times the mean) and paid for all of T, with at least one
// replica:
//   replicas = max(1, p * busy),   busy = E / (chips * T)  (mean replicas busy),
//   paid chip-hours = chips * T * replicas = max(chips * T, p * E).
// Above one replica the count is continuous (the cost stays smooth in N for the optimiser); the
// whole number of replicas and its price are reported beside it. At one replica the demand,
// not the HBM or the ridge, fills the batch (Little's law: the sequences in flight are the
// output tokens per second times the time per output token), and the replica idles 1 -
// utilisation of the time it would need at its best batch. Without a duration (a lifetime total
// of tokens or requests) or with `elastic`, only busy chip-hours are paid: E.

#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"

namespace scaleopt {

// What the fleet serves: the lifetime's input and output tokens and, for a rate, how long.
struct FleetDemand {
  double input_tokens = 0.0;
  double output_tokens = 0.0;
  std::optional<double> duration_seconds;  // absent: a lifetime total, priced elastically
};

struct FleetPlan {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double replica_chips = kNaN;
  bool replica_chosen = false;
  double sizes_tried = 0.0;  // replica sizes planned at this N (1 when given)
  ServingPlan plan;          // the replica at its best (or given) batch: the elastic price
  bool elastic = true;       // priced by busy chip-hours (elastic, or no duration)
  // Mean replicas busy at the best batch, the replicas paid (continuous) and their whole
  // number, and the busy share of the paid time. Elastic: replicas = busy, utilisation 1.
  double busy_replicas = kNaN;
  double replicas = kNaN;
  double whole_replicas = kNaN;
  double utilisation = kNaN;
  // The decode batch served: the plan's, or at one replica the one the peak demand fills.
  double batch = kNaN;
  bool demand_bound = false;  // one replica is more than the peak needs: its floor binds
  // Over the whole demand: busy (the elastic price) and paid chip-hours, their difference, the
  // paid dollars, and the dollars of the whole number of replicas (equal when elastic).
  double busy_chip_hours = kNaN;
  double chip_hours = kNaN;
  double idle_chip_hours = kNaN;
  double usd = kNaN;
  double whole_replicas_usd = kNaN;
  // d (paid chip-hours) / d ln N on this piece (0 where one replica's floor binds).
  double d_chip_hours_d_log_params = kNaN;
  // The same in ln N_total at a fixed N_active (a mixture of experts whose expert count is
  // chosen: the weights grow, the FLOPs do not; set by plan_fleet, not by set_fleet_bill).
  double d_chip_hours_d_log_total_params = kNaN;
  // d (paid chip-hours) / d (busy chip-hours) at the margin: 1 elastic, 0 where one replica's
  // floor binds, peak_to_mean otherwise.
  double paid_per_busy_chip_hour = kNaN;
};

// The fleet of `model` (already scaled to N) for `demand` at `context_tokens`. setup.chips is
// the replica when !setup.replica_chosen. Throws InputError (fields named with `prefix`) when
// no size holds the weights and one sequence, or none can serve the context (the largest
// size's reason); a plan that did not converge comes back with its status.
FleetPlan plan_fleet(const Architecture& model, const ServingSetup& setup,
                     const FleetDemand& demand, double context_tokens, std::string_view prefix);

// The fleet's bill for a replica of `chips` chips whose best batch serves the demand in
// `busy_chip_hours` (the elastic price E, with its slope in ln N `d_busy_chip_hours_d_log_params`):
// the replicas busy and paid, their whole number, utilisation, paid, idle and whole-replica
// chip-hours and dollars, and whether one replica's floor binds (the rule above). Sets every
// figure but the plan, the batch and the sizes tried: plan_fleet and the fast path's closed
// form (problems/lifecycle/accelerators/closed_form_fleet.hpp) share it. Throws InputError
// (fields named with `prefix`) when the serving price is missing.
void set_fleet_bill(FleetPlan& fleet, double chips, double busy_chip_hours,
                    double d_busy_chip_hours_d_log_params, const ServingSetup& setup,
                    const FleetDemand& demand, std::string_view prefix);

// Every size a chosen replica may take, in chips, smallest first: 1 to
// setup.max_replica_nodes whole nodes of setup.chip (some may not hold a given model).
std::vector<double> whole_node_replica_sizes(const ServingSetup& setup);

// The cheapest replica per output token for `model` at `context_tokens` (the rule of
// plan_fleet with an elastic demand of output tokens only): RL rollouts, which run in a
// training job's own time. Returns the plan and sets `chips`.
ServingPlan cheapest_replica_plan(const Architecture& model, const ServingSetup& setup,
                                  double context_tokens, std::string_view prefix, double& chips);

}  // namespace scaleopt
