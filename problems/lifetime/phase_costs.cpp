#include "scaleopt/problems/lifetime/phase_costs.hpp"

namespace scaleopt {

bool PhaseCosts::converged() const {
  return serving_plan.status == Status::converged && rl_plan.status == Status::converged;
}

PhaseCosts phase_costs(const LifetimeInputs& inputs) {
  inputs.architecture.validate("architecture");
  inputs.demand.validate("inference");
  inputs.rl.validate("rl");
  PhaseCosts result;
  result.pretraining = pretraining_cost(inputs.architecture, inputs.training);

  const bool serves = inputs.demand.total_tokens() > 0.0 || inputs.rl.rollout_tokens > 0.0;
  if (serves) {
    result.roofline = make_roofline(inputs.architecture, inputs.serving, "inference");
    result.serving_plan =
        plan_inference(result.roofline, inputs.serving, inputs.serving.context_tokens, "inference");
    const double rl_context = inputs.rl.context_tokens.value_or(inputs.serving.context_tokens);
    result.rl_plan = rl_context == inputs.serving.context_tokens
                         ? result.serving_plan
                         : plan_inference(result.roofline, inputs.serving, rl_context, "inference");
  } else {
    result.serving_plan.status = Status::converged;
    result.serving_plan.message = "no inference or RL demand";
    result.rl_plan = result.serving_plan;
  }
  result.inference.prefill = result.serving_plan.input_token * inputs.demand.input_tokens();
  result.inference.decode = result.serving_plan.output_token * inputs.demand.output_tokens();
  result.rl = rl_cost(inputs.architecture, inputs.rl, inputs.training, result.rl_plan.output_token,
                      result.rl_plan.input_token);
  return result;
}

}  // namespace scaleopt
