#pragma once
// What it costs to have a prompt's KV cache again after holding it for T seconds, per cached
// token, for each place it can wait (Pope on Dwarkesh 2026; docs/pricing.md):
//
//   storage tier:  usd(T) = b r T + b r D     b bytes per token, r rent per byte-second,
//                                             D = capacity / bandwidth, the drain time
//   recompute:     usd(T) = prefill cost of one token (nothing held but the token ids)
//
// The second term of a tier is its retrieval: streaming b bytes keeps the whole unit busy for
// b / bandwidth seconds, at the unit's rent (capacity x r) per second. Every cost is linear
// in T; the cheapest place switches where two of these lines cross
// (problems/pricing/cache_plan.hpp).

#include <limits>
#include <string>

#include "scaleopt/costmodel/cache_tier.hpp"
#include "scaleopt/costmodel/roofline.hpp"

namespace scaleopt {

struct CacheOption {
  std::string id;
  std::string name;
  double capacity_bytes = std::numeric_limits<double>::infinity();    // recompute: no limit
  double bytes_per_second = std::numeric_limits<double>::infinity();  // recompute: none
  double hold_usd_per_token_second = 0.0;  // rent of one token's bytes per second held
  double retrieval_usd_per_token = 0.0;    // reading them back once (or recomputing them)

  double hold_usd_per_token(double hold_seconds) const {
    return hold_usd_per_token_second * hold_seconds;
  }
  double usd_per_token(double hold_seconds) const {
    return hold_usd_per_token(hold_seconds) + retrieval_usd_per_token;
  }
};

// Keeping `bytes_per_token` in `tier`.
CacheOption storage_option(const CacheTier& tier, double bytes_per_token);

// Prefilling the token again, at `prefill_usd_per_token`.
CacheOption recompute_option(double prefill_usd_per_token);

// The replica's own HBM as a tier: its capacity and bandwidth, rented with the chips (the
// replica's price per second spread over its HBM bytes: a byte of KV kept in HBM is a byte
// the batch cannot use, and at long context HBM is what limits the batch).
CacheTier hbm_tier(const Roofline& roofline, std::string source);

}  // namespace scaleopt
