#pragma once
// The lifetime cost model of a scenario's setups with the model size left free, for the
// optimisers: N is the active parameter count (what the loss law sees and what each token
// costs); the architecture is scaled to N keeping its total-to-active ratio and its KV bytes
// per token (an assumption: a wider or deeper model would cache more per token).
//
// Pretraining: 6 N D at the training MFU (attention FLOPs of the training context are not
// counted here). Inference and RL rollouts: priced by the roofline at the best (or given)
// batch, or at fixed MFUs (inference.pricing), on the serving replica of the scenario.

#include <memory>

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/problems/serving/fleet_plan.hpp"

namespace scaleopt {

// The serving fleet of the scenario's model at N (problems/serving/fleet_plan.hpp): the
// inference cost of a roofline-priced LifetimeCostModel, and what its answers report (the
// replica, its batch, the replicas and their use). The closed form of the fast path stands
// beside it: at the largest replica considered, the fleet sized for the peak, no floor.
class ServingFleet final : public SizeCostFunction {
 public:
  ServingFleet(std::shared_ptr<const LifetimeInputs> inputs,
               std::shared_ptr<const RooflinePricing> closed_form);
  // The fleet at N active parameters; throws InputError as plan_fleet does.
  FleetPlan plan_at(double active_params) const;
  SizeCost at(double active_params) const override;  // the paid chip-hours and dollars
  // The fleet of a model of N_active active and N_total total parameters (a mixture of
  // experts whose expert count the problem chooses), and its cost with the slopes apart.
  FleetPlan plan_at_total(double active_params, double total_params) const;
  bool prices_total() const override { return true; }
  std::optional<SparseSizeCost> at_total(double active_params, double total_params) const override;
  const RooflinePricing* closed_form() const override { return closed_form_.get(); }
  // The scenario's inputs the fleet prices (a question that gives the replica in turn reads
  // the serving setup from them).
  const LifetimeInputs& inputs() const { return *inputs_; }

 private:
  std::shared_ptr<const LifetimeInputs> inputs_;
  std::shared_ptr<const RooflinePricing> closed_form_;
  FleetDemand demand_;
  double usd_per_chip_hour_ = 0.0;
};

// Throws InputError naming the field when a setup is invalid or a price is missing. Without
// `with_prices` only FLOPs are modelled (a FLOPs problem needs no prices and no serving setup).
LifetimeCostModel lifetime_cost_model(const LifetimeInputs& inputs, bool with_prices = true);

// The scenario's architecture scaled to `active_params` (see above).
Architecture architecture_at(const Architecture& architecture, double active_params);
// The same with the total given (the architecture's KV cache and attention kept).
Architecture architecture_at(const Architecture& architecture, double active_params,
                             double total_params);

// Total over active parameters of the architecture (1 for a dense model, or when no
// architecture is given: the lifetime problems then treat the model as dense).
double total_to_active_ratio(const Architecture& architecture);

// Whether an architecture was given at all (a shape or total parameters).
bool has_architecture(const Architecture& architecture);

}  // namespace scaleopt
