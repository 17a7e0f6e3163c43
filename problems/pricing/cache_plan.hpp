#pragma once
// The cheapest place to keep a prompt's KV cache for a hold time, and the hold times at which
// the cheapest place changes (docs/pricing.md, "Cache tiers").
//
// Each option's cost per cached token is a function of the hold time T (costmodel/cache_cost:
// linear, rent x T + retrieval). Walking up from the shortest hold, the cheapest option stays
// cheapest until another one's cost crosses below it; each crossing is the root of
// ln(cost_j(T) / cost_i(T)) in ln T, found by TOMS 748 (solver/root_find.hpp), and checked
// against the closed form of two crossing lines, T = (retrieval_j - retrieval_i) /
// (rent_i - rent_j). A crossing that disagrees with it makes the plan not_converged.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/cache_cost.hpp"
#include "scaleopt/solver/status.hpp"

namespace scaleopt {

struct CachePlanOptions {
  double min_hold_seconds = 1e-3;  // 1 ms: shorter holds are a decode step, not a cache
  double max_hold_seconds = 10.0 * 365.25 * 86400.0;  // 10 years: no cache lives longer
  // Largest relative difference allowed between a crossing found by root finding and the
  // closed form (both are double-precision evaluations of one exact value).
  double closed_form_tolerance = 1e-9;

  // Throws InputError naming the field ("--min-hold: ...") with `prefix`.
  void validate(std::string_view prefix) const;
};

// Where the cheapest option changes from `from` to `to` (indices into the options).
struct CacheSwitch {
  double hold_seconds = 0.0;              // found by root finding
  double closed_form_hold_seconds = 0.0;  // the crossing of the two lines, for the check
  std::size_t from = 0;
  std::size_t to = 0;
};

struct CachePlan {
  Status status = Status::not_converged;  // converged: every crossing found and verified
  std::string message;
  double hold_seconds = 0.0;
  double prompt_bytes = 0.0;
  std::vector<bool> fits;             // per option: the prompt fits its capacity
  std::size_t cheapest = 0;           // at hold_seconds, among the options that fit
  std::vector<CacheSwitch> switches;  // ascending hold times, within the options' bounds
};

// Throws InputError (fields named with `prefix`: "--hold", "--context") when the hold is
// outside the bounds or no option can hold the prompt's `prompt_bytes`.
CachePlan plan_cache(std::span<const CacheOption> options, double hold_seconds, double prompt_bytes,
                     std::string_view prefix, const CachePlanOptions& plan_options = {});

}  // namespace scaleopt
