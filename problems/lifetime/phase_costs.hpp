#pragma once
// A model's whole life in FLOPs, chip-hours and dollars: pretraining, RL (rollouts, update,
// extra passes) and inference (prefill of input tokens, decode of output tokens), with the
// serving plans (batch, cost per token) the inference and RL rollouts use.

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/data_repetition.hpp"
#include "scaleopt/costmodel/inference_demand.hpp"
#include "scaleopt/costmodel/power_setup.hpp"
#include "scaleopt/costmodel/pretraining_cost.hpp"
#include "scaleopt/costmodel/rl_cost.hpp"
#include "scaleopt/costmodel/rl_setup.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/costmodel/training_setup.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"

namespace scaleopt {

// Everything the costs depend on (a scenario file, once read).
struct LifetimeInputs {
  Architecture architecture;
  TrainingSetup training;
  ServingSetup serving;
  InferenceDemand demand;
  RlSetup rl;
  DataSupply data;   // the unique tokens available (absent: unlimited)
  PowerSetup power;  // what the chips draw at the meter, energy's price, the site's limit
};

struct InferenceCost {
  ComputeCost prefill;  // input tokens x cost per input token
  ComputeCost decode;   // output tokens x cost per output token
  ComputeCost total() const { return prefill + decode; }
};

struct PhaseCosts {
  Roofline roofline;         // the serving replica
  ServingPlan serving_plan;  // at serving.context_tokens (inference)
  ServingPlan rl_plan;       // at the rollout context (RL rollouts)
  PretrainingCost pretraining;
  RlCost rl;
  InferenceCost inference;
  ComputeCost total() const { return pretraining.cost + rl.total() + inference.total(); }
  // The plans' statuses: converged only when both are.
  bool converged() const;
};

// Throws InputError naming the field for invalid inputs (prefixes "architecture",
// "training", "inference", "rl"). A serving plan that did not converge is returned with its
// status, never hidden.
PhaseCosts phase_costs(const LifetimeInputs& inputs);

}  // namespace scaleopt
