#pragma once
// The serving fleet of a given replica at N from the roofline's closed form
// (problems/lifecycle/accelerators/roofline_pricing.hpp), for the fast path's answers: planning
// the fleet (problems/serving/fleet_plan.hpp) builds the model's roofline and its serving plan,
// about a fifth of a fast solve, while with the replica given every figure of the fleet above
// one replica is a closed form of N: the busy chip-hours are the closed form's inference hours
// over the fleet's peak factor, the batch is ContextPricing::batch_at and its bound the output
// term that binds; the bill is set_fleet_bill's, shared with plan_fleet. Held to plan_fleet on
// grids over chip, precision, context, latency, demand and the replica's size
// (tests/test_closed_form_fleet.cpp).

#include <optional>

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"

namespace scaleopt {

// The fleet at `active_params` as plan_fleet gives it, with its serving plan holding only its
// status, bound and batch (what an answer reports of it); nullopt where only plan_fleet can
// answer: no closed form or no fleet, a chosen replica, an N the replica does not serve, or one
// replica more than the peak needs (the demand then fills the batch, Little's law on the step).
std::optional<FleetPlan> closed_form_fleet(const LifetimeCostModel& model, double active_params);

}  // namespace scaleopt
