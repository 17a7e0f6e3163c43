#include "scaleopt/problems/serving/replica_choice.hpp"

#include <cmath>
#include <span>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/lifecycle/discrete_choice.hpp"

namespace scaleopt {
namespace {

// One size's answer: its plan, or why it cannot serve the context.
struct SizeAnswer {
  double chips = 0.0;
  ServingPlan plan;
  std::string error;  // the InputError of plan_serving; empty when it planned
};

std::string nodes_text(double nodes) {
  return format_quantity(nodes, Unit::number, 6) + (nodes == 1.0 ? " node" : " nodes");
}

}  // namespace

ReplicaChoice choose_replica(const Architecture& model, const ServingSetup& setup,
                             double context_tokens, double max_replica_nodes,
                             std::string_view prefix) {
  ReplicaChoice choice;
  const double node = setup.chip.node_chips;
  choice.node_chips = node;
  ServingSetup sized = setup;
  sized.chips = node;
  // What one sequence needs beside the weights does not depend on the replica's size.
  const Roofline one_node = make_roofline(model, sized, prefix);
  const double needed = hbm_bytes_needed(one_node, 1.0, context_tokens);
  const double fewest = std::max(1.0, std::ceil(needed / one_node.hbm_bytes));
  if (fewest > max_replica_nodes) {
    throw field_error(qualified_field(prefix, "max_replica_nodes"),
                      "the weights and one sequence's KV cache at context " +
                          format_quantity(context_tokens, Unit::count, 4) + " need " +
                          format_quantity(needed, Unit::bytes) + ", " + nodes_text(fewest) +
                          " of " + format_quantity(node, Unit::number, 6) + " x " + setup.chip.id +
                          ", above the cap of " + nodes_text(max_replica_nodes) +
                          "; raise the cap, give the chips per replica, or use a lower precision");
  }
  std::vector<double> candidates;
  for (double nodes = fewest; nodes <= max_replica_nodes; nodes += 1.0) {
    candidates.push_back(nodes * node);
  }
  choice.chips_considered = candidates;

  auto solve = [&](double chips) {
    SizeAnswer answer;
    answer.chips = chips;
    sized.chips = chips;
    try {
      answer.plan =
          plan_serving(make_roofline(model, sized, prefix), sized, context_tokens, prefix);
    } catch (const InputError& e) {
      answer.plan.status = Status::infeasible;
      answer.error = e.what();
    }
    return answer;
  };
  // The cost per output token in chip-hours: the price multiplies every size alike (and may
  // be 0, which would tie them all).
  const DiscreteChoice<SizeAnswer> best = choose_among(
      std::span<const double>(candidates), solve,
      [](const SizeAnswer& a) { return a.plan.status == Status::converged; },
      [](const SizeAnswer& a) { return a.plan.output_token.chip_hours; });
  choice.converged = best.converged;
  if (!best.chosen) {
    // The largest size is the most able: its refusal says what no size can do.
    const SizeAnswer largest = solve(candidates.back());
    if (!largest.error.empty()) throw InputError(largest.error);
    choice.status = largest.plan.status;
    choice.message = "no replica size converged: " + largest.plan.message;
    choice.chips = largest.chips;
    choice.plan = largest.plan;
    return choice;
  }
  choice.status = Status::converged;
  choice.chips = best.answer.chips;
  choice.plan = best.answer.plan;
  choice.message = "lowest cost per output token of " + std::to_string(candidates.size()) +
                   (candidates.size() == 1 ? " size" : " sizes") + " (" +
                   std::to_string(best.converged) + " could serve the context)";
  return choice;
}

std::string replica_choice_text(double node_chips, double max_replica_nodes) {
  return "the cheapest per output token of whole " + format_quantity(node_chips, Unit::number, 6) +
         "-chip nodes, from the fewest holding the weights and one sequence's KV cache up to " +
         nodes_text(max_replica_nodes);
}

std::string replica_sizes_text(const ReplicaChoice& choice) {
  if (choice.chips_considered.empty()) return "none";
  const double first = choice.chips_considered.front();
  const double last = choice.chips_considered.back();
  auto number = [](double value) { return format_quantity(value, Unit::number, 6); };
  if (first == last) {
    return nodes_text(first / choice.node_chips) + " (" + number(first) + " chips)";
  }
  return number(first / choice.node_chips) + ".." + nodes_text(last / choice.node_chips) + " (" +
         number(first) + ".." + number(last) + " chips)";
}

}  // namespace scaleopt
