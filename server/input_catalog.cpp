#include "scaleopt/server/input_catalog.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt::server {
using report::Json;
namespace {

// The unit's name: the page's label, and the key its formatter (server/page/page.js) switches on.
std::string_view unit_name(Unit unit) {
  switch (unit) {
    case Unit::number:
      return "number";
    case Unit::count:
      return "count";
    case Unit::bytes:
      return "bytes";
    case Unit::bytes_per_second:
      return "bytes/s";
    case Unit::flop_per_second:
      return "FLOP/s";
    case Unit::usd:
      return "USD";
    case Unit::usd_per_hour:
      return "USD/hour";
    case Unit::per_second:
      return "1/s";
    case Unit::seconds:
      return "s";
    case Unit::watts:
      return "W";
  }
  return "number";
}

std::string_view kind_name(KeyKind kind) {
  switch (kind) {
    case KeyKind::number:
      return "number";
    case KeyKind::text:
      return "text";
    case KeyKind::boolean:
      return "boolean";
  }
  return "number";
}

// Quantities with a unit (tokens, bytes, rates, dollars, durations, watts) span decades between
// plausible scenarios: a slider over them moves by factors. Plain numbers (MFUs, shares, the
// law's exponents) live in a bounded or narrow interval and move by steps.
bool log_scale(Unit unit) {
  return unit != Unit::number;
}

Json bound(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

Json range_json(const Range& range) {
  return {{"text", range.describe()},
          {"lower", bound(range.lower)},
          {"upper", bound(range.upper)},
          {"lower_open", range.lower_open},
          {"upper_open", range.upper_open}};
}

// The choices of the keys the page shows as menus; empty for the others.
std::vector<std::string> choices(std::string_view path) {
  std::vector<std::string> names;
  if (path == "training.hardware" || path == "inference.hardware") {
    for (const Hardware& chip : builtin_hardware()) names.push_back(chip.id);
  } else if (path == "architecture.preset") {
    for (const Architecture& preset : architecture_presets()) names.push_back(preset.name);
  } else if (path == "law.preset") {
    for (const LossLaw& preset : loss_law_presets()) names.push_back(preset.name);
  }
  return names;
}

constexpr std::string_view kMenus[] = {"law.preset", "architecture.preset", "training.hardware",
                                       "inference.hardware"};

Json key_json(const ScenarioKey& key) {
  Json json{{"path", key.path},
            {"kind", kind_name(key.kind)},
            {"default", key.default_text},
            {"assumed", key.assumed},
            {"doc", key.doc}};
  if (key.kind == KeyKind::number) {
    json["unit"] = unit_name(key.unit);
    json["range"] = range_json(key.range);
    json["log_scale"] = log_scale(key.unit);
  }
  if (const auto names = choices(key.path); !names.empty()) json["choices"] = names;
  return json;
}

bool given(const Scenario& scenario, std::string_view path) {
  return std::find(scenario.keys_given.begin(), scenario.keys_given.end(), path) !=
         scenario.keys_given.end();
}

// Whether the answer rests on a default of `path` the scenario did not set: one of the lines
// solve lists under "Assumptions" ("training.goodput = 1", "training.usd_per_chip_hour = $2/h
// (h100-sxm's catalog price ...)"). Those are the defaults that matter to this question (a
// serving chip count does not, for a serving cost typed as MFUs), not every assumed default
// of the registry.
bool assumed_here(const Scenario& scenario, std::string_view path) {
  for (const std::string& line : scenario.assumptions) {
    if (line.starts_with(path) && line.size() > path.size() && line[path.size()] == ' ') {
      return true;
    }
  }
  return false;
}

// The current choice of a menu: the chip's id, the preset the model or law is (a model or law
// typed over a preset is another, "custom"), or null when there is none.
Json current_choice(const Scenario& scenario, std::string_view path) {
  if (path == "training.hardware") return scenario.training.chip.id;
  if (path == "inference.hardware") return scenario.serving.chip.id;
  const std::vector<std::string> names = choices(path);
  std::string name;
  if (path == "architecture.preset") name = scenario.architecture.name;
  if (path == "law.preset" && scenario.law) name = scenario.law->name;
  if (std::find(names.begin(), names.end(), name) != names.end()) return name;
  return name.empty() ? Json(nullptr) : Json(name);
}

}  // namespace

Json keys_json() {
  Json keys = Json::array();
  for (const ScenarioKey& key : scenario_keys()) keys.push_back(key_json(key));
  Json chip_fields = Json::array();
  for (const HardwareField& field : hardware_fields()) {
    Json json{{"field", field.key}, {"kind", kind_name(field.kind)}, {"doc", field.doc}};
    if (field.kind == KeyKind::number) {
      json["unit"] = unit_name(field.unit);
      json["range"] = range_json(field.range);
      json["log_scale"] = log_scale(field.unit);
    }
    chip_fields.push_back(std::move(json));
  }
  return report::json_document(
      {{"keys", std::move(keys)}, {"chip_fields", std::move(chip_fields)}});
}

Json inputs_json(const Scenario& scenario) {
  Json inputs = Json::array();
  for (const NumericInput& input : numeric_inputs(scenario)) {
    Json json{{"path", input.path},
              {"unit", unit_name(input.unit)},
              {"value", input.value},
              {"whole_number", input.whole_number},
              {"doc", input.doc}};
    if (const ScenarioKey* key = find_scenario_key(input.path)) {
      json["default"] = key->default_text;
      json["given"] = given(scenario, input.path);
      json["assumed"] = assumed_here(scenario, input.path);
      json["range"] = range_json(key->range);
    } else {
      // A chip field: the catalog's value, or the file's [hardware.<id>] table's (a catalog
      // price the answer rests on is listed as training's or inference's usd_per_chip_hour).
      const std::string_view field = std::string_view(input.path).substr(input.path.rfind('.') + 1);
      const HardwareField* chip_field = find_hardware_field(field);
      json["default"] = "the chip's (catalog or [hardware.<id>])";
      json["given"] = false;
      json["assumed"] = assumed_here(scenario, input.path);
      json["range"] = range_json(chip_field ? chip_field->range : Range{});
    }
    json["log_scale"] = log_scale(input.unit);
    inputs.push_back(std::move(json));
  }
  Json menus = Json::array();
  for (std::string_view path : kMenus) {
    if (path == "law.preset" && !scenario.law) continue;
    const ScenarioKey* key = find_scenario_key(path);
    menus.push_back({{"path", path},
                     {"value", current_choice(scenario, path)},
                     {"choices", choices(path)},
                     {"default", key ? key->default_text : std::string_view{}},
                     {"assumed", assumed_here(scenario, path)},
                     {"doc", key ? key->doc : std::string_view{}}});
  }
  return report::json_document({{"scenario", scenario.file},
                                {"inputs", std::move(inputs)},
                                {"menus", std::move(menus)},
                                {"assumptions", scenario.assumptions}});
}

}  // namespace scaleopt::server
