#pragma once
// The text of costmodel/data/training_runs.toml, embedded at build time as the hardware
// catalog is (costmodel/hardware_catalog_text.hpp); parsed by scenario/training_run_catalog.

#include <string_view>

namespace scaleopt {

std::string_view training_runs_catalog_toml();

}  // namespace scaleopt
