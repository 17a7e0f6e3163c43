#include "scaleopt/problems/compute_optimal/allocation.hpp"

#include <cmath>

namespace scaleopt {

Allocation evaluate_allocation(const LossLaw& law, double params, double tokens) {
  Allocation allocation;
  allocation.params = params;
  allocation.tokens = tokens;
  allocation.compute_flops = training_flops(params, tokens);
  allocation.loss = law.loss(params, tokens);
  allocation.solve.status = Status::converged;
  allocation.solve.message = "evaluated";
  allocation.solve.algorithm = "evaluation";
  allocation.solve.x = {std::log(params), std::log(tokens)};
  allocation.solve.objective = allocation.loss;
  allocation.solve.kkt_residual = 0.0;
  allocation.solve.constraint_violation = 0.0;
  allocation.closed_form_relative_difference = std::nan("");
  return allocation;
}

}  // namespace scaleopt
