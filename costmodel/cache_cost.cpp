#include "scaleopt/costmodel/cache_cost.hpp"

namespace scaleopt {

CacheOption storage_option(const CacheTier& tier, double bytes_per_token) {
  CacheOption option;
  option.id = tier.id;
  option.name = tier.name;
  option.capacity_bytes = tier.capacity_bytes;
  option.bytes_per_second = tier.bytes_per_second;
  option.hold_usd_per_token_second = bytes_per_token * tier.usd_per_byte_second;
  option.retrieval_usd_per_token = bytes_per_token * tier.usd_per_second() / tier.bytes_per_second;
  return option;
}

CacheOption recompute_option(double prefill_usd_per_token) {
  CacheOption option;
  option.id = "recompute";
  option.name = "Recompute (prefill the prompt again)";
  option.retrieval_usd_per_token = prefill_usd_per_token;
  return option;
}

CacheTier hbm_tier(const Roofline& roofline, std::string source) {
  CacheTier tier;
  tier.id = "hbm";
  tier.name = "HBM of the serving replica";
  tier.source = std::move(source);
  tier.price_note = "the replica's price per chip-hour, spread over its HBM";
  tier.capacity_bytes = roofline.hbm_bytes;
  tier.bytes_per_second = roofline.bytes_per_second;
  tier.usd_per_byte_second = roofline.usd_per_second() / roofline.hbm_bytes;
  return tier;
}

}  // namespace scaleopt
