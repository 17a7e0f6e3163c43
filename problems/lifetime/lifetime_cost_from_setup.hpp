#pragma once
// The lifetime cost model of a scenario's setups with the model size left free, for the
// optimisers: N is the active parameter count (what the loss law sees and what each token
// costs); the architecture is scaled to N keeping its total-to-active ratio and its KV bytes
// per token (an assumption: a wider or deeper model would cache more per token).
//
// Pretraining: 6 N D at the training MFU (attention FLOPs of the training context are not
// counted here). Inference and RL rollouts: priced by the roofline at the best (or given)
// batch, or at fixed MFUs (inference.pricing), on the serving replica of the scenario.

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"

namespace scaleopt {

// Throws InputError naming the field when a setup is invalid or a price is missing. Without
// `with_prices` only FLOPs are modelled (a FLOPs problem needs no prices and no serving setup).
LifetimeCostModel lifetime_cost_model(const LifetimeInputs& inputs, bool with_prices = true);

// The scenario's architecture scaled to `active_params` (see above).
Architecture architecture_at(const Architecture& architecture, double active_params);

// Total over active parameters of the architecture (1 for a dense model, or when no
// architecture is given: the lifetime problems then treat the model as dense).
double total_to_active_ratio(const Architecture& architecture);

// Whether an architecture was given at all (a shape or total parameters).
bool has_architecture(const Architecture& architecture);

}  // namespace scaleopt
