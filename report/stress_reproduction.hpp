#pragma once
// How `scaleopt selftest` shows an instance that failed: a scenario file (`scaleopt solve` runs
// it) for the lifecycle classes, or a `scaleopt optimal` command line for the compute-optimal
// ones. Numbers are written with 17 significant digits, so the file reproduces the instance
// exactly.

#include <string>

#include "scaleopt/analysis/stress_instance.hpp"

namespace scaleopt::report {

std::string stress_reproduction(const StressInstance& instance);

}  // namespace scaleopt::report
