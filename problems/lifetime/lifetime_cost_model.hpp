#pragma once
// What a model's whole life costs, as a function of its size N and pretraining tokens D:
// pretraining (6 N D FLOPs), RL on a fixed token budget, and serving a fixed inference demand
// (Sardana et al. 2024, Eq. 3 and its cost form; docs/model.md, Lifetime cost). Each phase is
// counted in FLOPs, accelerator-hours and dollars; a problem minimises one of the three.
//
// The model is dense in N: the same N trains, rolls out and serves. RL and inference are size
// costs (problems/lifetime/size_cost.hpp): linear in N, or a function of N such as the
// roofline's price, and the accelerators ask the model what it is (linear(), closed_form())
// rather than how it was built.

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "scaleopt/problems/lifetime/size_cost.hpp"

namespace scaleopt {

class ServingFleet;  // problems/lifetime/lifetime_cost_from_setup.hpp
struct FleetPlan;    // problems/serving/fleet_plan.hpp

struct PhaseCost {
  double flops = 0.0;
  double gpu_hours = 0.0;  // accelerator-hours (chip-hours for TPUs)
  double usd = 0.0;
};

struct LifetimeCost {
  PhaseCost pretrain, rl, inference;
  PhaseCost total() const;
};

enum class CostUnit { flops, gpu_hours, usd };
std::string_view to_string(CostUnit unit);

// cost(N, D) = per_param_token N D + per_param N, in one unit: the lifetime cost when every
// size cost is linear.
struct LinearCost {
  double per_param_token = 0.0;  // k
  double per_param = 0.0;        // c: RL on its tokens and inference, per parameter
};

struct LifetimeCostModel {
  // Pretraining: 6 N D FLOPs (docs/model.md, Training compute) at `pretrain_gpu_hours_per_flop`
  // = 1 / (3600 * peak FLOP/s * MFU) and `pretrain_usd_per_gpu_hour`.
  double pretrain_gpu_hours_per_flop = 0.0;
  double pretrain_usd_per_gpu_hour = 0.0;

  // RL on `rl_tokens` rollout tokens: k N D_RL FLOPs with k between 2 (rollouts only, not
  // trained on) and 6 (every rollout token trained on), docs/model.md, RL cost; the hours and
  // dollars of ONE rollout token at N mix decode efficiency (rollouts) and training efficiency
  // (updates).
  double rl_tokens = 0.0;
  double rl_flops_per_param_token = 0.0;
  SizeCostTerm rl_per_token;

  // Inference on a fixed demand: 2 N (T_in + T_out) FLOPs; the hours and dollars of the whole
  // demand at N (linear at fixed prefill/decode efficiencies as in Sardana et al., or priced
  // by the roofline, where the cost per token depends on N through the weights read per
  // decode step and the batch that fits).
  double inference_flops_per_param = 0.0;
  SizeCostTerm inference;

  // The largest model the setup can serve (e.g. whose weights fit the serving replica);
  // problems bound N by it.
  double max_params = std::numeric_limits<double>::infinity();
  // Serving priced by the roofline: the fleet at N (replica, batch, replicas), which the
  // inference cost is. `closed_form_lower_bound`: the closed form (at the largest replica, the
  // fleet sized for the peak) is only a lower bound of the fleet's cost, exact where no
  // replica's floor binds (a duration, not elastic): whoever uses it checks the fleet at the
  // answer (LifetimeCostModel::closed_form_exact_at).
  std::shared_ptr<const ServingFleet> fleet;
  bool closed_form_lower_bound = false;
  // One replica's chip-hours over the serving duration, which the fleet pays whatever the
  // demand: with a replica given, a duration and not elastic (0 otherwise). The fleet's
  // chip-hours are the larger of it and the closed form's (problems/serving/fleet_plan.hpp).
  double replica_floor_chip_hours = 0.0;
  // Whether the closed form equals the cost at N (always, unless closed_form_lower_bound).
  bool closed_form_exact_at(double params) const;
  // The same, given the fleet at N (fleet->plan_at(params)), for a caller that reports it too.
  bool closed_form_exact_given(double params, const FleetPlan& fleet_at_params) const;
  // The same bounds apart, for a problem that chooses the experts (the total then moves at a
  // fixed N_active): the largest N_total whose weights fit the replica (and meet a latency
  // target's memory side), and the largest N_active a latency target's compute side allows.
  // +infinity when nothing bounds them (fixed MFUs).
  double max_total_params = std::numeric_limits<double>::infinity();
  double max_active_params = std::numeric_limits<double>::infinity();
  // What sets max_params, for an infeasible question's message.
  std::string max_params_reason = "the serving replica's HBM; add chips per replica";

  LifetimeCost cost(double params, double pretrain_tokens) const;
  PhaseCost pretraining(double params, double pretrain_tokens) const;  // cost().pretrain alone

  // The cost in `unit` and its derivatives with respect to ln N and ln D.
  struct Total {
    double value;
    double d_log_params;
    double d_log_tokens;
  };
  Total total(CostUnit unit, double params, double pretrain_tokens) const;

  // The same for a mixture of experts of N_active active and N_total total parameters, with
  // the slope in ln N_active at a fixed N_total and in ln N_total at a fixed N_active (FLOPs
  // follow the active parameters, the weights the total). Throws std::logic_error for a size
  // cost that cannot price them apart (the caller checks prices_total first).
  struct SparseTotal {
    double value;
    double d_log_params;  // at a fixed N_total
    double d_log_tokens;
    double d_log_total_params;  // at a fixed N_active
  };
  SparseTotal total_at(CostUnit unit, double active_params, double total_params,
                       double pretrain_tokens) const;
  // The phases' costs of the same.
  LifetimeCost cost_at(double active_params, double total_params, double pretrain_tokens) const;
  // Whether RL and inference can be priced at a total apart from the active parameters.
  bool prices_total() const;

  // Capabilities. The linear form in `unit` when every size cost is linear and N is unbounded
  // (nullopt otherwise); the roofline's closed form of both size costs when they have one.
  std::optional<LinearCost> linear(CostUnit unit) const;
  const RooflinePricing* closed_form() const;

  // Throws InputError naming the first negative or non-finite coefficient.
  void validate() const;
};

// The plain FLOPs model of Sardana Eq. 3: 6 N D + 2 N T_inference (+ k N D_RL).
LifetimeCostModel flops_cost_model(double inference_tokens, double rl_tokens = 0.0,
                                   double rl_flops_per_param_token = 0.0);

// Cost of one rollout token with N parameters in `unit`.
double rl_cost_per_token(const LifetimeCostModel& model, CostUnit unit, double params);

// The same with its derivative in ln N (the RL returns problem chooses the tokens).
struct RlTokenCost {
  double value;
  double d_log_params;
};
RlTokenCost rl_token_cost(const LifetimeCostModel& model, CostUnit unit, double params);

// The cost of `cost` in `unit`.
double in_unit(CostUnit unit, const PhaseCost& cost);

}  // namespace scaleopt
