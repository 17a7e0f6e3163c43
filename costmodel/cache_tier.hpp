#pragma once
// Where a prompt's KV cache can wait between requests: a storage tier of some capacity, read
// back at some bandwidth, rented at some price per byte and second (Pope on Dwarkesh 2026:
// "each tier earns its place when its drain time matches how long the data must stay").
// The built-in tiers beyond the accelerator (host DRAM, flash, disk) are data,
// costmodel/data/cache_tiers.toml (text in cache_tier_catalog_text.hpp, parsed by the CLI);
// HBM and recomputation come from the serving replica (problems/pricing/cache_plan.hpp).

#include <string>
#include <string_view>

namespace scaleopt {

struct CacheTier {
  std::string id;                    // "host-dram"
  std::string name;                  // "Host DRAM (DDR5), per accelerator"
  std::string source;                // datasheets of the capacity and bandwidth, quoting them
  std::string price_note;            // where the price comes from: always an assumption
  double capacity_bytes = 0.0;       // per unit (one accelerator's share)
  double bytes_per_second = 0.0;     // read bandwidth from the tier into the accelerator
  double usd_per_byte_second = 0.0;  // rent of one byte of capacity for one second

  // Time to read the whole tier at its bandwidth: capacity / bandwidth.
  double drain_seconds() const { return capacity_bytes / bytes_per_second; }
  // Rent of the whole unit per second: capacity x usd_per_byte_second.
  double usd_per_second() const { return capacity_bytes * usd_per_byte_second; }

  // Throws InputError naming the first bad field ("cache_tiers.flash.bandwidth: ...").
  void validate(std::string_view prefix) const;
};

}  // namespace scaleopt
