// What the pricing commands share in their output.

#include "scaleopt/report/pricing_output.hpp"
#include "scaleopt/report/json.hpp"

#include <cmath>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/json_number.hpp"

namespace scaleopt::report {

std::string usd_per_mtok_text(double usd_per_mtok) {
  return format_quantity(usd_per_mtok, Unit::usd, 3);
}

std::string duration_text(double seconds) {
  if (std::isfinite(seconds) && std::fabs(seconds) < 1.0 && seconds != 0.0) {
    return format_scientific(seconds * 1e3, 3) + "ms";
  }
  return format_quantity(seconds, Unit::seconds, 3);
}

Json price_list_json(const PriceList& prices) {
  Json tiers = Json::array();
  for (const PriceTier& tier : prices.tiers) {
    tiers.push_back({{"max_context", finite_or_null(tier.max_context_tokens)},
                     {"usd_per_mtok_input", tier.usd_per_mtok_input},
                     {"usd_per_mtok_output", tier.usd_per_mtok_output}});
  }
  return {{"name", prices.name}, {"source", prices.source}, {"tiers", tiers}};
}

std::string price_list_text(const PriceList& prices) {
  std::string text;
  for (std::size_t i = 0; i < prices.tiers.size(); ++i) {
    const PriceTier& tier = prices.tiers[i];
    text += i ? "; " : "";
    text += std::isfinite(tier.max_context_tokens)
                ? "<= " + format_exact_count(tier.max_context_tokens)
                : (i ? "above" : "any prompt");
    text += ": " + usd_per_mtok_text(tier.usd_per_mtok_input) + " in, " +
            usd_per_mtok_text(tier.usd_per_mtok_output) + " out";
  }
  return text;
}

std::string assumptions_text(const std::vector<std::string>& assumptions) {
  if (assumptions.empty()) return {};
  std::string text = "Assumptions (defaults not given):\n";
  for (const std::string& a : assumptions) text += "  " + a + "\n";
  return text;
}

}  // namespace scaleopt::report
