#pragma once
// The readers of a scenario's TOML tables, for the scenario loader, the catalogs and tests.
// With scenario/toml_reading.hpp and scenario/price_list_file.hpp these are the headers of
// scenario/ that name toml++ types: the others do not, so toml++ stays private to
// scaleopt_scenario. Errors give file:line and the dotted key.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/cache_tier.hpp"
#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/toml_reading.hpp"

namespace scaleopt {

// Reads the chip table at `key` (e.g. "hardware.my-chip") of `file`. A chip of the same id in
// `base` is the starting point (an override); otherwise name, a peak rate, hbm_bandwidth and
// hbm are required, and `source` defaults to "defined in FILE". Errors give file:line.
Hardware read_hardware_table(const std::string& file, const toml::table& table,
                             const std::string& key, const std::string& id,
                             const std::optional<Hardware>& base);

// Reads the table found at key `key` (normally "law") of `file`; validates the law. With a
// `base` (the law of the file the table names, `base_name`), the table's coefficients override
// it, as they do a preset, and its `file` key is allowed (the caller has read that file).
LossLaw read_law_table(const std::string& file, const toml::table& law, const std::string& key,
                       const LossLaw* base = nullptr, std::string_view base_name = {});

// A scenario's law, the one place law.file and --law-file are resolved: `source.law_file`
// when given (the loader has dropped the scenario's [law] before --set, so `document`'s [law]
// holds only --set law.* overrides), else the [law] of the file `law.file` names (relative to
// `file`'s directory; refused unless `source.files_allowed`), with the table's coefficients
// over either; else the table alone. nullopt when there is no law at all. Reads every file
// through the bounded reader (scenario/input_file.hpp).
std::optional<LossLaw> scenario_law(const std::string& file, const toml::table& document,
                                    const LawSource& source);

// Reads the table found at "uncertainty" of `file` for `scenario` (already read: the paths are
// checked against its numeric inputs and the chips it uses). Throws InputError
// "FILE:LINE: uncertainty.PATH...: what" for an unknown path or distribution, a missing or bad
// parameter (sigma < 0, lo >= hi), or law = "bootstrap" without an uncertainty to draw from.
UncertaintySpec read_uncertainty_table(const std::string& file, const toml::table& table,
                                       const Scenario& scenario);

// Every table of `document` as a tier, in the file's order.
std::vector<CacheTier> read_cache_tiers(const TomlDocument& document);

}  // namespace scaleopt
