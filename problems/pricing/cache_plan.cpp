#include "scaleopt/problems/pricing/cache_plan.hpp"

#include <cmath>
#include <optional>
#include <sstream>

#include "scaleopt/costmodel/field_name.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/solver/root_find.hpp"

namespace scaleopt {
namespace {

// The cheapest option at `hold` among those that fit; on a tie, the one with the lower rent,
// which stays cheaper for longer holds.
std::size_t cheapest_at(std::span<const CacheOption> options, const std::vector<bool>& fits,
                        double hold) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (!fits[i]) continue;
    if (!best) {
      best = i;
      continue;
    }
    const double cost = options[i].usd_per_token(hold);
    const double best_cost = options[*best].usd_per_token(hold);
    if (cost < best_cost || (cost == best_cost && options[i].hold_usd_per_token_second <
                                                      options[*best].hold_usd_per_token_second)) {
      best = i;
    }
  }
  return *best;
}

double closed_form_crossing(const CacheOption& from, const CacheOption& to) {
  return (to.retrieval_usd_per_token - from.retrieval_usd_per_token) /
         (from.hold_usd_per_token_second - to.hold_usd_per_token_second);
}

}  // namespace

void CachePlanOptions::validate(std::string_view prefix) const {
  if (!(min_hold_seconds > 0.0 && std::isfinite(max_hold_seconds) &&
        max_hold_seconds > min_hold_seconds)) {
    throw field_error(qualified_field(prefix, "min_hold"),
                      "the hold bounds must satisfy 0 < min_hold < max_hold < infinity");
  }
  if (!(closed_form_tolerance > 0.0)) {
    throw field_error(qualified_field(prefix, "closed_form_tolerance"), "must be positive");
  }
}

CachePlan plan_cache(std::span<const CacheOption> options, double hold_seconds, double prompt_bytes,
                     std::string_view prefix, const CachePlanOptions& plan_options) {
  plan_options.validate(prefix);
  if (!(hold_seconds >= plan_options.min_hold_seconds &&
        hold_seconds <= plan_options.max_hold_seconds)) {
    std::ostringstream message;
    message << "must be between " << format_quantity(plan_options.min_hold_seconds, Unit::seconds)
            << " and " << format_quantity(plan_options.max_hold_seconds, Unit::seconds) << ", got "
            << hold_seconds << " s";
    throw field_error(qualified_field(prefix, "hold"), message.str());
  }
  CachePlan plan;
  plan.hold_seconds = hold_seconds;
  plan.prompt_bytes = prompt_bytes;
  bool any = false;
  for (const CacheOption& option : options) {
    plan.fits.push_back(prompt_bytes <= option.capacity_bytes);
    any = any || plan.fits.back();
  }
  if (!any) {
    throw field_error(
        qualified_field(prefix, "context"),
        "the prompt's cache (" + format_quantity(prompt_bytes, Unit::bytes) + ") fits no tier");
  }
  plan.cheapest = cheapest_at(options, plan.fits, hold_seconds);

  // Walk the lower envelope from the shortest hold: the next switch is the earliest crossing
  // below the current option's cost.
  const double log_max = std::log(plan_options.max_hold_seconds);
  double log_hold = std::log(plan_options.min_hold_seconds);
  std::size_t current = cheapest_at(options, plan.fits, plan_options.min_hold_seconds);
  std::string failure;
  for (std::size_t step = 0; step < options.size() && failure.empty(); ++step) {
    std::optional<CacheSwitch> next;
    for (std::size_t j = 0; j < options.size(); ++j) {
      if (j == current || !plan.fits[j]) continue;
      auto log_ratio = [&](double x) {
        const double hold = std::exp(x);
        return std::log(options[j].usd_per_token(hold) / options[current].usd_per_token(hold));
      };
      // Only an option at least as dear at the current hold can cross below (a negative
      // value here is rounding at the switch just made).
      if (log_ratio(log_hold) < 0.0) continue;
      const RootResult root = find_root_in_bracket(log_ratio, log_hold, log_max);
      if (root.status == Status::infeasible) continue;  // never crosses below within the bounds
      if (root.status != Status::converged) {
        failure = options[current].id + " / " + options[j].id + ": " + root.message;
        break;
      }
      if (root.x <= log_hold) continue;  // a tie at the current switch, resolved by rent
      const double hold = std::exp(root.x);
      const bool earlier = !next || hold < next->hold_seconds;
      const bool tie_with_lower_rent =
          next && hold == next->hold_seconds &&
          options[j].hold_usd_per_token_second < options[next->to].hold_usd_per_token_second;
      if (earlier || tie_with_lower_rent) {
        next = CacheSwitch{hold, closed_form_crossing(options[current], options[j]), current, j};
      }
    }
    if (!next) break;
    const double difference = std::abs(next->hold_seconds - next->closed_form_hold_seconds) /
                              next->closed_form_hold_seconds;
    if (!(difference <= plan_options.closed_form_tolerance)) {
      std::ostringstream message;
      message << options[next->from].id << " / " << options[next->to].id << ": root "
              << next->hold_seconds << " s differs from the closed form "
              << next->closed_form_hold_seconds << " s by " << difference << " (relative)";
      failure = message.str();
    }
    plan.switches.push_back(*next);
    log_hold = std::log(next->hold_seconds);
    current = next->to;
  }
  if (failure.empty()) {
    plan.status = Status::converged;
    plan.message = "crossings by TOMS 748 on ln T, each within " +
                   format_scientific(plan_options.closed_form_tolerance, 2) + " of the closed form";
  } else {
    plan.status = Status::not_converged;
    plan.message = "cache-tier crossing not verified: " + failure;
  }
  return plan;
}

}  // namespace scaleopt
