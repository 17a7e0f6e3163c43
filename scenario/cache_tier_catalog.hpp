#pragma once
// The KV-cache tier catalog as the CLI reads it: costmodel/data/cache_tiers.toml, embedded in
// the binary, one table per tier (keys: name, source, capacity, bandwidth, usd_per_gib_hour or
// usd_per_gib_month, price_note). Errors give file:line and key.

#include <string>
#include <vector>

#include "scaleopt/costmodel/cache_tier.hpp"

namespace scaleopt {

// Cloud storage is billed per GiB, and Google Cloud's monthly prices assume 730 hours.
inline constexpr double kBytesPerGib = 1073741824.0;
inline constexpr double kHoursPerBillingMonth = 730.0;

// The built-in catalog, parsed from the embedded text (throws only if that text is broken).
std::vector<CacheTier> builtin_cache_tiers();

}  // namespace scaleopt
