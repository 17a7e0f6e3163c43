#pragma once
// A cost that depends on the model size N alone: RL rollouts per token, and serving the whole
// inference demand. One interface for every way of pricing it, so that the problems and the
// accelerators ask what a cost can do (capability queries) instead of inspecting how it was
// built:
//
//  - linear in N (FLOPs at fixed MFUs, Sardana et al. 2024): hours = rate N, held inline;
//  - a function of N (inference priced by the roofline: the weights read per decode step and
//    the batch that fits beside them depend on N), optionally with the same cost in closed form
//    for the fast path (problems/lifecycle/accelerators/roofline_pricing.hpp).

#include <memory>
#include <optional>

namespace scaleopt {

// Accelerator-hours and dollars at N with their derivatives in ln N.
struct SizeCost {
  double gpu_hours = 0.0;
  double usd = 0.0;
  double d_gpu_hours_d_log_params = 0.0;
  double d_usd_d_log_params = 0.0;
};

// A cost proportional to N: `gpu_hours_per_param` hours per parameter at `usd_per_gpu_hour`.
struct LinearRate {
  double gpu_hours_per_param = 0.0;
  double usd_per_gpu_hour = 0.0;
};

// A size cost of a mixture of experts whose expert count the problem chooses: at N_active
// active and N_total total parameters, its slopes in ln N_active at a fixed N_total (the FLOPs
// alone) and in ln N_total at a fixed N_active (the weights alone). Along a scaled model
// (N_total / N_active fixed) the two add up to SizeCost's slopes.
struct SparseSizeCost {
  double gpu_hours = 0.0;
  double usd = 0.0;
  double d_gpu_hours_d_log_active = 0.0;
  double d_usd_d_log_active = 0.0;
  double d_gpu_hours_d_log_total = 0.0;
  double d_usd_d_log_total = 0.0;
};

struct RooflinePricing;  // problems/lifecycle/accelerators/roofline_pricing.hpp

// A cost of N that is not proportional to N.
class SizeCostFunction {
 public:
  virtual ~SizeCostFunction() = default;
  virtual SizeCost at(double params) const = 0;
  // The same cost in closed form, when one exists (null otherwise): the fast path's.
  virtual const RooflinePricing* closed_form() const { return nullptr; }
  // Whether at_total prices N_active and N_total apart.
  virtual bool prices_total() const { return false; }
  // The cost at N_active with N_total given, for a cost that prices them apart (nullopt
  // otherwise: the experts cannot then be chosen).
  virtual std::optional<SparseSizeCost> at_total(double /*active_params*/,
                                                 double /*total_params*/) const {
    return std::nullopt;
  }
};

// A size cost by value: zero, linear (no allocation: sweeps build one per point) or a shared
// function of N.
class SizeCostTerm {
 public:
  SizeCostTerm() = default;  // zero
  static SizeCostTerm linear(double gpu_hours_per_param, double usd_per_gpu_hour) {
    SizeCostTerm term;
    term.rate_ = {gpu_hours_per_param, usd_per_gpu_hour};
    return term;
  }
  static SizeCostTerm of(std::shared_ptr<const SizeCostFunction> function) {
    SizeCostTerm term;
    term.function_ = std::move(function);
    return term;
  }

  SizeCost at(double params) const {
    if (function_) return function_->at(params);
    const double hours = rate_.gpu_hours_per_param * params;
    const double usd = hours * rate_.usd_per_gpu_hour;
    return {hours, usd, hours, usd};  // linear: each slope in ln N equals the value
  }

  // At N_active and N_total: a linear cost is 2 N_active FLOPs per token at fixed MFUs, which
  // the total does not enter; a function of N prices them apart when it can (else nullopt).
  bool prices_total() const { return !function_ || function_->prices_total(); }
  std::optional<SparseSizeCost> at_total(double active_params, double total_params) const {
    if (function_) return function_->at_total(active_params, total_params);
    const SizeCost cost = at(active_params);
    return SparseSizeCost{cost.gpu_hours,          cost.usd, cost.d_gpu_hours_d_log_params,
                          cost.d_usd_d_log_params, 0.0,      0.0};
  }

  // The rate when the cost is proportional to N, else nullopt.
  std::optional<LinearRate> linear_rate() const {
    if (function_) return std::nullopt;
    return rate_;
  }
  // The closed form of a function of N that has one, else null.
  const RooflinePricing* closed_form() const {
    return function_ ? function_->closed_form() : nullptr;
  }
  // A linear cost with its hours divided by `divisor` (the RL reduction's D_eff problem). Only
  // for a linear cost: the caller checks linear_rate() first.
  SizeCostTerm hours_divided_by(double divisor) const {
    SizeCostTerm term = *this;
    term.rate_.gpu_hours_per_param /= divisor;
    return term;
  }

 private:
  LinearRate rate_;
  std::shared_ptr<const SizeCostFunction> function_;
};

}  // namespace scaleopt
