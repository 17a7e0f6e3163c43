#include "scaleopt/scenario/hardware_catalog.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "scaleopt/costmodel/hardware_catalog_text.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/toml_reading.hpp"
#include "scaleopt/scenario/toml_tables.hpp"

namespace scaleopt {
namespace {

const std::array<HardwareField, 13> kFields{{
    {"name",
     KeyKind::text,
     Unit::number,
     {},
     "Display name of the chip",
     nullptr,
     nullptr,
     [](Hardware& h, const std::string& v) { h.name = v; }},
    {"source",
     KeyKind::text,
     Unit::number,
     {},
     "Datasheet name and URL the figures come from, quoting them as printed",
     nullptr,
     nullptr,
     [](Hardware& h, const std::string& v) { h.source = v; }},
    {"bf16", KeyKind::number, Unit::flop_per_second, kPositive,
     "Dense bf16 peak FLOP/s per chip (no 2:4 sparsity)",
     [](const Hardware& h) { return h.bf16_flop_per_second; },
     [](Hardware& h, double v) { h.bf16_flop_per_second = v; }, nullptr},
    {"fp8", KeyKind::number, Unit::flop_per_second, kPositive,
     "Dense fp8 peak FLOP/s per chip, if the chip has fp8",
     [](const Hardware& h) { return h.fp8_flop_per_second; },
     [](Hardware& h, double v) { h.fp8_flop_per_second = v; }, nullptr},
    {"int8", KeyKind::number, Unit::flop_per_second, kPositive,
     "Dense int8 peak OP/s per chip, if the chip has int8",
     [](const Hardware& h) { return h.int8_op_per_second; },
     [](Hardware& h, double v) { h.int8_op_per_second = v; }, nullptr},
    {"hbm_bandwidth", KeyKind::number, Unit::bytes_per_second, kPositive,
     "Peak HBM bandwidth per chip",
     [](const Hardware& h) { return std::optional<double>(h.hbm_bytes_per_second); },
     [](Hardware& h, double v) { h.hbm_bytes_per_second = v; }, nullptr},
    {"hbm", KeyKind::number, Unit::bytes, kPositive, "HBM capacity per chip",
     [](const Hardware& h) { return std::optional<double>(h.hbm_bytes); },
     [](Hardware& h, double v) { h.hbm_bytes = v; }, nullptr},
    {"node_chips", KeyKind::number, Unit::count, kAtLeastOne,
     "Chips per node; default replicas are whole nodes (8 when not given)",
     [](const Hardware& h) { return std::optional<double>(h.node_chips); },
     [](Hardware& h, double v) { h.node_chips = v; }, nullptr},
    {"usd_per_hour", KeyKind::number, Unit::usd_per_hour, kNonNegative,
     "Rental price per chip-hour: an assumption, printed as such",
     [](const Hardware& h) { return h.usd_per_hour; },
     [](Hardware& h, double v) { h.usd_per_hour = v; }, nullptr},
    {"price_note",
     KeyKind::text,
     Unit::number,
     {},
     "Whose assumption the price is",
     nullptr,
     nullptr,
     [](Hardware& h, const std::string& v) { h.price_note = v; }},
    {"tdp", KeyKind::number, Unit::watts, kPositive,
     "Thermal design power of one chip, as the vendor sheet prints it (`700W`)",
     [](const Hardware& h) { return h.tdp_watts; }, [](Hardware& h, double v) { h.tdp_watts = v; },
     nullptr},
    {"power_source",
     KeyKind::text,
     Unit::number,
     {},
     "Datasheet the tdp comes from",
     nullptr,
     nullptr,
     [](Hardware& h, const std::string& v) { h.power_source = v; }},
    {"power_unknown",
     KeyKind::text,
     Unit::number,
     {},
     "Why a chip has no tdp (no published figure): reported where its power is asked for",
     nullptr,
     nullptr,
     [](Hardware& h, const std::string& v) { h.power_unknown = v; }},
}};

std::vector<std::string_view> field_keys() {
  std::vector<std::string_view> keys;
  for (const HardwareField& field : kFields) keys.push_back(field.key);
  return keys;
}

}  // namespace

std::span<const HardwareField> hardware_fields() {
  return kFields;
}

const HardwareField* find_hardware_field(std::string_view key) {
  for (const HardwareField& field : kFields) {
    if (field.key == key) return &field;
  }
  return nullptr;
}

Hardware read_hardware_table(const std::string& file, const toml::table& table,
                             const std::string& key, const std::string& id,
                             const std::optional<Hardware>& base) {
  reject_unknown_keys(file, table, key, field_keys());
  Hardware chip = base.value_or(Hardware{});
  chip.id = id;
  for (const HardwareField& field : kFields) {
    const toml::node* node = table.get(field.key);
    if (!node) continue;
    const std::string path = join_key(key, field.key);
    if (field.kind == KeyKind::text) {
      field.set_text(chip, read_string(file, *node, path));
      continue;
    }
    const double value = read_quantity(file, *node, path, field.unit);
    if (!field.range.contains(value)) fail_at(file, *node, path, field.range.refusal(value, path));
    field.set(chip, value);
  }
  if (!base) {
    if (chip.name.empty()) chip.name = id;
    if (chip.source.empty()) chip.source = "defined in " + file;
    for (const char* required : {"hbm_bandwidth", "hbm"}) {
      if (!table.get(required)) {
        fail_at(file, table, key,
                std::string("missing ") + required + " (a new chip needs a peak rate, " +
                    "hbm_bandwidth and hbm)");
      }
    }
  }
  if (table.get("tdp")) {
    chip.power_unknown.clear();  // a figure given replaces the reason there was none
    if (!table.get("power_source")) chip.power_source = "given in " + file;
  }
  if (table.get("usd_per_hour") && !table.get("price_note")) {
    chip.price_note = "assumption from " + file;  // a new price replaces the catalog's note
  }
  try {
    chip.validate(key);
  } catch (const InputError& e) {
    throw InputError(location(file, table) + ": " + e.what());  // e names the field
  }
  return chip;
}

std::vector<Hardware> builtin_hardware() {
  // Parsed once, on first use (thread-safe, and never changed after): the text is compiled in,
  // and parsing its ~5 KB was half of what loading every scenario cost.
  static const std::vector<Hardware> catalog = [] {
    const std::string name = "costmodel/data/hardware.toml";
    const TomlDocument document = parse_toml_text(hardware_catalog_toml(), name);
    std::vector<Hardware> ordered;
    for (const auto& [key, node] : entries_in_file_order(document.table)) {
      ordered.push_back(
          read_hardware_table(name, read_table(name, *node, key), key, key, std::nullopt));
    }
    return ordered;
  }();
  return catalog;
}

}  // namespace scaleopt
