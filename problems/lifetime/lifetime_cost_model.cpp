#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/compute_optimal/allocation.hpp"

namespace scaleopt {
namespace {

PhaseCost operator+(const PhaseCost& a, const PhaseCost& b) {
  return {a.flops + b.flops, a.gpu_hours + b.gpu_hours, a.usd + b.usd};
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

double rl_cost_per_token(const LifetimeCostModel& model, CostUnit unit, double params) {
  return rl_token_cost(model, unit, params).value;
}

RlTokenCost rl_token_cost(const LifetimeCostModel& model, CostUnit unit, double params) {
  const SizeCost per_token = model.rl_per_token.at(params);
  const double flops = model.rl_flops_per_param_token * params;  // linear: slope = value
  return {in_unit(unit, {flops, per_token.gpu_hours, per_token.usd}),
          in_unit(unit, {flops, per_token.d_gpu_hours_d_log_params, per_token.d_usd_d_log_params})};
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

PhaseCost LifetimeCostModel::pretraining(double params, double pretrain_tokens) const {
  const double flops = training_flops(params, pretrain_tokens);
  const double hours = flops * pretrain_gpu_hours_per_flop;
  return {flops, hours, hours * pretrain_usd_per_gpu_hour};
}

LifetimeCost LifetimeCostModel::cost(double params, double pretrain_tokens) const {
  LifetimeCost cost;
  cost.pretrain = pretraining(params, pretrain_tokens);
  if (rl_tokens > 0.0) {
    const SizeCost rl_token = rl_per_token.at(params);
    cost.rl = {rl_flops_per_param_token * params * rl_tokens, rl_token.gpu_hours * rl_tokens,
               rl_token.usd * rl_tokens};
  }
  const SizeCost served = inference.at(params);
  cost.inference = {inference_flops_per_param * params, served.gpu_hours, served.usd};
  return cost;
}

LifetimeCostModel::Total LifetimeCostModel::total(CostUnit unit, double params,
                                                  double pretrain_tokens) const {
  // Pretraining is bilinear in N and D (slope = value in ln N and in ln D); RL and inference
  // FLOPs are linear in N; their hours and dollars come with their own slopes.
  const double pretrain = in_unit(unit, pretraining(params, pretrain_tokens));
  double rl = 0.0, rl_slope = 0.0;
  if (rl_tokens > 0.0) {
    const SizeCost r = rl_per_token.at(params);
    rl = in_unit(unit, {rl_flops_per_param_token * params, r.gpu_hours, r.usd}) * rl_tokens;
    rl_slope = in_unit(unit, {rl_flops_per_param_token * params, r.d_gpu_hours_d_log_params,
                              r.d_usd_d_log_params}) *
               rl_tokens;
  }
  const SizeCost i = inference.at(params);
  const double serving = in_unit(unit, {inference_flops_per_param * params, i.gpu_hours, i.usd});
  const double serving_slope = in_unit(
      unit, {inference_flops_per_param * params, i.d_gpu_hours_d_log_params, i.d_usd_d_log_params});
  return {pretrain + rl + serving, pretrain + rl_slope + serving_slope, pretrain};
}

namespace {

SparseSizeCost priced_apart(const SizeCostTerm& term, double active_params, double total_params) {
  const std::optional<SparseSizeCost> cost = term.at_total(active_params, total_params);
  if (!cost) throw std::logic_error("a size cost that cannot price the total apart");
  return *cost;
}

}  // namespace

bool LifetimeCostModel::prices_total() const {
  return rl_per_token.prices_total() && inference.prices_total();
}

LifetimeCost LifetimeCostModel::cost_at(double active_params, double total_params,
                                        double pretrain_tokens) const {
  LifetimeCost cost;
  cost.pretrain = pretraining(active_params, pretrain_tokens);
  if (rl_tokens > 0.0) {
    const SparseSizeCost rl_token = priced_apart(rl_per_token, active_params, total_params);
    cost.rl = {rl_flops_per_param_token * active_params * rl_tokens, rl_token.gpu_hours * rl_tokens,
               rl_token.usd * rl_tokens};
  }
  const SparseSizeCost served = priced_apart(inference, active_params, total_params);
  cost.inference = {inference_flops_per_param * active_params, served.gpu_hours, served.usd};
  return cost;
}

LifetimeCostModel::SparseTotal LifetimeCostModel::total_at(CostUnit unit, double active_params,
                                                           double total_params,
                                                           double pretrain_tokens) const {
  // Pretraining and every FLOP follow N_active (6 N_active D, 2 N_active per token); the total
  // enters the hours and dollars of serving and rollouts alone.
  const double pretrain = in_unit(unit, pretraining(active_params, pretrain_tokens));
  SparseTotal result{pretrain, pretrain, pretrain, 0.0};
  const auto add = [&](const SparseSizeCost& c, double flops_per_param, double count) {
    const double flops = flops_per_param * active_params;
    result.value += in_unit(unit, {flops, c.gpu_hours, c.usd}) * count;
    result.d_log_params +=
        in_unit(unit, {flops, c.d_gpu_hours_d_log_active, c.d_usd_d_log_active}) * count;
    result.d_log_total_params +=
        in_unit(unit, {0.0, c.d_gpu_hours_d_log_total, c.d_usd_d_log_total}) * count;
  };
  if (rl_tokens > 0.0) {
    add(priced_apart(rl_per_token, active_params, total_params), rl_flops_per_param_token,
        rl_tokens);
  }
  add(priced_apart(inference, active_params, total_params), inference_flops_per_param, 1.0);
  return result;
}

std::optional<LinearCost> LifetimeCostModel::linear(CostUnit unit) const {
  if (!rl_per_token.linear_rate() || !inference.linear_rate() ||
      max_params < std::numeric_limits<double>::infinity()) {
    return std::nullopt;
  }
  // RL and inference of a one-parameter model, no pretraining: exactly c, since both are
  // proportional to N.
  const LifetimeCost per_param = cost(1.0, 0.0);
  return LinearCost{in_unit(unit, pretraining(1.0, 1.0)),
                    in_unit(unit, per_param.rl) + in_unit(unit, per_param.inference)};
}

const RooflinePricing* LifetimeCostModel::closed_form() const {
  const RooflinePricing* form = inference.closed_form();
  return form && rl_per_token.closed_form() == form ? form : nullptr;
}

void LifetimeCostModel::validate() const {
  const LinearRate rl_rate = rl_per_token.linear_rate().value_or(LinearRate{});
  const LinearRate inference_rate = inference.linear_rate().value_or(LinearRate{});
  const std::pair<const char*, double> fields[] = {
      {"pretrain_gpu_hours_per_flop", pretrain_gpu_hours_per_flop},
      {"pretrain_usd_per_gpu_hour", pretrain_usd_per_gpu_hour},
      {"rl_tokens", rl_tokens},
      {"rl_flops_per_param_token", rl_flops_per_param_token},
      {"rl_gpu_hours_per_param_token", rl_rate.gpu_hours_per_param},
      {"rl_usd_per_gpu_hour", rl_rate.usd_per_gpu_hour},
      {"inference_flops_per_param", inference_flops_per_param},
      {"inference_gpu_hours_per_param", inference_rate.gpu_hours_per_param},
      {"inference_usd_per_gpu_hour", inference_rate.usd_per_gpu_hour}};
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
