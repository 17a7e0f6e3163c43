#pragma once
// Compute-optimal training with a limited stock of unique tokens (Muennighoff et al. 2023):
// the best loss for C = 6 N D FLOPs, or the cheapest (N, D) reaching a loss, when tokens
// beyond U_D repeat. No closed form: the lifecycle problem of pretraining alone
// (problems/lifecycle/) with the repetition transform, solved by NLopt with its KKT check and
// held to the reduction of problems/data_limit/data_limit_reduction.hpp.

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/compute_optimal/allocation.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

struct DataLimitedAllocation {
  Allocation allocation;  // its loss with repeated data; closed_form_relative_difference: NaN
  double unique_tokens = 0.0;
  double epochs = 0.0;            // D / U_D
  double effective_tokens = 0.0;  // D'
  double effective_params = 0.0;  // N'
  // |NLopt - reduction| / reduction on N and D; NaN when not cross-checked.
  double reference_relative_difference = 0.0;
  // Against unlimited fresh data: at a compute budget the loss the limit adds (nats), at a
  // target loss the FLOPs it adds. NaN when the unlimited question did not converge.
  double data_limit_loss = 0.0;
  double data_limit_flops = 0.0;
};

// Throws InputError for an invalid law, budget, target or stock (naming --unique-tokens).
DataLimitedAllocation optimal_for_compute_with_unique_tokens(const LossLaw& law,
                                                             double compute_flops,
                                                             double unique_tokens,
                                                             const SolverOptions& options = {});
DataLimitedAllocation optimal_for_loss_with_unique_tokens(const LossLaw& law, double target_loss,
                                                          double unique_tokens,
                                                          const SolverOptions& options = {});

// The loss of (N, D) with U_D unique tokens and what the transforms report.
struct DataLimitedPoint {
  double loss = 0.0;
  double fresh_loss = 0.0;  // the law's loss with fresh data
  double epochs = 0.0;
  double effective_tokens = 0.0;
  double effective_params = 0.0;
};
DataLimitedPoint data_limited_point(const LossLaw& law, double params, double tokens,
                                    double unique_tokens);

}  // namespace scaleopt
