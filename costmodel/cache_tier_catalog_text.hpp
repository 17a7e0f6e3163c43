#pragma once
// The text of costmodel/data/cache_tiers.toml, embedded at build time like the hardware
// catalog (costmodel/hardware_catalog_text.hpp). The CLI parses it
// (scenario/cache_tier_catalog.hpp).

#include <string_view>

namespace scaleopt {

std::string_view cache_tier_catalog_toml();

}  // namespace scaleopt
