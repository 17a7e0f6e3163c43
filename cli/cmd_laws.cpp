// scaleopt laws: the loss-law presets, their coefficients, sources and the tokens per
// parameter each implies, so users see which rule a law gives before they use it.

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/catalog_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

int run_laws(bool json, std::ostream& out) {
  const auto presets = loss_law_presets();
  if (json) {
    out << laws_json(presets).dump(2) << "\n";
    return kExitOk;
  }
  Table table("Loss-law presets: L(N, D) = E + A / N^alpha + B / D^beta");
  table.header({"name", "E", "A", "B", "alpha", "beta", "D/N at 1e24 FLOPs", "source"});
  for (const LossLaw& law : presets) {
    table.cells({law.name, format_quantity(law.E, Unit::number, 5),
                 format_quantity(law.A, Unit::number, 5), format_quantity(law.B, Unit::number, 6),
                 format_quantity(law.alpha, Unit::number, 4),
                 format_quantity(law.beta, Unit::number, 4),
                 format_quantity(tokens_per_param_at_reference(law), Unit::number, 3), law.source});
  }
  table.print(out);
  out << "The '20 tokens per parameter' rule is Hoffmann's Approach 1 (Table 3), not the printed\n"
         "Approach 3 fit (hoffmann2022). Use --tokens-per-param 20 for the rule.\n"
         "Which to use: hoffmann2022 for the law exactly as printed (its rounded exponents give\n"
         "57-122% more tokens than Hoffmann's own Table A3); hoffmann2022-a3 to reproduce Table "
         "A3's\n"
         "Approach 3 frontier (within 5% on every row; a refit of beta and B, not Hoffmann's);\n"
         "sardana2024 for the beyond-chinchilla numbers; epoch2024 (the default) for the refit of\n"
         "Hoffmann's data.\n";
  return kExitOk;
}

}  // namespace

void add_laws_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand("laws", "List the loss-law presets with their sources");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print one JSON object instead of a table");
  command->callback(
      [json, &chosen] { chosen = [json](std::ostream& out) { return run_laws(*json, out); }; });
}

}  // namespace scaleopt::cli
