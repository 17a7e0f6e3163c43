#pragma once
// The [law] table shared by scenario files and `scaleopt fit --emit-law`:
//
//   [law]
//   preset = "epoch2024"        # optional starting point; coefficients below override it
//   name = "my-fit"             # optional
//   source = "..."              # optional
//   E = 1.8172
//   A = 482.01
//   B = 2085.43
//   alpha = 0.3478
//   beta = 0.3658
//
//   [law.uncertainty]           # optional, e.g. from a bootstrap
//   standard_errors = { E = 0.03, A = 124.6, B = 1293.2, alpha = 0.02, beta = 0.02 }
//   covariance = [[...5 numbers...], ...5 rows...]   # optional, order E, A, B, alpha, beta
//
// Without a preset all five coefficients are required.

#include <string>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

// Reads the [law] table of a TOML file (a scenario or an emitted law); errors opening or reading
// it name `flag` when given.
LossLaw read_law_file(const std::string& path, std::string_view flag = {});

// The [law] (and [law.uncertainty]) block for `law`, with 17 significant digits so that
// reading it back gives the same doubles.
std::string law_to_toml(const LossLaw& law);

}  // namespace scaleopt
