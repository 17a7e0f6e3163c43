#include "scaleopt/scenario/law_file.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/joint_loss_law.hpp"
#include "scaleopt/scenario/toml_reading.hpp"
#include "scaleopt/scenario/toml_tables.hpp"

namespace scaleopt {
namespace {

double& coefficient(LossLaw& law, std::size_t index) {
  std::array<double*, 5> fields = {&law.E, &law.A, &law.B, &law.alpha, &law.beta};
  return *fields[index];
}

// Where the coefficients read from `table` (the keys `names`, and every key of its table
// `subtable` when given) came from: the file, --set (a value given by --set is parsed as the
// file "set": scenario/scenario_loader.cpp), or both: "/path/s.toml", "--set law.joint.zeta",
// "/path/s.toml and --set law.A".
std::string coefficients_origin(const std::string& file, const toml::table& table,
                                const std::string& key, std::initializer_list<const char*> names,
                                const char* subtable = nullptr) {
  bool from_file = false;
  std::string set_keys;
  auto classify = [&](const toml::node& node, const std::string& path) {
    const auto& source = node.source().path;
    if (source && *source == "set") {
      set_keys += (set_keys.empty() ? "" : ", ") + path;
    } else {
      from_file = true;
    }
  };
  for (const char* name : names) {
    if (const toml::node* node = table.get(name)) classify(*node, key + "." + name);
  }
  if (subtable) {
    if (const toml::table* sub = table.get_as<toml::table>(subtable)) {
      for (const auto& [name, node] : *sub) {
        classify(node, key + "." + subtable + "." + std::string(name.str()));
      }
    }
  }
  if (set_keys.empty()) return file;
  return (from_file ? file + " and " : std::string()) + "--set " + set_keys;
}

LawUncertainty read_uncertainty(const std::string& file, const toml::table& table,
                                const std::string& key) {
  reject_unknown_keys(file, table, key, {"standard_errors", "covariance"});
  LawUncertainty uncertainty;
  const toml::node* errors = table.get("standard_errors");
  if (!errors) fail_at(file, table, key, "needs standard_errors = { E = ..., A = ..., ... }");
  const std::string errors_key = key + ".standard_errors";
  const toml::table& errors_table = read_table(file, *errors, errors_key);
  reject_unknown_keys(file, errors_table, errors_key, {"E", "A", "B", "alpha", "beta"});
  for (std::size_t i = 0; i < kLawCoefficientNames.size(); ++i) {
    const std::string name = kLawCoefficientNames[i];
    const toml::node* value = errors_table.get(name);
    if (!value) fail_at(file, errors_table, errors_key, "missing " + name);
    const double se = read_quantity(file, *value, errors_key + "." + name, Unit::number);
    if (se < 0.0) fail_at(file, *value, errors_key + "." + name, "must be >= 0");
    uncertainty.standard_errors[i] = se;
  }
  if (const toml::node* covariance = table.get("covariance")) {
    const std::string covariance_key = key + ".covariance";
    const auto* rows = covariance->as_array();
    if (!rows || rows->size() != 5) fail_at(file, *covariance, covariance_key, "expected 5 rows");
    std::array<std::array<double, 5>, 5> matrix{};
    for (std::size_t r = 0; r < 5; ++r) {
      const auto* row = (*rows)[r].as_array();
      if (!row || row->size() != 5) {
        fail_at(file, (*rows)[r], covariance_key, "each row needs 5 numbers");
      }
      for (std::size_t c = 0; c < 5; ++c) {
        matrix[r][c] = read_quantity(file, (*row)[c], covariance_key, Unit::number);
      }
    }
    uncertainty.covariance = matrix;
  }
  return uncertainty;
}

// [law.fitted_range]: the runs a law was fitted on (min_params, max_params, min_tokens,
// max_tokens, source; any bound may be left out), as `fit --emit-law` writes it.
FittedRange read_fitted_range(const std::string& file, const toml::table& table,
                              const std::string& key) {
  reject_unknown_keys(file, table, key,
                      {"min_params", "max_params", "min_tokens", "max_tokens", "min_experts",
                       "max_experts", "max_total_params", "source"});
  FittedRange range;
  const std::pair<const char*, std::optional<double> FittedRange::*> bounds[] = {
      {"min_params", &FittedRange::min_params},
      {"max_params", &FittedRange::max_params},
      {"min_tokens", &FittedRange::min_tokens},
      {"max_tokens", &FittedRange::max_tokens},
      {"min_experts", &FittedRange::min_experts},
      {"max_experts", &FittedRange::max_experts},
      {"max_total_params", &FittedRange::max_total_params}};
  for (const auto& [name, field] : bounds) {
    if (const toml::node* value = table.get(name)) {
      const double v = read_quantity(file, *value, key + "." + name, Unit::count);
      if (!(v > 0.0) || !std::isfinite(v)) {
        fail_at(file, *value, key + "." + name, "must be finite and positive");
      }
      range.*field = v;
    }
  }
  if (range.min_params && range.max_params && *range.min_params > *range.max_params) {
    fail_at(file, table, key + ".min_params", "must be at most max_params");
  }
  if (range.min_tokens && range.max_tokens && *range.min_tokens > *range.max_tokens) {
    fail_at(file, table, key + ".min_tokens", "must be at most max_tokens");
  }
  if (range.min_experts && range.max_experts && *range.min_experts > *range.max_experts) {
    fail_at(file, table, key + ".min_experts", "must be at most max_experts");
  }
  range.source = "defined in " + file;
  if (const toml::node* source = table.get("source")) {
    range.source = read_string(file, *source, key + ".source");
  }
  return range;
}

// [law.joint]: the coefficients of a joint dense/MoE law other than E (law.E), with the
// paper's signs, over `base` (a joint preset or file) or all of them without one.
JointLossLaw read_joint_table(const std::string& file, const toml::table& table,
                              const std::string& key, const JointLossLaw* base) {
  reject_unknown_keys(file, table, key,
                      {"a", "b", "alpha", "beta", "delta", "gamma", "omega", "zeta",
                       "experts_start", "experts_max", "standard_errors"});
  JointLossLaw joint = base ? *base : JointLossLaw{};
  for (const JointLawField& field : kJointLawFields) {
    const char* name = field.name;
    const toml::node* value = table.get(name);
    if (!value) {
      if (!base) {
        fail_at(file, table, key,
                std::string("missing ") + name +
                    " (give a, b, alpha, beta, delta, gamma, omega, zeta, experts_start and "
                    "experts_max, or a joint preset)");
      }
      continue;
    }
    joint.*field.member = read_quantity(file, *value, key + "." + name, Unit::number);
  }
  if (const toml::node* errors = table.get("standard_errors")) {
    const std::string errors_key = key + ".standard_errors";
    const toml::table& errors_table = read_table(file, *errors, errors_key);
    reject_unknown_keys(file, errors_table, errors_key,
                        std::vector<std::string_view>(kJointCoefficientNames.begin(),
                                                      kJointCoefficientNames.end()));
    std::array<double, 9> values{};
    for (std::size_t i = 0; i < kJointCoefficientNames.size(); ++i) {
      const std::string name = kJointCoefficientNames[i];
      const toml::node* value = errors_table.get(name);
      if (!value) fail_at(file, errors_table, errors_key, "missing " + name);
      values[i] = read_quantity(file, *value, errors_key + "." + name, Unit::number);
      if (!(values[i] >= 0.0)) fail_at(file, *value, errors_key + "." + name, "must be >= 0");
    }
    joint.standard_errors = values;
  }
  return joint;
}

// The [law] table of a law of N and D alone (Hoffmann et al.'s form).
LossLaw read_chinchilla_law_table(const std::string& file, const toml::table& table,
                                  const std::string& key, const LossLaw* base,
                                  std::string_view base_name) {
  LossLaw law;
  bool from_preset = false;
  if (base) {
    if (const toml::node* preset = table.get("preset")) {
      fail_at(file, *preset, key + ".preset",
              "not with a law read from " + std::string(base_name) + " (give one of them)");
    }
    law = *base;
    from_preset = true;
  } else if (const toml::node* preset = table.get("preset")) {
    try {
      law = loss_law_preset(read_string(file, *preset, key + ".preset"));
    } catch (const InputError& e) {
      if (std::string(e.what()).starts_with("unknown loss law")) {
        fail_at(file, *preset, key + ".preset", e.what());
      }
      throw;
    }
    from_preset = true;
  }
  bool overridden = false;
  for (std::size_t i = 0; i < kLawCoefficientNames.size(); ++i) {
    const std::string name = kLawCoefficientNames[i];
    const toml::node* value = table.get(name);
    if (!value) {
      if (!from_preset) {
        fail_at(file, table, key,
                "missing " + name + " (give all of E, A, B, alpha, beta, or a preset)");
      }
      continue;
    }
    const double v = read_quantity(file, *value, key + "." + name, Unit::number);
    if (!(v > 0.0)) fail_at(file, *value, key + "." + name, "must be positive");
    coefficient(law, i) = v;
    overridden = true;
  }
  if (!from_preset) {
    law.name = "custom";
    law.source = "coefficients from " + file;
  } else if (overridden) {
    law.source = "coefficients from " +
                 coefficients_origin(file, table, key, {"E", "A", "B", "alpha", "beta"}) +
                 " over " + (base ? std::string(base_name) : "preset " + law.name);
    law.name = "custom";
    // Other coefficients are another law: the runs the preset was fitted on are not its
    // (a [law.fitted_range] table below may say what they are).
    law.fitted_range.reset();
  }
  if (const toml::node* name = table.get("name"))
    law.name = read_string(file, *name, key + ".name");
  if (const toml::node* source = table.get("source")) {
    law.source = read_string(file, *source, key + ".source");
  }
  if (const toml::node* uncertainty = table.get("uncertainty")) {
    law.uncertainty = read_uncertainty(file, read_table(file, *uncertainty, key + ".uncertainty"),
                                       key + ".uncertainty");
  }
  if (const toml::node* range = table.get("fitted_range")) {
    law.fitted_range = read_fitted_range(file, read_table(file, *range, key + ".fitted_range"),
                                         key + ".fitted_range");
  }
  return law;
}

// The [law] table of a joint dense/MoE law: `joint` (a joint preset, the joint law of a file's
// law, or empty) and [law.joint] over it, then law.E, the name, the source, the range, and
// law.experts, at which the law is evaluated (costmodel/joint_loss_law.hpp, law_at_experts).
LossLaw read_joint_law_table(const std::string& file, const toml::table& table,
                             const std::string& key, std::optional<JointLossLaw> joint,
                             std::optional<double> base_experts, std::string_view base_name) {
  for (const char* name : {"A", "B", "alpha", "beta", "uncertainty"}) {
    if (const toml::node* value = table.get(name)) {
      fail_at(file, *value, key + "." + name,
              "not with a joint law: its coefficients are in [" + key +
                  ".joint] (standard errors in " + key + ".joint.standard_errors)");
    }
  }
  const bool from_base = joint.has_value();
  bool overridden = false;
  if (const toml::node* node = table.get("joint")) {
    const JointLossLaw read = read_joint_table(file, read_table(file, *node, key + ".joint"),
                                               key + ".joint", joint ? &*joint : nullptr);
    overridden = from_base;
    joint = read;
  }
  if (const toml::node* value = table.get("E")) {
    const double v = read_quantity(file, *value, key + ".E", Unit::number);
    if (!(v > 0.0)) fail_at(file, *value, key + ".E", "must be positive");
    joint->E = v;
    overridden = overridden || from_base;
  } else if (!from_base) {
    fail_at(file, table, key, "missing E (the irreducible loss of the joint law)");
  }
  if (!from_base) {
    joint->name = "custom-joint";
    joint->source = "coefficients from " + file;
    joint->fitted_range.reset();
  } else if (overridden) {
    joint->source = "coefficients from " + coefficients_origin(file, table, key, {"E"}, "joint") +
                    " over " + std::string(base_name);
    joint->name = "custom-joint";
    joint->fitted_range.reset();  // other coefficients are another law (as for a preset)
  }
  if (const toml::node* name = table.get("name"))
    joint->name = read_string(file, *name, key + ".name");
  if (const toml::node* source = table.get("source")) {
    joint->source = read_string(file, *source, key + ".source");
  }
  if (const toml::node* range = table.get("fitted_range")) {
    joint->fitted_range = read_fitted_range(file, read_table(file, *range, key + ".fitted_range"),
                                            key + ".fitted_range");
  }
  joint->validate(key);
  std::optional<double> experts = base_experts;
  const toml::node* experts_node = table.get("experts");
  if (experts_node) {
    experts = read_quantity(file, *experts_node, key + ".experts", Unit::number);
    if (!(*experts >= 1.0)) {
      std::ostringstream message;
      message << "must be at least 1 (1 = dense), got " << *experts;
      fail_at(file, *experts_node, key + ".experts", message.str());
    }
  }
  LossLaw law;
  try {
    // Without law.experts the law is evaluated dense (E = 1), and `experts` stays absent so
    // that the scenario may take the count from its architecture (scenario_loader.cpp).
    law = law_at_experts(*joint, experts.value_or(1.0), key + ".experts");
  } catch (const InputError& e) {
    if (experts_node) fail_at(file, *experts_node, key + ".experts", e.what());
    fail_at(file, table, key, e.what());
  }
  if (!experts) law.experts.reset();
  return law;
}

}  // namespace

LossLaw read_law_table(const std::string& file, const toml::table& table, const std::string& key,
                       const LossLaw* base, std::string_view base_name) {
  std::vector<std::string_view> known{"preset",
                                      "name",
                                      "source",
                                      "E",
                                      "A",
                                      "B",
                                      "alpha",
                                      "beta",
                                      "uncertainty",
                                      "fitted_range",
                                      "repeat_decay_tokens",
                                      "repeat_decay_params",
                                      "experts",
                                      "joint"};
  // `file` names the law's file; the caller has read it into `base` (scenario_law below).
  if (base && table.get("file")) known.push_back("file");
  reject_unknown_keys(file, table, key, known);
  // A joint dense/MoE law: a joint preset, a file's joint law, or a [law.joint] table.
  std::optional<JointLossLaw> joint;
  std::optional<double> base_experts;
  std::string joint_base_name(base_name);
  const toml::node* preset = table.get("preset");
  if (base && preset) {
    fail_at(file, *preset, key + ".preset",
            "not with a law read from " + std::string(base_name) + " (give one of them)");
  }
  if (base && base->joint) {
    joint = *base->joint;
    base_experts = base->experts;
  } else if (preset) {
    const std::string name = read_string(file, *preset, key + ".preset");
    joint = find_joint_loss_law_preset(name);
    joint_base_name = "preset " + name;
  }
  LossLaw law;
  if (joint || table.get("joint")) {
    if (!joint && (base || preset)) {
      fail_at(file, *table.get("joint"), key + ".joint",
              "not over a law of N and D alone (" +
                  (base ? std::string(base_name) : "preset " + read_string(file, *preset, key)) +
                  ")");
    }
    law = read_joint_law_table(file, table, key, joint, base_experts, joint_base_name);
  } else {
    if (const toml::node* experts = table.get("experts")) {
      fail_at(file, *experts, key + ".experts",
              "only for a joint dense/MoE law (preset ludziejewski2025 or a [" + key +
                  ".joint] table)");
    }
    law = read_chinchilla_law_table(file, table, key, base, base_name);
  }
  // The decay of repeated data: any law may carry it (the paper's constants otherwise), and it
  // does not change the law's name, since without a limit on unique tokens it changes nothing.
  const std::pair<const char*, double LossLaw::*> decays[] = {
      {"repeat_decay_tokens", &LossLaw::repeat_decay_tokens},
      {"repeat_decay_params", &LossLaw::repeat_decay_params}};
  for (const auto& [name, field] : decays) {
    if (const toml::node* value = table.get(name)) {
      const double v = read_quantity(file, *value, key + "." + name, Unit::number);
      if (!(v > 0.0) || !std::isfinite(v)) {
        fail_at(file, *value, key + "." + name, "must be finite and positive");
      }
      law.*field = v;
    }
  }
  law.validate(key);
  return law;
}

LossLaw read_law_file(const std::string& path, std::string_view flag) {
  const TomlDocument document = parse_toml_file(path, flag);
  const toml::node* law = document.table.get("law");
  const std::string named = flag.empty() ? path : std::string(flag) + " " + path;
  if (!law) throw InputError(named + ": no [law] table");
  return read_law_table(document.file, read_table(document.file, *law, "law"), "law");
}

std::string law_file_path(const std::string& scenario_file, const std::string& named) {
  const std::filesystem::path path(named);
  if (path.is_absolute()) return named;
  return (std::filesystem::path(scenario_file).parent_path() / path).string();
}

std::optional<LossLaw> scenario_law(const std::string& file, const toml::table& document,
                                    const LawSource& source) {
  std::optional<LossLaw> base;
  std::string base_name;
  if (!source.law_file.empty()) {
    base = read_law_file(source.law_file, "law_file");
    base_name = "law_file " + source.law_file;
  }
  const toml::node* node = document.get("law");
  if (!node) return base;
  const toml::table& table = read_table(file, *node, "law");
  if (const toml::node* named = table.get("file")) {
    const std::string text = read_string(file, *named, "law.file");
    if (base) fail_at(file, *named, "law.file", "not with --law-file, which replaces [law]");
    if (!source.files_allowed) {
      fail_at(file, *named, "law.file",
              "this scenario may not name files: give the law's coefficients (E, A, B, alpha, "
              "beta) in [law]");
    }
    if (text.empty()) fail_at(file, *named, "law.file", "empty file name");
    const std::string path = law_file_path(file, text);
    try {
      base = read_law_file(path);
    } catch (const InputError& e) {
      fail_at(file, *named, "law.file", e.what());
    }
    base_name = path;
  }
  return read_law_table(file, table, "law", base ? &*base : nullptr, base_name);
}

std::string law_to_toml(const LossLaw& law) {
  std::ostringstream out;
  out << std::setprecision(17);
  const auto quoted = [](const std::string& text) {
    std::ostringstream s;
    s << toml::value<std::string>(text);
    return s.str();
  };
  out << "[law]\n";
  if (law.joint) {
    // A joint law is written as itself: its [law.joint] coefficients and the experts it is
    // evaluated at, not the Chinchilla law it reduces to there.
    const JointLossLaw& joint = *law.joint;
    out << "name = " << quoted(joint.name) << "\n";
    out << "source = " << quoted(joint.source) << "\n";
    out << "E = " << joint.E << "\n";
    if (law.experts) out << "experts = " << *law.experts << "\n";
    out << "\n[law.joint]\n";
    const std::array<double, 9> values = joint.coefficients();
    for (std::size_t i = 1; i < values.size(); ++i) {
      out << kJointCoefficientNames[i] << " = " << values[i] << "\n";
    }
    out << "experts_start = " << joint.experts_start << "\nexperts_max = " << joint.experts_max
        << "\n";
    if (joint.standard_errors) {
      out << "standard_errors = { ";
      for (std::size_t i = 0; i < values.size(); ++i) {
        out << (i ? ", " : "") << kJointCoefficientNames[i] << " = " << (*joint.standard_errors)[i];
      }
      out << " }\n";
    }
  } else {
    out << "name = " << quoted(law.name) << "\n";
    out << "source = " << quoted(law.source) << "\n";
    out << "E = " << law.E << "\nA = " << law.A << "\nB = " << law.B << "\nalpha = " << law.alpha
        << "\nbeta = " << law.beta << "\n";
  }
  const std::optional<FittedRange>& fitted_range =
      law.joint ? law.joint->fitted_range : law.fitted_range;
  if (fitted_range) {
    const FittedRange& range = *fitted_range;
    out << "\n[law.fitted_range]\n";
    if (range.min_params) out << "min_params = " << *range.min_params << "\n";
    if (range.max_params) out << "max_params = " << *range.max_params << "\n";
    if (range.min_tokens) out << "min_tokens = " << *range.min_tokens << "\n";
    if (range.max_tokens) out << "max_tokens = " << *range.max_tokens << "\n";
    if (range.min_experts) out << "min_experts = " << *range.min_experts << "\n";
    if (range.max_experts) out << "max_experts = " << *range.max_experts << "\n";
    if (range.max_total_params) out << "max_total_params = " << *range.max_total_params << "\n";
    out << "source = " << quoted(range.source) << "\n";
  }
  if (law.uncertainty && !law.joint) {
    out << "\n[law.uncertainty]\nstandard_errors = { ";
    for (std::size_t i = 0; i < 5; ++i) {
      out << (i ? ", " : "") << kLawCoefficientNames[i] << " = "
          << law.uncertainty->standard_errors[i];
    }
    out << " }\n";
    if (law.uncertainty->covariance) {
      out << "covariance = [\n";
      for (const auto& row : *law.uncertainty->covariance) {
        out << "  [";
        for (std::size_t c = 0; c < 5; ++c) out << (c ? ", " : "") << row[c];
        out << "],\n";
      }
      out << "]\n";
    }
  }
  return out.str();
}

}  // namespace scaleopt
