#include "scaleopt/scenario/cache_tier_catalog.hpp"

#include "scaleopt/costmodel/cache_tier_catalog_text.hpp"
#include "scaleopt/costmodel/compute_cost.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/toml_tables.hpp"

namespace scaleopt {
namespace {

CacheTier read_tier(const std::string& file, const toml::table& table, const std::string& id) {
  reject_unknown_keys(file, table, id,
                      {"name", "source", "capacity", "bandwidth", "usd_per_gib_hour",
                       "usd_per_gib_month", "price_note"});
  auto required = [&](std::string_view key) -> const toml::node& {
    const toml::node* node = table.get(key);
    if (!node) fail_at(file, table, id, "missing " + std::string(key));
    return *node;
  };
  CacheTier tier;
  tier.id = id;
  tier.name = read_string(file, required("name"), join_key(id, "name"));
  tier.source = read_string(file, required("source"), join_key(id, "source"));
  tier.price_note = read_string(file, required("price_note"), join_key(id, "price_note"));
  tier.capacity_bytes =
      read_quantity(file, required("capacity"), join_key(id, "capacity"), Unit::bytes);
  tier.bytes_per_second =
      read_quantity(file, required("bandwidth"), join_key(id, "bandwidth"), Unit::bytes_per_second);
  const toml::node* hourly = table.get("usd_per_gib_hour");
  const toml::node* monthly = table.get("usd_per_gib_month");
  if ((hourly == nullptr) == (monthly == nullptr)) {
    fail_at(file, table, id, "give exactly one of usd_per_gib_hour and usd_per_gib_month");
  }
  const double usd_per_gib_hour =
      hourly ? read_quantity(file, *hourly, join_key(id, "usd_per_gib_hour"), Unit::number)
             : read_quantity(file, *monthly, join_key(id, "usd_per_gib_month"), Unit::number) /
                   kHoursPerBillingMonth;
  tier.usd_per_byte_second = usd_per_gib_hour / kBytesPerGib / kSecondsPerHour;
  try {
    tier.validate(id);
  } catch (const InputError& e) {
    throw InputError(location(file, table) + ": " + e.what());  // e names the field
  }
  return tier;
}

}  // namespace

std::vector<CacheTier> read_cache_tiers(const TomlDocument& document) {
  std::vector<CacheTier> ordered;
  for (const auto& [key, node] : entries_in_file_order(document.table)) {
    ordered.push_back(read_tier(document.file, read_table(document.file, *node, key), key));
  }
  return ordered;
}

std::vector<CacheTier> builtin_cache_tiers() {
  return read_cache_tiers(
      parse_toml_text(cache_tier_catalog_toml(), "costmodel/data/cache_tiers.toml"));
}

}  // namespace scaleopt
