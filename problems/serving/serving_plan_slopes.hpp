#pragma once
// How the cost of a served token changes with the model size, exactly: the lifetime problems
// optimise over N with the serving plan re-chosen at every N (problems/lifetime_cost_from_setup),
// and their gradients need d ln(cost per token) / d ln N. Central differences of the plan lose
// half the digits (the cost is only known to rounding), which leaves flat optima located to
// ~1e-7 only; these slopes are exact to rounding.
//
// N scales the roofline as architecture_at does: the weights (N_total bytes) and the 2 N_active
// FLOPs per token in proportion, the KV cache per token fixed. The batch follows the
// constraint that binds it, so its slope comes from differentiating that constraint
// (implicit function theorem):
//   t = max(t_compute, t_memory),  t_compute = B (2 N_active + c) / F,  t_memory = (W + B m) / W_bw
//   d ln t / d ln N = phi_c (compute-bound) or phi_m = W / (W + B m) (memory-bound)
//   d ln t / d ln B = 1 (compute-bound) or 1 - phi_m (memory-bound)
//   d ln B / d ln N = 0 (batch given, or compute-bound from one sequence),
//                     -(phi_c - phi_m) / phi_m (balance: ln t_compute = ln t_memory),
//                     -psi / (1 - psi), psi = W / HBM needed (HBM full),
//                     -(d ln t / d ln N) / (d ln t / d ln B) (latency: ln t = ln target)
//   d ln(cost per output token) / d ln N = d ln t / d ln N + (d ln t / d ln B - 1) d ln B / d ln N
// with phi_c = 2 N_active B / FLOPs of the step. Prefill: phi_c of the prefill FLOPs when
// compute-bound, 0 when memory-bound. Fixed MFUs (pricing = mfu): 1 for both.
//
// These are the slopes of one smooth piece of the cost. Where the regime changes (another bound
// binds, decode or prefill crosses the roofline's ridge) the cost has a corner, and they are the
// slopes of the side the plan is on.

#include "scaleopt/problems/serving/serving_plan.hpp"

namespace scaleopt {

struct ServingPlanSlopes {
  double input_token = 0.0;   // d ln(cost of one input token) / d ln N
  double output_token = 0.0;  // d ln(cost of one output token) / d ln N
  // The same in ln N_total at a fixed N_active: the weights alone grow, not the FLOPs (a mixture
  // of experts whose expert count the problem chooses). The formulas above with phi_c = 0 and a
  // compute-bound prefill's slope 0; the slope in ln N_active alone is the difference.
  double input_token_in_total = 0.0;
  double output_token_in_total = 0.0;
};

ServingPlanSlopes log_slopes_in_params(const Roofline& roofline, const ServingPlan& plan);

}  // namespace scaleopt
