#include "scaleopt/problems/lifecycle/accelerators/closed_form_fleet.hpp"

#include <array>

#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"

namespace scaleopt {
namespace {

// The batch bound of the output term that binds (ContextPricing::output's order).
BatchBound bound_of_output_term(const ContextPricing& pricing, int term) {
  if (pricing.given_batch > 0.0) return BatchBound::given;
  switch (term) {
    case 1:
      return BatchBound::hbm;
    case 2:
      return BatchBound::latency;
    default:
      return BatchBound::balance;
  }
}

}  // namespace

std::optional<FleetPlan> closed_form_fleet(const LifetimeCostModel& model, double active_params) {
  const RooflinePricing* form = model.closed_form();
  if (form == nullptr || !model.fleet) return std::nullopt;
  const LifetimeInputs& inputs = model.fleet->inputs();
  const ServingSetup& serving = inputs.serving;
  const ContextPricing& pricing = form->inference;
  if (serving.replica_chosen || !pricing.serves(active_params)) return std::nullopt;
  const FleetDemand demand{inputs.demand.input_tokens(), inputs.demand.output_tokens(),
                           inputs.demand.duration_seconds};
  const std::array<bool, 4> relevant{form->input_tokens > 0.0, form->output_tokens > 0.0, false,
                                     false};
  PieceChoice piece{};
  const ServingCost peak_hours =
      serving_cost_at(*form, CostUnit::gpu_hours, 0.0, active_params, relevant, piece);
  FleetPlan fleet;
  fleet.replica_chips = serving.chips;
  fleet.sizes_tried = 1.0;
  fleet.plan.status = Status::converged;
  fleet.plan.bound = bound_of_output_term(pricing, pricing.output.largest(active_params));
  fleet.plan.batch = pricing.batch_at(active_params);
  fleet.batch = fleet.plan.batch;
  // The closed form prices the peak, p E: the busy hours are its hours over p.
  set_fleet_bill(fleet, serving.chips, peak_hours.value / form->fleet_peak,
                 peak_hours.d1 / form->fleet_peak, serving, demand, "inference");
  if (fleet.demand_bound) return std::nullopt;  // the demand fills the batch: plan_fleet's
  return fleet;
}

}  // namespace scaleopt
