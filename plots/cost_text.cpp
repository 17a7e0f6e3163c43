#include "scaleopt/plots/cost_text.hpp"

#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt::plots {

std::string cost_tic(double value, CostUnit unit) {
  switch (unit) {
    case CostUnit::usd:
      return format_quantity(value, Unit::usd);
    case CostUnit::gpu_hours:
      return format_quantity(value, Unit::count);
    case CostUnit::flops:
      return format_scientific(value, 3);
  }
  return format_scientific(value, 3);
}

std::string cost_label(double value, CostUnit unit) {
  switch (unit) {
    case CostUnit::usd:
      return cost_tic(value, unit);
    case CostUnit::gpu_hours:
      return cost_tic(value, unit) + " GPU-h";
    case CostUnit::flops:
      return cost_tic(value, unit) + " FLOPs";
  }
  return cost_tic(value, unit);
}

std::string cost_axis_label(CostUnit unit) {
  switch (unit) {
    case CostUnit::usd:
      return "lifetime cost (USD)";
    case CostUnit::gpu_hours:
      return "lifetime accelerator-hours (GPU-h)";
    case CostUnit::flops:
      return "lifetime compute (FLOPs)";
  }
  return "lifetime cost";
}

}  // namespace scaleopt::plots
