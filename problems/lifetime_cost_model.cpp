#include "problems/lifetime_cost_model.hpp"

#include <cmath>
#include <sstream>

#include "costmodel/input_error.hpp"
#include "problems/allocation.hpp"

namespace scaleopt {
namespace {

PhaseCost operator+(const PhaseCost& a, const PhaseCost& b) {
  return {a.flops + b.flops, a.gpu_hours + b.gpu_hours, a.usd + b.usd};
}

HoursOfSize inference_hours_of(const LifetimeCostModel& model, double params) {
  if (model.inference_hours) return model.inference_hours(params);
  const double hours = model.inference_gpu_hours_per_param * params;
  return {hours, hours};  // linear in N: d hours / d ln N = hours
}

}  // namespace

double in_unit(CostUnit unit, const PhaseCost& cost) {
  switch (unit) {
    case CostUnit::flops:
      return cost.flops;
    case CostUnit::gpu_hours:
      return cost.gpu_hours;
    case CostUnit::usd:
      return cost.usd;
  }
  return cost.usd;
}

double rl_cost_per_param_token(const LifetimeCostModel& model, CostUnit unit) {
  return in_unit(unit, {model.rl_flops_per_param_token, model.rl_gpu_hours_per_param_token,
                        model.rl_gpu_hours_per_param_token * model.rl_usd_per_gpu_hour});
}

PhaseCost LifetimeCost::total() const {
  return pretrain + rl + inference;
}

std::string_view to_string(CostUnit unit) {
  switch (unit) {
    case CostUnit::flops:
      return "flops";
    case CostUnit::gpu_hours:
      return "gpu_hours";
    case CostUnit::usd:
      return "usd";
  }
  return "usd";
}

LifetimeCost LifetimeCostModel::cost(double params, double pretrain_tokens) const {
  LifetimeCost cost;
  cost.pretrain.flops = training_flops(params, pretrain_tokens);
  cost.pretrain.gpu_hours = cost.pretrain.flops * pretrain_gpu_hours_per_flop;
  cost.pretrain.usd = cost.pretrain.gpu_hours * pretrain_usd_per_gpu_hour;
  cost.rl.flops = rl_flops_per_param_token * params * rl_tokens;
  cost.rl.gpu_hours = rl_gpu_hours_per_param_token * params * rl_tokens;
  cost.rl.usd = cost.rl.gpu_hours * rl_usd_per_gpu_hour;
  cost.inference.flops = inference_flops_per_param * params;
  cost.inference.gpu_hours = inference_hours_of(*this, params).gpu_hours;
  cost.inference.usd = cost.inference.gpu_hours * inference_usd_per_gpu_hour;
  return cost;
}

LifetimeCostModel::Total LifetimeCostModel::total(CostUnit unit, double params,
                                                  double pretrain_tokens) const {
  const LifetimeCost c = cost(params, pretrain_tokens);
  const double pretrain = in_unit(unit, c.pretrain);
  const double rl = in_unit(unit, c.rl);
  // Pretraining is bilinear (slope pretrain in both ln N and ln D), RL linear in N; inference
  // is linear in N except when priced by a function of N, which gives its own slope.
  double inference_slope = in_unit(unit, c.inference);
  if (inference_hours && unit != CostUnit::flops) {
    const double slope_hours = inference_hours(params).d_gpu_hours_d_log_params;
    inference_slope =
        unit == CostUnit::usd ? slope_hours * inference_usd_per_gpu_hour : slope_hours;
  }
  return {pretrain + rl + in_unit(unit, c.inference), pretrain + rl + inference_slope, pretrain};
}

void LifetimeCostModel::validate() const {
  const std::pair<const char*, double> fields[] = {
      {"pretrain_gpu_hours_per_flop", pretrain_gpu_hours_per_flop},
      {"pretrain_usd_per_gpu_hour", pretrain_usd_per_gpu_hour},
      {"rl_tokens", rl_tokens},
      {"rl_flops_per_param_token", rl_flops_per_param_token},
      {"rl_gpu_hours_per_param_token", rl_gpu_hours_per_param_token},
      {"rl_usd_per_gpu_hour", rl_usd_per_gpu_hour},
      {"inference_flops_per_param", inference_flops_per_param},
      {"inference_gpu_hours_per_param", inference_gpu_hours_per_param},
      {"inference_usd_per_gpu_hour", inference_usd_per_gpu_hour}};
  for (const auto& [name, value] : fields) {
    if (!std::isfinite(value) || value < 0.0) {
      std::ostringstream message;
      message << "cost model: " << name << " must be finite and >= 0, got " << value;
      throw InputError(message.str());
    }
  }
}

LifetimeCostModel flops_cost_model(double inference_tokens, double rl_tokens,
                                   double rl_flops_per_param_token) {
  LifetimeCostModel model;
  model.inference_flops_per_param = 2.0 * inference_tokens;  // 2 N FLOPs per token
  model.rl_tokens = rl_tokens;
  model.rl_flops_per_param_token = rl_flops_per_param_token;
  return model;
}

}  // namespace scaleopt
