#pragma once
// The [uncertainty] table of a scenario: distributions of numeric inputs for Monte Carlo
// (scaleopt uncertainty), keyed by the input's path, and law = "bootstrap" to draw the law's
// coefficients from their uncertainty:
//
//   [uncertainty]
//   law = "bootstrap"                      # [law.uncertainty], or epoch2024's published errors
//   "inference.rate" = { dist = "lognormal", median = "50M/s", sigma = 0.5 }
//   training.mfu = { dist = "uniform", lo = 0.35, hi = 0.45 }
//   inference.decode_mfu = { dist = "normal", mean = 0.13, sd = 0.02 }
//   hardware.h100-sxm.usd_per_hour = { dist = "lognormal", median = "$2/h", sigma = 0.3 }
//
// Paths are those of numeric inputs (docs/scenario.md); quoted or dotted keys alike. Values are
// in the input's unit (sigma of a lognormal is the standard deviation of ln x, a number).

#include <string>

#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

// The law's uncertainty that law = "bootstrap" draws from: [law.uncertainty], else the
// preset's published one (epoch2024). Throws InputError when there is none.
LawUncertainty bootstrap_uncertainty(const LossLaw& law);

}  // namespace scaleopt
