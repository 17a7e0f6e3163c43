#include "scaleopt/scenario/serving_inputs.hpp"

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt {

ServingInputs serving_inputs(const Scenario& scenario) {
  ServingInputs in;
  in.prefix = "inference";
  in.file = scenario.file;
  in.model = scenario.architecture;
  in.setup = scenario.serving;
  in.prices = scenario.prices;
  in.assumptions = scenario.assumptions;
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

std::string describe_replica(const ServingInputs& in) {
  return format_quantity(in.setup.chips, Unit::number, 6) + " x " + in.setup.chip.id + " (" +
         std::string(to_string(in.setup.precision)) + " weights, " +
         std::string(to_string(in.setup.kv_precision)) + " KV)";
}

}  // namespace scaleopt
