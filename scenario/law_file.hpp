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
// Without a preset all five coefficients are required. In a scenario, `file = "fitted.toml"`
// instead of a preset reads the [law] of that file (relative to the scenario's directory);
// the coefficients beside it override it, as they do a preset.

#include <optional>
#include <string>

#include "scaleopt/costmodel/loss_law.hpp"

namespace scaleopt {

// Where a scenario's law may come from besides its own [law] table.
struct LawSource {
  // --law-file: a TOML file whose [law] replaces the scenario's (the loader drops the
  // scenario's [law] before --set, so --set law.* applies on top of this file). Empty: none.
  std::string law_file;
  // Whether the scenario may name a file (law.file). A scenario from a stranger (posted over
  // the network) must be read with false: it could otherwise read any file of the server.
  bool files_allowed = true;
};

// Reads the [law] table of a TOML file (a scenario or an emitted law); errors opening or reading
// it name `flag` when given.
LossLaw read_law_file(const std::string& path, std::string_view flag = {});

// `named` (law.file) relative to the directory of `scenario_file`; an absolute path as it is.
std::string law_file_path(const std::string& scenario_file, const std::string& named);

// The [law] (and [law.uncertainty]) block for `law`, with 17 significant digits so that
// reading it back gives the same doubles.
std::string law_to_toml(const LossLaw& law);

}  // namespace scaleopt
