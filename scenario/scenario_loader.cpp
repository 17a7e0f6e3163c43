// Reading a scenario file through the key registry (scenario/scenario_keys.hpp), and --set.

#include <algorithm>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/problems/lifecycle/expert_choice.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/input_file.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "scaleopt/scenario/price_list_file.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_document.hpp"
#include "scaleopt/scenario/scenario_fingerprint.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scaleopt/scenario/toml_reading.hpp"
#include "scaleopt/scenario/toml_tables.hpp"
#include "scaleopt/scenario/uncertainty_table.hpp"

namespace scaleopt {
namespace {

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Every path --set accepts, for "did you mean".
std::vector<std::string_view> settable_paths() {
  std::vector<std::string_view> paths;
  for (const ScenarioKey& key : scenario_keys()) paths.push_back(key.path);
  return paths;
}

// The kind of the key at `path`, or throws "set PATH: unknown key (did you mean ...)".
KeyKind override_kind(const std::string& path) {
  if (const ScenarioKey* key = find_scenario_key(path)) return key->kind;
  const auto parts = split(path);
  if (parts.size() == 3 && parts[0] == "hardware" && !parts[1].empty()) {
    if (const HardwareField* field = find_hardware_field(parts[2])) return field->kind;
  }
  std::string message = "unknown key";
  if (const auto closest = closest_key(path, settable_paths()); !closest.empty()) {
    message += " (did you mean '" + std::string(closest) + "'?)";
  }
  message += "; see docs/scenario.md or 'scaleopt cost --keys'";
  throw InputError("set " + input_excerpt(path) + ": " + message);
}

// "set KEY=VALUE": the value is parsed on its own as a one-line TOML document named
// "set", so that errors about it name --set rather than a line of the file.
void apply_override(TomlDocument& document, const std::string& argument) {
  const auto equals = argument.find('=');
  if (equals == std::string::npos || trim(argument.substr(0, equals)).empty()) {
    throw InputError("set: expected KEY=VALUE, e.g. inference.rate=100M/s, got " +
                     quoted_input(argument));
  }
  const std::string path(trim(std::string_view(argument).substr(0, equals)));
  const std::string value(trim(std::string_view(argument).substr(equals + 1)));
  const KeyKind kind = override_kind(path);
  std::ostringstream snippet;
  if (kind == KeyKind::boolean) {
    if (value != "true" && value != "false") {
      throw InputError("set " + input_excerpt(path) + ": expected true or false, got " +
                       quoted_input(value));
    }
    snippet << "value = " << value;
  } else {
    snippet << "value = " << toml::value<std::string>(value);  // quoted as TOML
  }
  TomlDocument parsed = parse_toml_text(snippet.str(), "set");
  toml::table* table = &document.table;
  const auto parts = split(path);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    toml::node* child = table->get(parts[i]);
    if (!child) {
      table->insert(parts[i], toml::table{});
      child = table->get(parts[i]);
    }
    if (!child->is_table()) {
      throw InputError("set " + input_excerpt(path) + ": " + quoted_input(parts[i]) +
                       " is not a table in " + document.file);
    }
    table = child->as_table();
  }
  toml::node* node = parsed.table.get("value");
  // Moving (not copying) keeps the node's source, so messages locate it in "set".
  if (auto* flag = node->as_boolean()) {
    table->insert_or_assign(parts.back(), std::move(*flag));
  } else {
    table->insert_or_assign(parts.back(), std::move(*node->as_string()));
  }
}

// Rejects keys the registry does not know, in every table but [law] and [pricing] (their
// readers check their own) and [hardware] (chip tables are checked when read).
void reject_unknown(const std::string& file, const toml::table& table, const std::string& prefix) {
  std::vector<std::string_view> known;
  for (const ScenarioKey& key : scenario_keys()) {
    if (!key.path.starts_with(prefix + ".")) continue;
    const std::string_view rest = key.path.substr(prefix.size() + 1);
    const std::string_view child = rest.substr(0, rest.find('.'));
    if (std::find(known.begin(), known.end(), child) == known.end()) known.push_back(child);
  }
  reject_unknown_keys(file, table, prefix, known);
  for (const auto& [name, node] : table) {
    const std::string path = prefix + "." + std::string(name.str());
    const ScenarioKey* key = find_scenario_key(path);
    if (!key) {
      reject_unknown(file, read_table(file, node, path), path);  // a nested table
    } else if (node.is_table()) {
      fail_at(file, node, path, "expected a value, got a table");
    }
  }
}

// The catalog with the scenario's [hardware.<id>] tables applied.
std::vector<Hardware> chips_of(const TomlDocument& document) {
  std::vector<Hardware> chips = builtin_hardware();
  const toml::node* hardware = document.table.get("hardware");
  if (!hardware) return chips;
  const toml::table& tables = read_table(document.file, *hardware, "hardware");
  for (const auto& [name, node] : tables) {
    const std::string id(name.str());
    const std::string key = "hardware." + id;
    auto existing = std::find_if(chips.begin(), chips.end(),
                                 [&](const Hardware& chip) { return chip.id == id; });
    std::optional<Hardware> base;
    if (existing != chips.end()) base = *existing;
    Hardware chip =
        read_hardware_table(document.file, read_table(document.file, node, key), key, id, base);
    if (existing != chips.end()) {
      *existing = std::move(chip);
    } else {
      chips.push_back(std::move(chip));
    }
  }
  return chips;
}

std::string section_of(std::string_view path) {
  return std::string(path.substr(0, path.find('.')));
}

void read_key(const ScenarioKey& key, const std::string& file, const toml::node& node,
              Scenario& scenario, const KeyContext& context) {
  const std::string path(key.path);
  switch (key.kind) {
    case KeyKind::number: {
      const double value = read_quantity(file, node, path, key.unit);
      if (!key.range.contains(value)) fail_at(file, node, path, key.range.refusal(value, path));
      key.set(scenario, value);
      return;
    }
    case KeyKind::boolean:
      key.set_bool(scenario, read_bool(file, node, path));
      return;
    case KeyKind::text: {
      const std::string value = read_string(file, node, path);
      try {
        key.set_text(scenario, value, context);
      } catch (const InputError& e) {
        fail_at(file, node, path, e.what());
      }
      return;
    }
  }
}

// A joint dense/MoE law makes the experts a decision of the questions that choose a size, unless
// a key fixes them: law.experts, or architecture.total_params (the total/active ratio) without
// bounds. problem.min_experts / max_experts bound them and are refused where nothing is chosen
// or law.experts fixes them. The
// bounds and the expert share are listed as assumptions where defaulted.
bool choose_experts(Scenario& scenario) {
  auto given = [&](std::string_view key) {
    return std::find(scenario.keys_given.begin(), scenario.keys_given.end(), key) !=
           scenario.keys_given.end();
  };
  const ProblemSpec& problem = scenario.problem;
  const bool bounded = given("problem.min_experts") || given("problem.max_experts");
  const char* bound = given("problem.min_experts") ? "problem.min_experts" : "problem.max_experts";
  const bool sizes = scenario.problem_given && chooses_size(problem.kind);
  if (!scenario.law || !scenario.law->joint) {
    if (bounded) {
      throw InputError(scenario.file + ": " + bound +
                       ": bounds the experts of a joint dense/MoE law (law.preset = "
                       "\"ludziejewski2025\" or a [law.joint] table); this law sees N and D "
                       "alone");
    }
    return false;
  }
  if (!sizes) return false;  // problem_key_read's warning names the bounds it ignores
  if (scenario.law->experts) {
    if (bounded) {
      throw InputError(scenario.file + ": " + bound +
                       ": law.experts fixes the experts: give it or the bounds, not both");
    }
    return false;
  }
  // architecture.total_params fixes the total/active ratio, unless bounds ask for the experts
  // to be chosen (the given total then only sets the expert share f).
  if (given("architecture.total_params") && !bounded) return false;
  scenario.problem.choose_experts = true;
  const double min_experts = problem.min_experts.value_or(1.0);
  const std::optional<FittedRange>& range = scenario.law->fitted_range;
  const bool fitted = range && range->max_experts;
  std::ostringstream line;
  line << (bounded ? "experts chosen by the optimiser within the bounds given"
                   : "experts chosen by the optimiser (no law.experts or "
                     "architecture.total_params fixes them)");
  if (!problem.min_experts) line << "; problem.min_experts = 1 (dense)";
  if (!problem.max_experts) {
    line << "; problem.max_experts = " << default_max_experts(*scenario.law, min_experts)
         << (fitted ? " (the largest E of the law's runs)"
                    : " (the largest E of Ludziejewski et al. 2025's runs)");
  }
  scenario.assumptions.push_back(line.str());
  const ExpertShare share = expert_share_of(scenario.architecture);
  std::ostringstream share_line;
  share_line.precision(4);
  share_line << "expert share f = " << share.share
             << " of the active parameters in the routed FFN (" << share.source
             << "): total = active x (1 - f + f E)";
  scenario.assumptions.push_back(share_line.str());
  return true;
}

// Without inference.chips the lifetime questions choose the replica with N
// (problems/serving/fleet_plan.hpp), so "inference.chips = 8" is no assumption of theirs; what
// the choice and the fleet rest on is. Only for a priced question served by the roofline.
void note_serving_fleet(const TomlDocument& document, bool flops_only, Scenario& scenario) {
  auto given = [&](std::string_view key) {
    return std::find(scenario.keys_given.begin(), scenario.keys_given.end(), key) !=
           scenario.keys_given.end();
  };
  scenario.serving.replica_chosen = !given("inference.chips");
  if (!scenario.problem_given || flops_only ||
      scenario.serving.pricing != InferencePricing::roofline || !document.table.get("inference")) {
    return;
  }
  if (scenario.serving.replica_chosen) {
    std::erase_if(scenario.assumptions,
                  [](const std::string& line) { return line.starts_with("inference.chips "); });
    std::ostringstream line;
    line << "inference.chips: chosen with N, whole nodes of " << scenario.serving.chip.node_chips
         << " x " << scenario.serving.chip.id
         << " from the fewest holding the weights and one sequence's KV cache up to "
            "inference.max_replica_nodes = "
         << scenario.serving.max_replica_nodes
         << (given("inference.max_replica_nodes") ? "" : " (assumed)");
    scenario.assumptions.push_back(line.str());
  }
  if (scenario.serving.elastic) return;
  if (!scenario.demand.duration_seconds) {
    scenario.assumptions.push_back(
        "inference: a demand without a duration is priced elastically (busy chip-hours only, "
        "any fraction of a replica); inference.duration sizes a fleet paid for its whole life");
    return;
  }
  if (!given("inference.peak_to_mean")) {
    scenario.assumptions.push_back(
        "inference.peak_to_mean = 1 (assumed): the fleet is sized for the mean demand");
  }
}

// "training.usd_per_chip_hour = $2/h: the catalog price of h100-sxm (assumption: ...)".
void note_price(Scenario& s, std::string_view key, const std::optional<double>& given,
                const Hardware& chip) {
  if (given || !chip.usd_per_hour) return;
  s.assumptions.push_back(std::string(key) + " = " +
                          format_quantity(*chip.usd_per_hour, Unit::usd_per_hour) +
                          ", the catalog price of " + chip.id + " (" + chip.price_note + ")");
}

// The digest of what the document says beyond its numeric inputs (scenario/scenario.hpp
// document_digest): those are hashed from their resolved values instead, so that "50M/s" and
// 5e7, or a key given at its default and the key left out, ask the same question.
std::uint64_t document_digest(toml::table table, const Scenario& scenario) {
  for (const NumericInput& input : numeric_inputs(scenario)) {
    const std::vector<std::string_view> parts = split(input.path);
    toml::table* parent = &table;
    for (std::size_t i = 0; parent && i + 1 < parts.size(); ++i) {
      toml::node* child = parent->get(parts[i]);
      parent = child ? child->as_table() : nullptr;
    }
    if (parent) parent->erase(parts.back());
  }
  std::ostringstream text;
  text << toml::toml_formatter(table);
  return fnv1a64(text.str());
}

Scenario load_document(TomlDocument document, const std::vector<std::string>& overrides,
                       const LawSource& law_source) {
  // --law-file replaces the scenario's [law]; --set law.* then applies on top of it.
  if (!law_source.law_file.empty()) document.table.erase("law");
  for (const std::string& argument : overrides) apply_override(document, argument);
  const std::string& file = document.file;
  reject_unknown_keys(file, document.table, "", scenario_tables());
  const std::vector<Hardware> chips = chips_of(document);
  for (const auto& [name, node] : document.table) {
    const std::string table(name.str());
    if (table == "law" || table == "pricing" || table == "hardware" || table == "uncertainty") {
      continue;
    }
    reject_unknown(file, read_table(file, node, table), table);
  }

  Scenario scenario;
  scenario.file = file;
  scenario.law = scenario_law(file, document.table, law_source);
  if (!law_source.law_file.empty()) {
    scenario.law_file = law_source.law_file;
  } else if (const toml::node* named = document.table.at_path("law.file").node()) {
    scenario.law_file = law_file_path(file, named->value_or(std::string()));
  }
  if (const toml::node* prices = document.table.get("pricing")) {
    scenario.prices = read_price_list(file, read_table(file, *prices, "pricing"), "pricing");
  }
  const KeyContext context{chips};
  for (const ScenarioKey& key : scenario_keys()) {
    if (key.delegated) continue;
    const toml::node* node = document.table.at_path(key.path).node();
    if (node) {
      read_key(key, file, *node, scenario, context);
      scenario.keys_given.emplace_back(key.path);
      continue;
    }
    // Chips default to the assumed one even without a table: every setup needs a chip.
    if (key.kind == KeyKind::text && key.assumed) {
      key.set_text(scenario, std::string(key.default_text), context);
    }
    if (key.assumed && document.table.get(section_of(key.path))) {
      scenario.assumptions.push_back(std::string(key.path) + " = " + std::string(key.default_text));
    }
  }
  if (document.table.at_path("rl.returns")) {
    // [rl.returns], even empty, makes the RL tokens a decision variable; what it leaves out
    // takes the defaults of costmodel/rl_returns.hpp, listed as assumptions.
    if (!scenario.rl.returns) scenario.rl.returns = RlReturns{};
    for (const char* key :
         {"rl.returns.max_gain", "rl.returns.half_ratio", "rl.returns.steepness"}) {
      if (!document.table.at_path(key)) {
        scenario.assumptions.push_back(std::string(key) + " = " +
                                       std::string(find_scenario_key(key)->default_text));
      }
    }
  }
  {
    // Without inference.precision / kv_precision the model is served as it ships.
    auto given = [&](std::string_view key) {
      return std::find(scenario.keys_given.begin(), scenario.keys_given.end(), key) !=
             scenario.keys_given.end();
    };
    const ShippedChoice shipped =
        apply_shipped_formats(scenario.architecture, scenario.serving, given("inference.precision"),
                              given("inference.kv_precision"));
    if (document.table.get("inference") || document.table.get("rl")) {
      if (!shipped.weights.empty()) {
        scenario.assumptions.push_back("inference.precision = " + shipped.weights);
      }
      if (!shipped.kv.empty()) {
        scenario.assumptions.push_back("inference.kv_precision = " + shipped.kv);
      }
    }
  }
  const bool experts_chosen = choose_experts(scenario);
  if (scenario.law && scenario.law->joint && !scenario.law->experts) {
    // A joint dense/MoE law without law.experts is evaluated at the architecture's expansion,
    // routed experts over the experts each token uses (the paper's E counts top-1 experts as
    // large as the dense FFN: docs/model.md, Joint law); 1 (dense) without experts.
    const Architecture& architecture = scenario.architecture;
    const bool moe = architecture.has_experts() && architecture.experts_per_token > 0.0;
    const double experts = moe ? architecture.routed_experts / architecture.experts_per_token : 1.0;
    const std::shared_ptr<const JointLossLaw> joint = scenario.law->joint;
    reevaluate_at_experts(*scenario.law, *joint, experts);
    std::ostringstream assumption;
    assumption << "law.experts = " << experts;
    if (moe) {
      assumption << " (the architecture's " << architecture.routed_experts << " routed / "
                 << architecture.experts_per_token << " per token)";
    } else {
      assumption << " (dense)";
    }
    if (!experts_chosen) scenario.assumptions.push_back(assumption.str());
  }
  const bool priced_problem =
      scenario.problem_given && scenario.problem.kind != ProblemKind::min_lifetime_flops;
  if ((document.table.get("training") && scenario.training.tokens > 0.0) || priced_problem) {
    note_price(scenario, "training.usd_per_chip_hour", scenario.training.usd_per_chip_hour,
               scenario.training.chip);
  }
  if (priced_problem && !document.table.get("power")) {
    // Every priced answer reports its power and energy at these defaults (a [power] table
    // lists them through the registry, above).
    for (const char* key : {"power.node_overhead", "power.pue"}) {
      scenario.assumptions.push_back(std::string(key) + " = " +
                                     std::string(find_scenario_key(key)->default_text));
    }
  }
  const bool flops_only =
      scenario.problem_given && scenario.problem.kind == ProblemKind::min_lifetime_flops;
  note_serving_fleet(document, flops_only, scenario);
  if ((document.table.get("inference") || document.table.get("rl")) && !flops_only) {
    note_price(scenario, "inference.usd_per_chip_hour", scenario.serving.usd_per_chip_hour,
               scenario.serving.chip);
  }
  if (scenario.data.unique_tokens && scenario.law) {
    const toml::table* law_table = document.table["law"].as_table();
    const bool decay_given = law_table && (law_table->get("repeat_decay_tokens") ||
                                           law_table->get("repeat_decay_params"));
    if (!decay_given) {
      std::ostringstream line;
      line << "law.repeat_decay_tokens = " << scenario.law->repeat_decay_tokens
           << ", law.repeat_decay_params = " << scenario.law->repeat_decay_params
           << " (assumed): the decay of repeated data fitted by Muennighoff et al. 2023 on C4";
      scenario.assumptions.push_back(line.str());
    }
  }
  if (flops_only) {
    std::erase_if(scenario.assumptions,
                  [](const std::string& line) { return line.starts_with("inference.hardware"); });
    // A FLOPs problem still reports gpu_hours: say what they rest on.
    if (!document.table.get("training")) {
      std::ostringstream line;
      line << "training.hardware = " << scenario.training.chip.id
           << ", training.mfu = " << scenario.training.mfu
           << " (assumed): only to convert pretraining FLOPs into the gpu_hours reported";
      scenario.assumptions.push_back(line.str());
    }
    scenario.assumptions.push_back(
        "gpu_hours of a FLOPs problem count pretraining only: RL and inference are not priced "
        "(reported as 0 hours)");
  }
  if (scenario.serving.pricing == InferencePricing::mfu || flops_only) {
    // Batch, replica and efficiency caps only matter to the roofline.
    std::erase_if(scenario.assumptions, [](const std::string& line) {
      return line.starts_with("inference.chips") || line.starts_with("inference.context") ||
             line.starts_with("inference.compute_efficiency") ||
             line.starts_with("inference.bandwidth_efficiency");
    });
  }
  if (scenario.serving.pricing == InferencePricing::mfu && !flops_only &&
      !document.table.at_path("inference.prefill_mfu")) {
    scenario.assumptions.push_back(
        "inference.prefill_mfu = 0.5 (the beyond-chinchilla code's default)");
  }
  if (scenario.problem_given && scenario.problem.kind == ProblemKind::equal_cost &&
      !document.table.at_path("problem.shares")) {
    scenario.assumptions.push_back("problem.shares = 1/3 each (the talk's equal thirds)");
  }
  if (scenario.problem_given && scenario.problem.kind == ProblemKind::max_quality &&
      !document.table.at_path("problem.min_params")) {
    scenario.assumptions.push_back("problem.min_params = 10M (smallest model considered)");
  }
  try {
    validate_scenario(scenario);
  } catch (const InputError& e) {
    throw InputError(file + ": " + e.what());  // e names the field
  }
  if (scenario.problem_given) {
    for (const std::string& key : scenario.keys_given) {
      if (key.starts_with("problem.") && !problem_key_read(scenario.problem.kind, key)) {
        scenario.warnings.push_back(key + " is ignored by " +
                                    std::string(to_string(scenario.problem.kind)));
      }
    }
  }
  if (const toml::node* uncertainty = document.table.get("uncertainty")) {
    scenario.uncertainty =
        read_uncertainty_table(file, read_table(file, *uncertainty, "uncertainty"), scenario);
  }
  scenario.document_digest = document_digest(std::move(document.table), scenario);
  return scenario;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                       const LawSource& law_source) {
  return load_document(parse_toml_file(path), overrides, law_source);
}

Scenario load_scenario_text(std::string_view text, const std::string& name,
                            const std::vector<std::string>& overrides,
                            const LawSource& law_source) {
  return load_document(parse_toml_text(text, name), overrides, law_source);
}

// The text, and the name it is reported under. The parsed document is not kept: toml++ copies a
// table without its nodes' lines, which every message about a key would then lose; parsing the
// text again per scenario is what keeps them (the file is never read again).
struct ScenarioDocument::Parsed {
  std::string text;
  std::string file;
};

ScenarioDocument::ScenarioDocument(std::shared_ptr<const Parsed> parsed)
    : parsed_(std::move(parsed)) {}

ScenarioDocument ScenarioDocument::read(const std::string& path) {
  std::string text = read_input_file(path, kTomlInput);
  return ScenarioDocument(std::make_shared<const Parsed>(Parsed{std::move(text), path}));
}

ScenarioDocument ScenarioDocument::from_text(std::string_view text, const std::string& name) {
  return ScenarioDocument(std::make_shared<const Parsed>(Parsed{std::string(text), name}));
}

Scenario ScenarioDocument::load(const std::vector<std::string>& overrides,
                                const LawSource& law_source) const {
  return load_document(parse_toml_text(parsed_->text, parsed_->file), overrides, law_source);
}

const std::string& ScenarioDocument::file() const {
  return parsed_->file;
}

const std::string& ScenarioDocument::text() const {
  return parsed_->text;
}

}  // namespace scaleopt
