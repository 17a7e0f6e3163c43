#include "scaleopt/problems/pricing/request_cost.hpp"

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"

namespace scaleopt {
namespace {

// A request longer than this is a typo: no replica caches a billion tokens of one sequence.
constexpr double kMaxRequestTokens = 1e9;

void check_count(double value, double least, std::string_view flag) {
  if (!(value >= least && value <= kMaxRequestTokens) || value != std::floor(value)) {
    std::ostringstream message;
    message << flag << ": a whole number of tokens from " << least << " to "
            << format_scientific(kMaxRequestTokens, 3) << ", got " << value;
    throw InputError(message.str());
  }
}

}  // namespace

RequestCost request_cost(const Roofline& roofline, const ServingSetup& setup, double input_tokens,
                         double output_tokens, std::string_view prefix, std::string_view input_flag,
                         std::string_view output_flag) {
  check_count(input_tokens, 1.0, input_flag);
  check_count(output_tokens, 0.0, output_flag);
  RequestCost cost;
  cost.input_tokens = input_tokens;
  cost.output_tokens = output_tokens;
  const auto plan_at = [&](double context, std::string_view flag) {
    try {
      ServingPlan plan = plan_serving(roofline, setup, context, prefix);
      if (plan.status != Status::converged && cost.status == Status::converged) {
        cost.status = plan.status;
        cost.message =
            "at context " + format_quantity(context, Unit::count, 6) + ": " + plan.message;
      }
      return plan;
    } catch (const InputError& e) {
      throw InputError(std::string(flag) + ": the request reaches a context of " +
                       format_exact_count(context) + " tokens: " + e.what());
    }
  };
  const ServingPlan prompt = plan_at(input_tokens, input_flag);
  cost.prefill_usd = input_tokens * prompt.input_token.usd;
  if (output_tokens == 0.0) {
    cost.method = "no output tokens";
    return cost;
  }
  // The longest context first, so that a request the replica cannot hold fails at once.
  const double last_context = input_tokens + output_tokens - 1.0;
  cost.last_output_token_usd = plan_at(last_context, output_flag).output_token.usd;
  cost.first_output_token_usd = plan_at(input_tokens, output_flag).output_token.usd;
  const auto output_usd = [&](double context) {
    return plan_at(context, output_flag).output_token.usd;
  };
  if (output_tokens <= kExactOutputTokens) {
    // Summed from the smallest term up.
    for (double k = 0.0; k < output_tokens; ++k) cost.decode_usd += output_usd(input_tokens + k);
    cost.method = "every output token";
    return cost;
  }
  double error = 0.0;
  // 15-point Kronrod rule, bisected up to 15 times until the estimated error is below 1e-12 of
  // the integral: the kinks where the batch's bound changes are where it bisects.
  cost.decode_usd = boost::math::quadrature::gauss_kronrod<double, 15>::integrate(
      output_usd, input_tokens - 0.5, last_context + 0.5, 15, 1e-12, &error);
  cost.method = "Gauss-Kronrod over the context (midpoint rule of the sum)";
  return cost;
}

}  // namespace scaleopt
