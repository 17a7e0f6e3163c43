#include "scaleopt/problems/serving/implied_mfu.hpp"

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"

namespace scaleopt {

std::optional<ImpliedDecodeMfu> implied_decode_mfu(const Architecture& architecture,
                                                   const ServingSetup& serving,
                                                   double active_params, std::string& why) {
  ServingSetup roofline_setup = serving;
  roofline_setup.pricing = InferencePricing::roofline;
  try {
    const Roofline roofline =
        make_roofline(architecture_at(architecture, active_params), roofline_setup, "inference");
    const ServingPlan plan =
        plan_serving(roofline, roofline_setup, roofline_setup.context_tokens, "inference");
    if (plan.status != Status::converged) {
      why = plan.message;
      return std::nullopt;
    }
    const double peak = serving.chip.peak_flop_per_second(serving.precision);
    const double chip_seconds = plan.output_token.chip_hours * kSecondsPerHour;
    return ImpliedDecodeMfu{plan.output_token.flops / (chip_seconds * peak), plan.batch,
                            std::string(to_string(plan.bound))};
  } catch (const InputError& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace scaleopt
