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

#include <toml++/toml.h>
#include <string>

#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

// Reads the table found at "uncertainty" of `file` for `scenario` (already read: the paths are
// checked against its numeric inputs and the chips it uses). Throws InputError
// "FILE:LINE: uncertainty.PATH...: what" for an unknown path or distribution, a missing or bad
// parameter (sigma < 0, lo >= hi), or law = "bootstrap" without an uncertainty to draw from.
UncertaintySpec read_uncertainty_table(const std::string& file, const toml::table& table,
                                       const Scenario& scenario);

// The law's uncertainty that law = "bootstrap" draws from: [law.uncertainty], else the
// preset's published one (epoch2024). Throws InputError when there is none.
LawUncertainty bootstrap_uncertainty(const LossLaw& law);

}  // namespace scaleopt
