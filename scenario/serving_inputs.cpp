#include "scaleopt/scenario/serving_inputs.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt {

ServingInputs serving_inputs(const Scenario& scenario) {
  ServingInputs in;
  in.prefix = "inference";
  in.file = scenario.file;
  in.model = scenario.architecture;
  in.setup = scenario.serving;
  in.prices = scenario.prices;
  in.assumptions = scenario.assumptions;
  auto given = [&](std::string_view key) {
    return std::find(scenario.keys_given.begin(), scenario.keys_given.end(), key) !=
           scenario.keys_given.end();
  };
  in.precision_given = given("inference.precision");
  in.kv_precision_given = given("inference.kv_precision");
  in.chips_given = given("inference.chips");
  in.max_replica_nodes = scenario.serving.max_replica_nodes;
  in.max_replica_nodes_given = given("inference.max_replica_nodes");
  return in;
}

Roofline ServingInputs::roofline() const {
  try {
    return make_roofline(model, setup, prefix);
  } catch (const InputError& e) {
    if (file.empty()) throw;
    throw InputError(file + ": " + e.what());  // e names the key
  }
}

ServingPlan ServingInputs::plan(const Roofline& r, double context_tokens) const {
  try {
    return plan_serving(r, setup, context_tokens, prefix);
  } catch (const InputError& e) {
    if (file.empty()) throw;
    throw InputError(file + ": " + e.what());
  }
}

void ServingInputs::choose_chips(double context_tokens) {
  if (chips_given) return;
  try {
    replica_choice = choose_replica(model, setup, context_tokens, max_replica_nodes, prefix);
  } catch (const InputError& e) {
    if (file.empty()) throw;
    throw InputError(file + ": " + e.what());
  }
  setup.chips = replica_choice->chips;
  note_replica_choice();
  assumptions.push_back(std::string(prefix == "--" ? "--chips " : "inference.chips = ") +
                        format_quantity(setup.chips, Unit::number, 6) + " (chosen): " +
                        replica_choice_text(replica_choice->node_chips, max_replica_nodes));
}

void ServingInputs::note_replica_choice() {
  // Chosen, not assumed: the scenario's "inference.chips = 8" gives way to how it was chosen.
  std::erase_if(assumptions, [](const std::string& line) {
    return line.starts_with("inference.chips ") || line.starts_with("inference.chips:");
  });
  if (!max_replica_nodes_given) {
    assumptions.push_back(max_replica_nodes_name() + (prefix == "--" ? " " : " = ") +
                          format_quantity(max_replica_nodes, Unit::number, 6) +
                          ": the largest replica considered, in nodes");
  }
}

std::string ServingInputs::max_replica_nodes_name() const {
  return qualified_field(prefix, "max_replica_nodes");
}

std::string extreme_serving_inputs(const ServingInputs& in) {
  const ServingSetup& s = in.setup;
  const bool flags = in.prefix == "--";
  auto name = [&](const char* flag, const char* key) {
    return flags ? std::string(flag) : in.prefix + "." + key;
  };
  const std::string names[] = {name("--chips", "chips"),
                               name("--context", "context"),
                               name("--compute-efficiency", "compute_efficiency"),
                               name("--bandwidth-efficiency", "bandwidth_efficiency"),
                               name("--price", "usd_per_chip_hour"),
                               name("--batch", "batch"),
                               name("--latency-per-token", "latency_per_token")};
  return extreme_flags({{names[0], s.chips},
                        {names[1], s.context_tokens},
                        {names[2], s.compute_efficiency},
                        {names[3], s.bandwidth_efficiency},
                        {names[4], s.usd_per_chip_hour.value_or(1.0)},
                        {names[5], s.batch.value_or(1.0)},
                        {names[6], s.latency_per_token_seconds.value_or(1.0)}});
}

double default_replica_chips(const Architecture& model, const ServingSetup& setup) {
  const double weight_bytes = serving_weight_bytes(model, setup);
  const double node = setup.chip.node_chips;
  const double chips = std::max(1.0, std::ceil(2.0 * weight_bytes / setup.chip.hbm_bytes));
  return std::ceil(chips / node) * node;
}

std::string default_replica_text(const Hardware& chip) {
  return "the fewest whole " + format_quantity(chip.node_chips, Unit::number, 6) +
         "-chip nodes whose HBM holds the weights twice";
}

std::string describe_replica(const ServingInputs& in) {
  const std::string source = in.replica_choice ? "chosen; " : (in.chips_given ? "given; " : "");
  return format_quantity(in.setup.chips, Unit::number, 6) + " x " + in.setup.chip.id + " (" +
         source + describe_formats(in.setup) + ")";
}

}  // namespace scaleopt
