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

struct RooflinePricing;  // problems/lifecycle/accelerators/roofline_pricing.hpp

// A cost of N that is not proportional to N.
class SizeCostFunction {
 public:
  virtual ~SizeCostFunction() = default;
  virtual SizeCost at(double params) const = 0;
  // The same cost in closed form, when one exists (null otherwise): the fast path's.
  virtual const RooflinePricing* closed_form() const { return nullptr; }
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
