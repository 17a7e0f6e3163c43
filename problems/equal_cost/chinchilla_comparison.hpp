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

// The two steps every comparison shares, whichever way it found the equal-quality model: the
// refusal of a model larger than the setup serves (status infeasible, the message naming both
// sizes; false) and, once `comparison.chinchilla` holds that model's N, D and cost, the ratios.
bool chinchilla_servable(ChinchillaComparison& comparison, double params, double max_params);
void set_chinchilla_ratios(ChinchillaComparison& comparison, const LifetimePlan& plan);

// D / (the rule's D for this N): how far a plan trains past Chinchilla ("~100x").
double over_chinchilla(const AllocationRule& rule, double params, double pretrain_tokens);

}  // namespace scaleopt
