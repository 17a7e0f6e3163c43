// scaleopt laws: the loss-law presets, their coefficients, sources and the tokens per
// parameter each implies, so users see which rule a law gives before they use it.

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

constexpr double kReferenceComputeFlops = 1e24;

double tokens_per_param_at_reference(const LossLaw& law) {
  const auto allocation =
      compute_optimal_allocation(coefficients_of<double>(law), kReferenceComputeFlops);
  return allocation.tokens / allocation.params;
}

int run_laws(bool json, std::ostream& out) {
  const auto presets = loss_law_presets();
  if (json) {
    Json list = Json::array();
    for (const LossLaw& law : presets) {
      Json entry = law_json(law);
      entry["tokens_per_param_at_1e24_flops"] = tokens_per_param_at_reference(law);
      list.push_back(entry);
    }
    out << list.dump(2) << "\n";
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
  command->add_flag("--json", *json, "Print a JSON array instead of a table");
  command->callback(
      [json, &chosen] { chosen = [json](std::ostream& out) { return run_laws(*json, out); }; });
}

}  // namespace scaleopt::cli
