// scaleopt models: the architecture presets, their parameters and KV bytes per token, derived
// from their public configs.

#include <memory>
#include <sstream>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/report/catalog_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

std::string attention_text(const Architecture& a) {
  if (!a.has_shape()) return "-";
  std::string text(to_string(a.attention));
  if (a.has_layer_pattern()) {
    text += " + compressed, top-" + format_quantity(a.sparse_top_k, Unit::number, 6);
  } else if (a.sparse_top_k > 0.0) {
    text += " + sparse top-" + format_quantity(a.sparse_top_k, Unit::number, 6);
  }
  return text;
}

// "fp8 (experts 0.5 B) / fp8+bf16 RoPE KV".
std::string shipped_text(const ShippedFormats& f) {
  std::ostringstream text;
  text << to_string(f.weights);
  if (f.routed_expert_bytes_per_param) {
    text << " (experts " << *f.routed_expert_bytes_per_param << " B)";
  }
  text << " / " << to_string(f.kv)
       << (f.kv_rope ? "+" + std::string(to_string(*f.kv_rope)) + " RoPE" : "") << " KV";
  return text.str();
}

int run_models(bool json, std::ostream& out) {
  const auto presets = architecture_presets();
  if (json) {
    out << models_json(presets).dump(2) << "\n";
    return kExitOk;
  }
  Table table("Model presets");
  table.header({"name", "total params", "active params", "layers", "attention", "ships as",
                "KV bytes/token (as shipped)"});
  for (const Architecture& a : presets) {
    table.cells({a.name, format_quantity(a.total_param_count(), Unit::count, 4),
                 format_quantity(a.active_param_count(), Unit::count, 4),
                 a.has_shape() ? format_quantity(a.layers, Unit::number) : "-", attention_text(a),
                 a.shipped ? shipped_text(*a.shipped) : "- (bf16 assumed)",
                 a.kv_bytes_per_token
                     ? format_quantity(*a.kv_bytes_per_token, Unit::bytes, 4) + " (given)"
                     : format_quantity(shipped_kv_bytes_per_token(a), Unit::bytes, 4)});
  }
  table.print(out);
  out << "KV bytes per token as the context grows (windows full): K/V rows and the sparse "
         "indexer's keys, as every command counts them; layers by layer_pattern:\n";
  for (const Architecture& a : presets) {
    if (a.has_layer_pattern()) {
      out << "  " << a.name << ": " << format_layer_pattern(a.layer_pattern) << "\n";
    }
  }
  out << "Sources:\n";
  for (const Architecture& a : presets) out << "  " << a.name << ": " << a.source << "\n";
  return kExitOk;
}

}  // namespace

void add_models_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "models", "List the model presets: parameters, attention, KV bytes per token, sources");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print one JSON object instead of a table");
  command->footer(
      "Parameters include both embedding matrices, as model cards count them; KV bytes are\n"
      "2 * layers * kv_heads * head_dim * bytes (GQA) or layers * (kv_latent + rope) * bytes\n"
      "(MLA); a layer compressing C tokens into one entry counts 1/C (docs/model.md).\n"
      "Examples:\n"
      "  scaleopt models\n"
      "  scaleopt models --json\n");
  command->callback(
      [json, &chosen] { chosen = [json](std::ostream& out) { return run_models(*json, out); }; });
}

}  // namespace scaleopt::cli
