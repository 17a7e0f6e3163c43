#include "scaleopt/problems/lifetime/lifetime_cost_from_setup.hpp"

#include <cmath>
#include <limits>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/lifecycle/accelerators/roofline_pricing.hpp"
#include "scaleopt/problems/serving/serving_plan_slopes.hpp"

namespace scaleopt {
namespace {

// Room kept below the largest servable model, so that rounding in N never tips a model at the
// bound out of the replica's HBM.
constexpr double kLogMargin = 1e-6;

struct HoursAndUsd {
  double gpu_hours;
  double usd;
};

// Hours and dollars at one N, with their exact slopes in ln N (problems/serving_plan_slopes).
// The cost is smooth between the points where the serving regime changes (another batch bound
// binds, decode or prefill crosses the roofline's ridge); there it has a corner, and the slope
// is the one of the side N is on. The solvers treat such corners explicitly (solver/minimize).
// `scaled`: along a scaled model (N_active and N_total in proportion); `in_total`: in
// ln N_total at a fixed N_active (the weights alone), for a problem that chooses the experts.
struct Priced {
  HoursAndUsd value;
  HoursAndUsd scaled;
  HoursAndUsd in_total;
};

SizeCost size_cost(const Priced& priced) {
  return {priced.value.gpu_hours, priced.value.usd, priced.scaled.gpu_hours, priced.scaled.usd};
}

SparseSizeCost sparse_size_cost(const Priced& priced) {
  return {priced.value.gpu_hours,
          priced.value.usd,
          priced.scaled.gpu_hours - priced.in_total.gpu_hours,
          priced.scaled.usd - priced.in_total.usd,
          priced.in_total.gpu_hours,
          priced.in_total.usd};
}

// One input token and one output token at `context` for a model of N active and N_total
// total parameters, with their slopes.
struct TokenCosts {
  ComputeCost input, output;
  ServingPlanSlopes slopes;
};

// With the replica chosen, the cheapest per output token at this N (rollouts run in a training
// job's time: elastic).
TokenCosts token_costs(const LifetimeInputs& inputs, double active_params, double total_params,
                       double context) {
  const Architecture scaled = architecture_at(inputs.architecture, active_params, total_params);
  ServingSetup serving = inputs.serving;
  if (serving.replica_chosen) {
    double chips = serving.chips;
    cheapest_replica_plan(scaled, serving, context, "inference", chips);
    serving.chips = chips;
  }
  const Roofline roofline = make_roofline(scaled, serving, "inference");
  const ServingPlan plan = plan_inference(roofline, serving, context, "inference");
  if (plan.status != Status::converged) {
    throw InputError("inference: serving plan for " + std::to_string(active_params) +
                     " parameters: " + plan.message);
  }
  return {plan.input_token, plan.output_token, log_slopes_in_params(roofline, plan)};
}

// Hours and dollars of one RL rollout token: generation at the output-token cost, the trained
// fraction at 6 N per token at the RL MFU on the training chips, extra passes at the
// input-token cost (costmodel/rl_cost.hpp). The trained part is linear in N_active.
Priced rl_token(const LifetimeInputs& inputs, double params, double train_hours_per_flop,
                double train_usd_per_hour, const TokenCosts& tokens) {
  const double trained_hours = 6.0 * params * inputs.rl.trained_fraction * train_hours_per_flop;
  const double p = inputs.rl.extra_forward_passes;
  const double s_out = tokens.slopes.output_token, s_in = tokens.slopes.input_token;
  const double t_out = tokens.slopes.output_token_in_total;
  const double t_in = tokens.slopes.input_token_in_total;
  const HoursAndUsd value{
      tokens.output.chip_hours + trained_hours + p * tokens.input.chip_hours,
      tokens.output.usd + trained_hours * train_usd_per_hour + p * tokens.input.usd};
  const HoursAndUsd scaled{
      tokens.output.chip_hours * s_out + trained_hours + p * tokens.input.chip_hours * s_in,
      tokens.output.usd * s_out + trained_hours * train_usd_per_hour + p * tokens.input.usd * s_in};
  const HoursAndUsd in_total{tokens.output.chip_hours * t_out + p * tokens.input.chip_hours * t_in,
                             tokens.output.usd * t_out + p * tokens.input.usd * t_in};
  return {value, scaled, in_total};
}

// A size cost priced by the roofline's serving plan at N (root finding): `price(inputs, active,
// total)` is one RL rollout token (generation and extra passes at the RL context, the trained
// fraction at the RL MFU). The closed form the accelerators use stands beside it.
template <class Price>
class ServingPricedCost final : public SizeCostFunction {
 public:
  ServingPricedCost(std::shared_ptr<const LifetimeInputs> inputs,
                    std::shared_ptr<const RooflinePricing> closed_form, Price price)
      : inputs_(std::move(inputs)), closed_form_(std::move(closed_form)), price_(price) {}
  SizeCost at(double params) const override {
    return size_cost(
        price_(*inputs_, params, params * total_to_active_ratio(inputs_->architecture)));
  }
  const RooflinePricing* closed_form() const override { return closed_form_.get(); }
  bool prices_total() const override { return true; }
  std::optional<SparseSizeCost> at_total(double active_params, double total_params) const override {
    return sparse_size_cost(price_(*inputs_, active_params, total_params));
  }

 private:
  std::shared_ptr<const LifetimeInputs> inputs_;
  std::shared_ptr<const RooflinePricing> closed_form_;
  Price price_;
};

template <class Price>
SizeCostTerm serving_priced(std::shared_ptr<const LifetimeInputs> inputs,
                            std::shared_ptr<const RooflinePricing> closed_form, Price price) {
  return SizeCostTerm::of(std::make_shared<const ServingPricedCost<Price>>(
      std::move(inputs), std::move(closed_form), price));
}

}  // namespace

ServingFleet::ServingFleet(std::shared_ptr<const LifetimeInputs> inputs,
                           std::shared_ptr<const RooflinePricing> closed_form)
    : inputs_(std::move(inputs)), closed_form_(std::move(closed_form)) {
  demand_ = {inputs_->demand.input_tokens(), inputs_->demand.output_tokens(),
             inputs_->demand.duration_seconds};
  usd_per_chip_hour_ = inputs_->serving.price_per_chip_hour("inference");
}

FleetPlan ServingFleet::plan_at(double active_params) const {
  return plan_fleet(architecture_at(inputs_->architecture, active_params), inputs_->serving,
                    demand_, inputs_->serving.context_tokens, "inference");
}

FleetPlan ServingFleet::plan_at_total(double active_params, double total_params) const {
  return plan_fleet(architecture_at(inputs_->architecture, active_params, total_params),
                    inputs_->serving, demand_, inputs_->serving.context_tokens, "inference");
}

namespace {

const FleetPlan& converged_fleet(const FleetPlan& fleet, double active_params) {
  if (fleet.plan.status != Status::converged) {
    throw InputError("inference: serving plan for " + std::to_string(active_params) +
                     " parameters: " + fleet.plan.message);
  }
  return fleet;
}

}  // namespace

SizeCost ServingFleet::at(double active_params) const {
  const FleetPlan fleet = plan_at(active_params);
  converged_fleet(fleet, active_params);
  return {fleet.chip_hours, fleet.chip_hours * usd_per_chip_hour_, fleet.d_chip_hours_d_log_params,
          fleet.d_chip_hours_d_log_params * usd_per_chip_hour_};
}

std::optional<SparseSizeCost> ServingFleet::at_total(double active_params,
                                                     double total_params) const {
  const FleetPlan fleet = plan_at_total(active_params, total_params);
  converged_fleet(fleet, active_params);
  const double in_total = fleet.d_chip_hours_d_log_total_params;
  const double in_active = fleet.d_chip_hours_d_log_params - in_total;
  return SparseSizeCost{fleet.chip_hours, fleet.chip_hours * usd_per_chip_hour_,
                        in_active,        in_active * usd_per_chip_hour_,
                        in_total,         in_total * usd_per_chip_hour_};
}

bool LifetimeCostModel::closed_form_exact_at(double params) const {
  if (!closed_form_lower_bound) return true;
  if (!fleet || !closed_form()) return false;
  return closed_form_exact_given(params, fleet->plan_at(params));
}

bool LifetimeCostModel::closed_form_exact_given(double params, const FleetPlan& plan) const {
  if (!closed_form_lower_bound) return true;
  if (!fleet || !closed_form()) return false;
  if (plan.plan.status != Status::converged || plan.demand_bound) return false;
  // The closed form's hours at N (D does not enter inference) against the fleet's.
  const double closed = roofline_lifetime_cost(*this, params, 1.0).inference.gpu_hours;
  return std::fabs(plan.chip_hours - closed) <= 1e-9 * closed;
}

bool has_architecture(const Architecture& architecture) {
  return architecture.has_shape() || architecture.total_params.has_value();
}

double total_to_active_ratio(const Architecture& architecture) {
  if (!has_architecture(architecture)) return 1.0;
  return architecture.total_param_count() / architecture.active_param_count();
}

Architecture architecture_at(const Architecture& architecture, double active_params) {
  return architecture_at(architecture, active_params,
                         active_params * total_to_active_ratio(architecture));
}

Architecture architecture_at(const Architecture& architecture, double active_params,
                             double total_params) {
  // Direct totals override the shape's parameter counts; the shape (if any) still gives the
  // KV bytes per token and attention FLOPs, which therefore stay as they are.
  Architecture scaled = architecture;
  scaled.total_params = total_params;
  scaled.active_params = active_params;
  scaled.scaled_counts = true;
  return scaled;
}

LifetimeCostModel lifetime_cost_model(const LifetimeInputs& inputs, bool with_prices) {
  if (has_architecture(inputs.architecture)) inputs.architecture.validate("architecture");
  inputs.training.validate("training");
  inputs.demand.validate("inference");
  inputs.rl.validate("rl");
  const bool serves = inputs.demand.total_tokens() > 0.0 || inputs.rl.rollout_tokens > 0.0;
  if (serves) inputs.serving.validate("inference");

  LifetimeCostModel model;
  const double train_peak = inputs.training.chip.peak_flop_per_second(inputs.training.precision);
  // Goodput below 1 pays for wall time without useful steps: pretraining's hours only (RL's
  // MFU is its own, rl.mfu).
  model.pretrain_gpu_hours_per_flop =
      1.0 / (kSecondsPerHour * inputs.training.effective_flop_per_second());
  const double train_usd_per_hour =
      with_prices ? inputs.training.price_per_chip_hour("training") : 0.0;
  model.pretrain_usd_per_gpu_hour = train_usd_per_hour;

  const double input_tokens = inputs.demand.input_tokens();
  const double output_tokens = inputs.demand.output_tokens();
  model.inference_flops_per_param = 2.0 * (input_tokens + output_tokens);
  const double f = inputs.rl.trained_fraction, p = inputs.rl.extra_forward_passes;
  model.rl_tokens = inputs.rl.rollout_tokens;
  model.rl_flops_per_param_token = 2.0 + 6.0 * f + 2.0 * p;  // k, costmodel/rl_cost.hpp
  // A FLOPs problem needs no prices, and its FLOPs do not depend on how tokens are served.
  if (!serves || !with_prices) return model;

  const double serve_usd_per_hour =
      with_prices ? inputs.serving.price_per_chip_hour("inference") : 0.0;
  const double rl_context = inputs.rl.context_tokens.value_or(inputs.serving.context_tokens);
  const double rl_mfu = inputs.rl.mfu.value_or(inputs.training.mfu);
  const double rl_train_hours_per_flop = 1.0 / (kSecondsPerHour * train_peak * rl_mfu);
  // A chosen replica: the largest size bounds N and prices the closed form (at every N the
  // cheapest size's tokens cost what the largest's do, problems/serving/fleet_plan.hpp).
  LifetimeInputs largest;
  if (inputs.serving.replica_chosen && inputs.serving.pricing == InferencePricing::roofline) {
    largest = inputs;
    largest.serving.chips = inputs.serving.max_replica_nodes * inputs.serving.chip.node_chips;
  }
  const LifetimeInputs& priced = inputs.serving.replica_chosen ? largest : inputs;

  if (inputs.serving.pricing == InferencePricing::mfu) {
    // Linear in N: 2 N FLOPs per token at the prefill or decode MFU of one chip's peak.
    const double chip_peak = inputs.serving.chip.peak_flop_per_second(inputs.serving.precision);
    const double prefill_hours = 2.0 / (kSecondsPerHour * chip_peak * inputs.serving.prefill_mfu);
    const double decode_hours = 2.0 / (kSecondsPerHour * chip_peak * *inputs.serving.decode_mfu);
    model.inference = SizeCostTerm::linear(
        input_tokens * prefill_hours + output_tokens * decode_hours, serve_usd_per_hour);
    const double rl_serve_hours = decode_hours + p * prefill_hours;
    const double rl_train_hours = 6.0 * f * rl_train_hours_per_flop;
    const double rl_hours = rl_serve_hours + rl_train_hours;
    const double rl_usd = rl_serve_hours * serve_usd_per_hour + rl_train_hours * train_usd_per_hour;
    model.rl_per_token = SizeCostTerm::linear(rl_hours, rl_hours > 0.0 ? rl_usd / rl_hours : 0.0);
    return model;
  }

  if (!has_architecture(inputs.architecture)) {
    throw InputError(
        "architecture: inference.pricing = \"roofline\" needs the model's KV bytes per token: "
        "give architecture.preset or architecture.kv_bytes_per_token, or set inference.pricing "
        "= \"mfu\"");
  }
  // Roofline: costs per token depend on N through the weights read per decode step and the
  // batch that fits beside them, so they are functions of N with exact slopes, and the same in
  // closed form for the fast path.
  const double context = inputs.serving.context_tokens;
  const Roofline per_param =
      make_roofline(architecture_at(inputs.architecture, 1.0), priced.serving, "inference");
  // One copy of the inputs and one closed form, shared by the two size costs (a sweep builds a
  // model per point: two copies of the inputs, strings and all, were a tenth of a point's time).
  const auto shared = std::make_shared<const LifetimeInputs>(inputs);
  const auto closed_form = std::make_shared<const RooflinePricing>(
      roofline_pricing(priced, per_param, train_usd_per_hour, rl_train_hours_per_flop));
  const auto fleet = std::make_shared<const ServingFleet>(shared, closed_form);
  model.inference = SizeCostTerm::of(fleet);
  model.fleet = fleet;
  model.closed_form_lower_bound =
      !inputs.serving.priced_elastically(inputs.demand.duration_seconds.has_value());
  if (model.closed_form_lower_bound && !inputs.serving.replica_chosen) {
    model.replica_floor_chip_hours =
        inputs.serving.chips * *inputs.demand.duration_seconds / kSecondsPerHour;
  }
  // Built even without rollout tokens: equal-cost derives them from an RL share, and the RL
  // returns model chooses them, so both need the cost of one. cost() reads it only for tokens.
  model.rl_per_token = serving_priced(
      shared, closed_form, [=](const LifetimeInputs& in, double params, double total_params) {
        return rl_token(in, params, rl_train_hours_per_flop, train_usd_per_hour,
                        token_costs(in, params, total_params, rl_context));
      });
  // The largest N whose weights and one sequence (or the given batch) fit the replica, with a
  // margin: beyond it the serving plan has no batch.
  const double batch = priced.serving.batch.value_or(1.0);
  const double longest = std::max(context, rl_context);
  const double cache_bytes = hbm_bytes_needed(per_param, batch, longest) - per_param.weight_bytes;
  model.max_params =
      (per_param.hbm_bytes - cache_bytes) / per_param.weight_bytes * std::exp(-kLogMargin);
  if (!(model.max_params > 0.0)) {
    throw InputError(std::string(inputs.serving.replica_chosen ? "inference.max_replica_nodes"
                                                               : "inference.chips") +
                     ": one sequence's KV cache at context " + std::to_string(context) +
                     " does not fit the replica's HBM at any model size");
  }
  // A latency target bounds N as well: the batch (1, or the given one) must decode within it,
  // and its step grows with N. Without this bound the optimum's search would step past it and
  // fail instead of stopping at the largest model that meets it. The step is linear in N on
  // each side of the ridge (costmodel/roofline.hpp: a scaled model has no embedding table), so
  // the largest N meeting the target is the smaller of the two sides' roots.
  if (const auto latency = priced.serving.latency_per_token_seconds) {
    const DecodeStep unit_step = decode_step(per_param, batch, longest);  // at N = 1
    const double attention_flops = batch * decode_attention_flops_per_token(per_param, longest);
    const double sequence_bytes = unit_step.bytes - per_param.weight_read_bytes;
    const double n = model.max_params;
    const double step_seconds = std::max(
        (2.0 * batch * per_param.decode_params * n + attention_flops) / per_param.flop_per_second,
        (per_param.weight_read_bytes * n + sequence_bytes) / per_param.bytes_per_second);
    if (step_seconds > *latency) {
      const double compute_bound = (*latency * per_param.flop_per_second - attention_flops) /
                                   (2.0 * batch * per_param.decode_params);
      const double memory_bound =
          (*latency * per_param.bytes_per_second - sequence_bytes) / per_param.weight_read_bytes;
      const double largest = std::min(compute_bound, memory_bound);
      // None meets it: the least N considered below the HBM's (the plan then reports the
      // target unreachable).
      const double floor = std::log(model.max_params) - 60.0;
      model.max_params =
          std::exp(std::max(largest > 0.0 ? std::log(largest) : floor, floor) - kLogMargin);
    }
  }
  // For a problem that chooses the experts, the same bounds apart: the weights' (the HBM, and
  // the latency target's memory side) on N_total, the latency target's compute side on
  // N_active. per_param has N_active = 1 and N_total = the architecture's ratio.
  const double ratio = total_to_active_ratio(inputs.architecture);
  model.max_total_params =
      (per_param.hbm_bytes - cache_bytes) / per_param.weight_bytes * ratio * std::exp(-kLogMargin);
  if (const auto latency = priced.serving.latency_per_token_seconds) {
    const DecodeStep unit_step = decode_step(per_param, batch, longest);
    const double attention_flops = batch * decode_attention_flops_per_token(per_param, longest);
    const double sequence_bytes = unit_step.bytes - per_param.weight_read_bytes;
    const double memory_bound =
        (*latency * per_param.bytes_per_second - sequence_bytes) / per_param.weight_read_bytes;
    const double compute_bound = (*latency * per_param.flop_per_second - attention_flops) /
                                 (2.0 * batch * per_param.decode_params);
    // A target no model meets: the dense bound's floor, as above.
    const double floor_total = model.max_params * ratio;
    model.max_total_params =
        std::min(model.max_total_params,
                 memory_bound > 0.0 ? memory_bound * ratio * std::exp(-kLogMargin) : floor_total);
    model.max_active_params =
        compute_bound > 0.0 ? compute_bound * std::exp(-kLogMargin) : model.max_params;
  }
  return model;
}

}  // namespace scaleopt
