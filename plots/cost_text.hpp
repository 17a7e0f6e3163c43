#pragma once
// How a lifetime cost prints on a figure, in the unit the problem minimised.

#include <string>

#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt::plots {

// "$631M", "2.13e26 FLOPs", "315M GPU-h".
std::string cost_label(double value, CostUnit unit);

// "$631M", "2.13e26", "315M": the same without the unit word, for axis tics.
std::string cost_tic(double value, CostUnit unit);

// "lifetime cost (USD)", "lifetime compute (FLOPs)", "lifetime accelerator-hours".
std::string cost_axis_label(CostUnit unit);

}  // namespace scaleopt::plots
