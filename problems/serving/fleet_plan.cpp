#include "scaleopt/problems/serving/fleet_plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/serving/serving_plan_slopes.hpp"

namespace scaleopt {
namespace {

// Sizes whose paid chip-hours differ by less than this are a tie, won by the smaller (the rule
// of problems/lifecycle/discrete_choice.hpp): past the compute ridge the cost does not depend on
// the size, and the sizes' batches agree only to the root finder's tolerance.
constexpr double kTieRelative = 1e-9;

// The fewest chips, in whole nodes, whose HBM holds the weights and one sequence's KV cache;
// `one_node` is the model's roofline on one node.
double fewest_replica_chips(const Roofline& one_node, const ServingSetup& setup,
                            double context_tokens, std::string_view prefix) {
  const double node_chips = setup.chip.node_chips;
  const double needed = hbm_bytes_needed(one_node, 1.0, context_tokens);
  const double nodes = std::max(1.0, std::ceil(needed / one_node.hbm_bytes));
  if (nodes > setup.max_replica_nodes) {
    throw field_error(
        qualified_field(prefix, "max_replica_nodes"),
        "the weights and one sequence's KV cache at context " +
            format_quantity(context_tokens, Unit::count, 4) + " need " +
            format_quantity(needed, Unit::bytes) + ", " + format_quantity(nodes, Unit::number, 6) +
            " nodes of " + format_quantity(node_chips, Unit::number, 6) + " x " + setup.chip.id +
            ", above the cap of " + format_quantity(setup.max_replica_nodes, Unit::number, 6) +
            "; raise the cap, give inference.chips, or use a lower precision");
  }
  return nodes * node_chips;
}

// What the fleet pays for busy chip-hours E on replicas of `chips`: E when elastic, else the
// larger of one replica for the duration and the peak's p E.
double paid_chip_hours(const ServingSetup& setup, const FleetDemand& demand, double chips,
                       double busy_hours) {
  if (setup.priced_elastically(demand.duration_seconds.has_value())) return busy_hours;
  return std::max(chips * *demand.duration_seconds / kSecondsPerHour,
                  setup.peak_to_mean * busy_hours);
}

// One size's elastic price of the demand and what the fleet pays for it.
struct SizePriced {
  double chips = 0.0;
  ServingPlan plan;
  double busy_hours = 0.0, d_busy_hours = 0.0;  // E and dE / d ln N
  double d_busy_hours_in_total = 0.0;           // dE / d ln N_total at a fixed N_active
  double paid_hours = 0.0;
};

// `roofline` is the model's, resized here to `chips` (only the chip-proportional figures
// change from size to size: nothing else is rebuilt).
SizePriced price_size(Roofline& roofline, const ServingSetup& setup, double chips,
                      const FleetDemand& demand, double context_tokens, std::string_view prefix) {
  SizePriced s;
  s.chips = chips;
  set_replica_chips(roofline, setup, chips);
  s.plan = plan_serving(roofline, setup, context_tokens, prefix);
  if (s.plan.status != Status::converged) return s;
  const ServingPlanSlopes slopes = log_slopes_in_params(roofline, s.plan);
  const double in = demand.input_tokens * s.plan.input_token.chip_hours;
  const double out = demand.output_tokens * s.plan.output_token.chip_hours;
  s.busy_hours = in + out;
  s.d_busy_hours = in * slopes.input_token + out * slopes.output_token;
  s.d_busy_hours_in_total = in * slopes.input_token_in_total + out * slopes.output_token_in_total;
  s.paid_hours = paid_chip_hours(setup, demand, chips, s.busy_hours);
  return s;
}

// The sequences in flight when one replica serves a peak of `tokens_per_second` outputs: the
// root of B = rate * t_step(B) (Little's law), with t_step(B) = max(B c, a + B b) the roofline's
// step (affine on each side of the ridge). Below the best batch the step is memory-bound (the
// best batch is the smallest at which a bound binds, the ridge among them), so B = rate a / (1 -
// rate b); never above the best batch.
double demand_filled_batch(const Roofline& roofline, double context_tokens, double best_batch,
                           double tokens_per_second) {
  const DecodeStep one = decode_step(roofline, 1.0, context_tokens);
  const DecodeStep two = decode_step(roofline, 2.0, context_tokens);
  const double b = two.memory_seconds - one.memory_seconds;  // seconds per sequence
  const double a = one.memory_seconds - b;                   // the weights' read
  const double gap = 1.0 - tokens_per_second * b;
  if (!(gap > 0.0)) return best_batch;
  return std::min(best_batch, tokens_per_second * a / gap);
}

}  // namespace

void set_fleet_bill(FleetPlan& fleet, double chips, double busy_chip_hours,
                    double d_busy_chip_hours_d_log_params, const ServingSetup& setup,
                    const FleetDemand& demand, std::string_view prefix) {
  const double paid_hours = paid_chip_hours(setup, demand, chips, busy_chip_hours);
  fleet.elastic = setup.priced_elastically(demand.duration_seconds.has_value());
  fleet.busy_chip_hours = busy_chip_hours;
  fleet.chip_hours = paid_hours;
  fleet.idle_chip_hours = paid_hours - busy_chip_hours;
  const double price = setup.price_per_chip_hour(prefix);
  fleet.usd = paid_hours * price;
  if (fleet.elastic) {
    const double seconds = demand.duration_seconds.value_or(0.0);
    fleet.busy_replicas = seconds > 0.0 ? busy_chip_hours * kSecondsPerHour / (chips * seconds)
                                        : FleetPlan::kNaN;  // a lifetime total has no rate
    fleet.replicas = fleet.busy_replicas;
    fleet.whole_replicas = std::ceil(fleet.replicas);
    fleet.utilisation = 1.0;
    fleet.whole_replicas_usd = fleet.usd;
    fleet.paid_per_busy_chip_hour = 1.0;
    fleet.d_chip_hours_d_log_params = d_busy_chip_hours_d_log_params;
    return;
  }
  const double seconds = *demand.duration_seconds;
  fleet.busy_replicas = busy_chip_hours * kSecondsPerHour / (chips * seconds);
  const double peak_busy = setup.peak_to_mean * fleet.busy_replicas;
  fleet.demand_bound = peak_busy < 1.0;
  fleet.replicas = std::max(1.0, peak_busy);
  fleet.whole_replicas = std::ceil(fleet.replicas * (1.0 - 1e-12));
  fleet.utilisation = fleet.busy_replicas / fleet.replicas;
  fleet.whole_replicas_usd = fleet.whole_replicas * chips * seconds / kSecondsPerHour * price;
  fleet.paid_per_busy_chip_hour = fleet.demand_bound ? 0.0 : setup.peak_to_mean;
  fleet.d_chip_hours_d_log_params = fleet.paid_per_busy_chip_hour * d_busy_chip_hours_d_log_params;
}

FleetPlan plan_fleet(const Architecture& model, const ServingSetup& setup,
                     const FleetDemand& demand, double context_tokens, std::string_view prefix) {
  FleetPlan fleet;
  fleet.replica_chosen = setup.replica_chosen;
  const double node = setup.chip.node_chips;
  // The model's roofline, built once: on one node when the size is chosen (it finds the fewest
  // nodes), else on the replica given.
  Roofline roofline;
  if (setup.replica_chosen) {
    ServingSetup one_node = setup;
    one_node.chips = node;
    roofline = make_roofline(model, one_node, prefix);
  } else {
    roofline = make_roofline(model, setup, prefix);
  }
  const double first = setup.replica_chosen
                           ? fewest_replica_chips(roofline, setup, context_tokens, prefix)
                           : setup.chips;
  const double last = setup.replica_chosen ? setup.max_replica_nodes * node : setup.chips;
  SizePriced best;
  bool have_best = false;
  std::string last_error;
  for (double chips = first; chips <= last * (1.0 + 1e-12); chips += node) {
    if (have_best && setup.replica_chosen) {
      // One replica of this size (and of every larger one) alone costs more than the best.
      const bool elastic = setup.priced_elastically(demand.duration_seconds.has_value());
      if (!elastic && chips * *demand.duration_seconds / kSecondsPerHour >=
                          best.paid_hours * (1.0 - kTieRelative)) {
        break;
      }
    }
    ++fleet.sizes_tried;
    SizePriced size;
    try {
      size = price_size(roofline, setup, chips, demand, context_tokens, prefix);
    } catch (const InputError& e) {
      // A size too small for a latency target: a larger one may meet it.
      if (!setup.replica_chosen) throw;
      last_error = e.what();
      continue;
    }
    if (size.plan.status != Status::converged) {
      if (!setup.replica_chosen) {
        fleet.plan = size.plan;
        return fleet;
      }
      continue;
    }
    // From the ridge (or a given batch) on, a larger size prices the tokens alike and pays a
    // larger floor.
    const bool flat_from_here =
        size.plan.bound == BatchBound::balance || size.plan.bound == BatchBound::given;
    if (!have_best || size.paid_hours < best.paid_hours * (1.0 - kTieRelative)) {
      best = std::move(size);
      have_best = true;
    }
    if (flat_from_here || !setup.replica_chosen) break;
  }
  if (!have_best) {
    if (!last_error.empty()) throw InputError(last_error);
    fleet.plan.status = Status::not_converged;
    fleet.plan.message = "no replica size could serve the context";
    return fleet;
  }
  fleet.replica_chips = best.chips;
  fleet.plan = best.plan;
  fleet.batch = best.plan.batch;
  set_fleet_bill(fleet, best.chips, best.busy_hours, best.d_busy_hours, setup, demand, prefix);
  fleet.d_chip_hours_d_log_total_params =
      fleet.paid_per_busy_chip_hour * best.d_busy_hours_in_total;
  if (fleet.demand_bound && best.plan.bound != BatchBound::given) {
    const double peak_output_per_second =
        setup.peak_to_mean * demand.output_tokens / *demand.duration_seconds;
    set_replica_chips(roofline, setup, best.chips);
    fleet.batch =
        demand_filled_batch(roofline, context_tokens, best.plan.batch, peak_output_per_second);
  }
  return fleet;
}

std::vector<double> whole_node_replica_sizes(const ServingSetup& setup) {
  std::vector<double> sizes;
  for (double nodes = 1.0; nodes <= setup.max_replica_nodes; nodes += 1.0) {
    sizes.push_back(nodes * setup.chip.node_chips);
  }
  return sizes;
}

ServingPlan cheapest_replica_plan(const Architecture& model, const ServingSetup& setup,
                                  double context_tokens, std::string_view prefix, double& chips) {
  ServingSetup elastic = setup;
  elastic.elastic = true;
  const FleetPlan fleet =
      plan_fleet(model, elastic, {0.0, 1.0, std::nullopt}, context_tokens, prefix);
  chips = fleet.replica_chips;
  return fleet.plan;
}

}  // namespace scaleopt
