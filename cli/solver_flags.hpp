#pragma once
// Flags that tune the NLopt front end (group "Solver" in --help).

#include <CLI/CLI.hpp>

#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt::cli {

void add_solver_flags(CLI::App& command, SolverOptions& options);

}  // namespace scaleopt::cli
