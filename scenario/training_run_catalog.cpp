#include "scaleopt/scenario/training_run_catalog.hpp"

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/training_runs_catalog_text.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/toml_reading.hpp"

namespace scaleopt {
namespace {

// The attention shape of a run given as layers, heads and head_dim (d_model = heads x
// head_dim, as for every run listed: it only makes the shape complete; the FLOPs of q.k and
// of the weighted values depend on layers x heads x head_dim alone).
Architecture attention_only_shape(const std::string& id, double layers, double heads,
                                  double head_dim) {
  Architecture shape;
  shape.name = id;
  shape.attention = AttentionKind::mha;
  shape.layers = layers;
  shape.heads = heads;
  shape.kv_heads = heads;
  shape.head_dim = head_dim;
  shape.d_model = heads * head_dim;
  return shape;
}

PublishedRun read_run(const std::string& file, const toml::table& table, const std::string& id,
                      const std::vector<Hardware>& chips) {
  reject_unknown_keys(
      file, table, id,
      {"name", "source", "note", "hardware", "precision", "active_params", "total_params", "tokens",
       "gpu_hours", "sequence_tokens", "model", "layers", "heads", "head_dim"});
  auto required = [&](std::string_view key) -> const toml::node& {
    const toml::node* node = table.get(key);
    if (!node) fail_at(file, table, id, "missing " + std::string(key));
    return *node;
  };
  auto count = [&](std::string_view key) {
    return read_quantity(file, required(key), join_key(id, key), Unit::count);
  };
  PublishedRun run;
  run.id = id;
  run.name = read_string(file, required("name"), join_key(id, "name"));
  run.source = read_string(file, required("source"), join_key(id, "source"));
  if (const toml::node* note = table.get("note")) {
    run.note = read_string(file, *note, join_key(id, "note"));
  }
  const toml::node& hardware = required("hardware");
  run.hardware_id = read_string(file, hardware, join_key(id, "hardware"));
  const toml::node& precision = required("precision");
  try {
    run.precision = parse_precision(read_string(file, precision, join_key(id, "precision")));
    const Hardware& chip = find_hardware(chips, run.hardware_id);
    chip.peak_flop_per_second(run.precision);  // the chip computes in the run's format
  } catch (const InputError& e) {
    fail_at(file, table, id, e.what());
  }
  run.active_params = count("active_params");
  run.total_params = table.get("total_params") ? count("total_params") : run.active_params;
  run.tokens = count("tokens");
  run.gpu_hours = count("gpu_hours");
  if (table.get("sequence_tokens")) run.sequence_tokens = count("sequence_tokens");
  const bool has_dims = table.get("layers") || table.get("heads") || table.get("head_dim");
  if (const toml::node* model = table.get("model")) {
    if (has_dims) fail_at(file, table, id, "give the shape as model or as layers/heads/head_dim");
    try {
      run.attention_shape = architecture_preset(read_string(file, *model, join_key(id, "model")));
    } catch (const InputError& e) {
      fail_at(file, *model, join_key(id, "model"), e.what());
    }
  } else if (has_dims) {
    run.attention_shape =
        attention_only_shape(id, count("layers"), count("heads"), count("head_dim"));
  }
  try {
    run.validate(id);
  } catch (const InputError& e) {
    throw InputError(location(file, table) + ": " + e.what());  // e names the field
  }
  return run;
}

}  // namespace

std::vector<PublishedRun> builtin_training_runs() {
  const std::string name = "costmodel/data/training_runs.toml";
  const TomlDocument document = parse_toml_text(training_runs_catalog_toml(), name);
  const std::vector<Hardware> chips = builtin_hardware();
  std::vector<PublishedRun> runs;
  for (const auto& [key, node] : entries_in_file_order(document.table)) {
    runs.push_back(read_run(name, read_table(name, *node, key), key, chips));
  }
  return runs;
}

}  // namespace scaleopt
