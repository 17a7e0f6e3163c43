#include "scaleopt/scenario/price_list_file.hpp"

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/toml_reading.hpp"

namespace scaleopt {

PriceList read_price_list(const std::string& file, const toml::table& table,
                          const std::string& key) {
  reject_unknown_keys(file, table, key, {"name", "source", "tier"});
  PriceList prices;
  if (const toml::node* name = table.get("name")) {
    prices.name = read_string(file, *name, key + ".name");
  }
  if (const toml::node* source = table.get("source")) {
    prices.source = read_string(file, *source, key + ".source");
  }
  const std::string tier_key = key + ".tier";
  const toml::node* tiers = table.get("tier");
  if (!tiers) fail_at(file, table, key, "needs at least one [[" + tier_key + "]]");
  const toml::array* array = tiers->as_array();
  if (!array || array->empty()) {
    fail_at(file, *tiers, tier_key, "expected [[" + tier_key + "]] tables");
  }
  for (std::size_t i = 0; i < array->size(); ++i) {
    const std::string item_key = tier_key + "[" + std::to_string(i + 1) + "]";
    const toml::table& item = read_table(file, (*array)[i], item_key);
    reject_unknown_keys(file, item, item_key,
                        {"max_context", "usd_per_mtok_input", "usd_per_mtok_output"});
    PriceTier tier;
    if (const toml::node* bound = item.get("max_context")) {
      tier.max_context_tokens = read_quantity(file, *bound, item_key + ".max_context", Unit::count);
    }
    for (const auto& [field, target] :
         {std::pair{"usd_per_mtok_input", &tier.usd_per_mtok_input},
          std::pair{"usd_per_mtok_output", &tier.usd_per_mtok_output}}) {
      const toml::node* price = item.get(field);
      if (!price) fail_at(file, item, item_key, std::string("missing ") + field);
      *target = read_quantity(file, *price, item_key + "." + field, Unit::usd);
    }
    prices.tiers.push_back(tier);
  }
  for (std::size_t i = 0; i < prices.tiers.size(); ++i) {
    try {
      prices.validate_tier(key, i);
    } catch (const InputError& e) {
      throw InputError(location(file, (*array)[i]) + ": " + e.what());  // e names the field
    }
  }
  return prices;
}

}  // namespace scaleopt
