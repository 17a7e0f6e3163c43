#include "scaleopt/scenario/uncertainty_table.hpp"

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scaleopt/scenario/toml_reading.hpp"
#include "scaleopt/scenario/toml_tables.hpp"

namespace scaleopt {
namespace {

constexpr const char* kExample = "{ dist = \"lognormal\", median = ..., sigma = ... }";

UncertainInput read_distribution(const std::string& file, const toml::table& table,
                                 const std::string& path, const Scenario& scenario) {
  const std::string key = "uncertainty." + path;
  std::optional<NumericInputSetter> input;
  try {
    input.emplace(scenario, path);
  } catch (const InputError& e) {
    fail_at(file, table, key, e.what());
  }
  UncertainInput result{path, {}};
  InputDistribution& d = result.distribution;
  const toml::node* dist = table.get("dist");
  try {
    d.kind = parse_distribution_kind(read_string(file, *dist, key + ".dist"));
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.starts_with(file)) throw;
    fail_at(file, *dist, key + ".dist", what);
  }
  const auto [first, second] = InputDistribution::parameter_names(d.kind);
  reject_unknown_keys(file, table, key, {"dist", first, second});
  // The location parameters are in the input's unit; a lognormal's sigma is a plain number.
  const Unit second_unit = d.kind == DistributionKind::lognormal ? Unit::number : input->unit();
  for (const auto& [name, unit, value] :
       {std::tuple{first, input->unit(), &d.first}, std::tuple{second, second_unit, &d.second}}) {
    const toml::node* node = table.get(name);
    if (!node) {
      fail_at(file, table, key,
              "needs " + std::string(name) + " for a " + std::string(to_string(d.kind)) +
                  " distribution");
    }
    *value = read_quantity(file, *node, key + "." + std::string(name), unit);
  }
  try {
    d.validate(key);
  } catch (const InputError& e) {
    throw InputError(location(file, table) + ": " + e.what());
  }
  return result;
}

void walk(const std::string& file, const toml::table& table, const std::string& prefix,
          UncertaintySpec& spec, const Scenario& scenario) {
  for (const auto& [name, node] : table) {
    const std::string path = join_key(prefix, name.str());
    const std::string key = "uncertainty." + path;
    if (prefix.empty() && name.str() == "law" && !node.is_table()) {
      if (read_string(file, node, key) != "bootstrap") {
        fail_at(file, node, key,
                "expected \"bootstrap\" (the law's coefficients drawn from their uncertainty), "
                "or distributions of law.E, law.A, ... as a table");
      }
      spec.law_bootstrap = true;
      continue;
    }
    const toml::table* child = node.as_table();
    if (!child)
      fail_at(file, node, key, std::string("expected a distribution such as ") + kExample);
    if (child->contains("dist")) {
      for (const UncertainInput& known : spec.inputs) {
        if (known.path == path) fail_at(file, node, key, "given twice");
      }
      spec.inputs.push_back(read_distribution(file, *child, path, scenario));
    } else {
      walk(file, *child, path, spec, scenario);
    }
  }
}

}  // namespace

LawUncertainty bootstrap_uncertainty(const LossLaw& law) {
  if (law.uncertainty) return *law.uncertainty;
  if (auto published = published_uncertainty(law.name)) return *published;
  throw InputError(
      "uncertainty.law: \"bootstrap\" needs the law's uncertainty: a [law.uncertainty] table "
      "(scaleopt fit --bootstrap --emit-law writes one) or the epoch2024 preset, whose standard "
      "errors are published; law " +
      law.name + " has neither");
}

UncertaintySpec read_uncertainty_table(const std::string& file, const toml::table& table,
                                       const Scenario& scenario) {
  UncertaintySpec spec;
  walk(file, table, "", spec, scenario);
  if (spec.law_bootstrap) {
    if (!scenario.law) fail_at(file, table, "uncertainty.law", "the scenario has no [law] table");
    for (const UncertainInput& input : spec.inputs) {
      if (input.path.starts_with("law.")) {
        fail_at(file, table, "uncertainty." + input.path,
                "give law = \"bootstrap\" or distributions of law coefficients, not both");
      }
    }
    try {
      (void)bootstrap_uncertainty(*scenario.law);
    } catch (const InputError& e) {
      throw InputError(location(file, table) + ": " + e.what());
    }
  }
  return spec;
}

}  // namespace scaleopt
