#pragma once
// The text of costmodel/data/hardware.toml, embedded at build time (CMake writes it into a
// generated source as a raw string literal), so that the executable works from any directory.
// The CLI parses it (scenario/hardware_catalog.hpp); nothing here reads files.

#include <string_view>

namespace scaleopt {

std::string_view hardware_catalog_toml();

}  // namespace scaleopt
