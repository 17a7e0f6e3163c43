#include "scaleopt/costmodel/price_list.hpp"

#include <cmath>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

std::string tier_field(std::string_view prefix, std::size_t index, std::string_view field) {
  std::ostringstream name;
  name << prefix << ".tier[" << index + 1 << "]." << field;
  return name.str();
}

}  // namespace

const PriceTier& PriceList::tier_for(double context_tokens) const {
  for (const PriceTier& tier : tiers) {
    if (context_tokens <= tier.max_context_tokens) return tier;
  }
  return tiers.back();  // validate() makes the last tier unbounded
}

void PriceList::validate(std::string_view prefix) const {
  if (tiers.empty()) {
    throw field_error(std::string(prefix) + ".tier",
                      "needs at least one [[" + std::string(prefix) + ".tier]]");
  }
  for (std::size_t i = 0; i < tiers.size(); ++i) validate_tier(prefix, i);
}

void PriceList::validate_tier(std::string_view prefix, std::size_t i) const {
  const PriceTier& tier = tiers.at(i);
  for (const auto& [field, value] : {std::pair{"usd_per_mtok_input", tier.usd_per_mtok_input},
                                     std::pair{"usd_per_mtok_output", tier.usd_per_mtok_output}}) {
    if (!(std::isfinite(value) && value >= 0.0)) {
      std::ostringstream message;
      message << "must be finite and >= 0, got " << value;
      throw field_error(tier_field(prefix, i, field), message.str());
    }
  }
  const bool last = i + 1 == tiers.size();
  if (last && std::isfinite(tier.max_context_tokens)) {
    throw field_error(tier_field(prefix, i, "max_context"),
                      "the last tier must be unbounded (leave max_context out): longer prompts "
                      "need a price too");
  }
  if (!last && !(std::isfinite(tier.max_context_tokens) && tier.max_context_tokens > 0.0)) {
    throw field_error(tier_field(prefix, i, "max_context"),
                      "required and positive for every tier but the last");
  }
  if (i > 0 && !(tier.max_context_tokens > tiers[i - 1].max_context_tokens)) {
    throw field_error(tier_field(prefix, i, "max_context"),
                      "tiers must ascend: each max_context above the previous one");
  }
}

}  // namespace scaleopt
