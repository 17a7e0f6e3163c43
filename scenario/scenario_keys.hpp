#pragma once
// The registry of scenario keys: one entry per key, {dotted path, kind, unit, default, doc,
// range, accessors on the typed Scenario}. Reading a file, rejecting unknown keys, --set,
// listing and setting numeric inputs by path (sweeps, elasticities, Monte Carlo) and the key
// table of docs/scenario.md all come from it.
//
// Adding a key: one entry in scenario_keys.cpp plus the struct field it reads and writes.
// Chip fields ("hardware.<id>.<field>") come from scenario/hardware_catalog.hpp; the [law] keys are
// read by scenario/law_file.hpp and listed here for docs, --set and numeric inputs.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/scenario/input_spec.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

// What text setters may look up: the chips known to this scenario (catalog and file).
struct KeyContext {
  const std::vector<Hardware>& chips;
};

struct ScenarioKey {
  std::string_view path;  // "inference.rate"
  KeyKind kind;
  Unit unit;                      // numbers: how values are parsed and printed
  Range range;                    // numbers: allowed values
  std::string_view default_text;  // shown in docs: "0.4", "none", "the chip's catalog price"
  bool assumed;                   // the default is an assumption, listed with every answer
  std::string_view doc;
  // Accessors; only those of the entry's kind are set. Text setters throw InputError for an
  // unknown value (the loader adds file:line).
  std::optional<double> (*get)(const Scenario&) = nullptr;
  void (*set)(Scenario&, double) = nullptr;
  void (*set_text)(Scenario&, const std::string&, const KeyContext&) = nullptr;
  void (*set_bool)(Scenario&, bool) = nullptr;
  // Read elsewhere (the [law] table by scenario/law_file.hpp): not read entry by entry.
  bool delegated = false;
};

// Every key, in reading order (a table's preset first).
std::span<const ScenarioKey> scenario_keys();

// The entry at `path`, or nullptr. Chip fields are not entries (see hardware_fields()).
const ScenarioKey* find_scenario_key(std::string_view path);

// The top-level tables a scenario may have ("law", "architecture", "hardware", ...).
std::vector<std::string_view> scenario_tables();

// A numeric input with its current value.
struct NumericInput {
  std::string path;  // "inference.rate", "hardware.h100-sxm.usd_per_hour", "law.alpha"
  Unit unit;
  double value;
  std::string_view doc;
  // A count that takes whole values only (layers, heads, experts, chips, a batch): moved by
  // whole steps, and without a derivative (analysis/sensitivity_analysis.hpp).
  bool whole_number = false;
};

// Every numeric input that has a value in `scenario`: registry numbers that are set (or have
// a numeric default), the fields of the chips the scenario uses, the law's coefficients.
// Architecture shape fields that are 0 ("not used": no experts, no sparse attention, or no
// shape for a model given by its totals) are not listed.
std::vector<NumericInput> numeric_inputs(const Scenario& scenario);

// The value at `path`; InputError naming the path when it is not a numeric input.
double numeric_input(const Scenario& scenario, std::string_view path);

// Sets the numeric input at `path` after checking its range; InputError naming the path
// ("inference.rate: must be >= 0, got -1", "foo: unknown numeric input (did you mean ...)").
// A chip field changes every setup that uses the chip. Call validate_scenario afterwards when
// the value may break a cross-field rule.
void set_numeric_input(Scenario& scenario, std::string_view path, double value);

// A numeric input resolved once and set many times (sweeps, Monte Carlo): the path is looked up
// when the setter is made, so setting a value is a range check and a store.
class NumericInputSetter {
 public:
  // Throws InputError naming the path, as set_numeric_input does, when `path` is not a numeric
  // input of `scenario` (unknown key, not a number, a chip the scenario does not use).
  NumericInputSetter(const Scenario& scenario, std::string_view path);
  const std::string& path() const { return path_; }
  Unit unit() const { return unit_; }
  const Range& range() const { return range_; }
  // Throws InputError "PATH: must be RANGE, got VALUE" outside the range.
  void set(Scenario& scenario, double value) const;

 private:
  std::string path_;
  Unit unit_ = Unit::number;
  Range range_;
  void (*set_key_)(Scenario&, double) = nullptr;   // a registry key
  void (*set_chip_)(Hardware&, double) = nullptr;  // a chip field
  std::string chip_id_;
};

// Cross-field checks of a loaded or modified scenario (architecture, demand, RL, setups).
void validate_scenario(const Scenario& scenario);

// The key table of docs/scenario.md (markdown), generated from the registry.
std::string scenario_keys_markdown();

}  // namespace scaleopt
