#pragma once
// A lifetime plan beside the Chinchilla-style model of equal quality: the training-compute-
// optimal (N, D) that reaches the same loss (the law's frontier, or a fixed tokens-per-
// parameter rule), costed by the same lifetime model. Sardana et al. report exactly these
// ratios ("70.96% of the parameters, 146.77% of the tokens, 95.22% of the FLOPs").

#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifetime/lifetime_plan.hpp"

namespace scaleopt {

struct ChinchillaComparison {
  LifetimePlan chinchilla;
  // Status infeasible (ratios 0) when the rule cannot reach the loss or the setup cannot serve
  // the Chinchilla-style model; the message says which.
  double params_ratio = 0.0;  // plan / chinchilla
  double tokens_ratio = 0.0;
  double cost_ratio = 0.0;  // in the plan's unit
};

ChinchillaComparison compare_with_chinchilla(const AllocationRule& rule, const LifetimePlan& plan,
                                             const LifetimeCostModel& model);

// D / (the rule's D for this N): how far a plan trains past Chinchilla ("~100x").
double over_chinchilla(const AllocationRule& rule, double params, double pretrain_tokens);

}  // namespace scaleopt
