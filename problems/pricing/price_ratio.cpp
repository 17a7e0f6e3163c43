#include "scaleopt/problems/pricing/price_ratio.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
double output_input_cost_ratio(const Roofline& r, double batch, double context_tokens) {
  const ComputeCost output = output_token_cost(r, decode_step(r, batch, context_tokens));
  const ComputeCost input = input_token_cost(r, prefill_token(r, context_tokens));
  return output.chip_hours / input.chip_hours;
}

double decode_memory_bound_factor(const Roofline& r, double batch, double context_tokens) {
  const DecodeStep step = decode_step(r, batch, context_tokens);
  return step.memory_seconds / step.compute_seconds;
}

BatchForRatio batch_for_price_ratio(const Roofline& r, double price_ratio, double context_tokens) {
  BatchForRatio result;
  result.price_ratio = price_ratio;
  result.context_tokens = context_tokens;
  result.batch_one_ratio = output_input_cost_ratio(r, 1.0, context_tokens);
  result.compute_bound_ratio =
      output_input_cost_ratio(r, std::exp(kLogMaxServingBatch), context_tokens);
  result.hbm_full_batch =
      (r.hbm_bytes - r.weight_bytes) / cached_bytes_per_sequence(r, context_tokens);
  auto gap = [&](double x) {
    return std::log(output_input_cost_ratio(r, std::exp(x), context_tokens) / price_ratio);
  };
  if (!(std::isfinite(price_ratio) && price_ratio > 0.0)) {
    result.status = Status::infeasible;
    result.message = "the price ratio must be finite and positive (is an input price zero?)";
    return result;
  }
  // At (or, by rounding, just below) the large-batch ratio any batch past the balance point
  // gives it: no batch is implied. 1e-12 is far above the rounding of the ratio (~1e-16).
  const bool at_floor = price_ratio <= result.compute_bound_ratio * (1.0 + 1e-12);
  const RootResult root =
      at_floor ? RootResult{} : find_root_in_bracket(gap, 0.0, kLogMaxServingBatch);
  if (at_floor || root.status == Status::infeasible) {
    std::ostringstream message;
    message << "no batch gives an output/input ratio of " << format_scientific(price_ratio, 4)
            << " at context " << format_quantity(context_tokens, Unit::count, 4)
            << ": the roofline's ratio falls from " << format_scientific(result.batch_one_ratio, 4)
            << " at batch 1 to " << format_scientific(result.compute_bound_ratio, 4)
            << " at large batch";
    result.status = Status::infeasible;
    result.message = message.str();
    return result;
  }
  if (root.status != Status::converged) {
    result.message = "batch not found: " + root.message;
    return result;
  }
  result.status = Status::converged;
  result.message = "batch by TOMS 748 on ln B";
  result.batch = std::exp(root.x);
  result.memory_bound_factor = decode_memory_bound_factor(r, result.batch, context_tokens);
  return result;
}

}  // namespace scaleopt
