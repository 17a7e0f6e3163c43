// scaleopt laws: the loss-law presets, their coefficients, sources and the tokens per
// parameter each implies, then the joint dense/MoE presets with their form and the runs they
// were fitted on, so users see which rule a law gives, and how far it reaches, before they use
// it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/catalog_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

// "N_act 79M to 2.7B, D 500M to 80B, experts 1 to 32": the runs a joint law was fitted on, or
// what of them is not known.
std::string joint_range_text(const JointLossLaw& law) {
  if (!law.fitted_range) return "not known";
  const FittedRange& range = *law.fitted_range;
  const auto span = [](const char* name, const std::optional<double>& low,
                       const std::optional<double>& high, Unit unit) {
    const auto text = [unit](const std::optional<double>& value) {
      return value ? format_quantity(*value, unit, 3) : std::string("?");
    };
    return std::string(name) + " " + text(low) + " to " + text(high);
  };
  return span("N_act", range.min_params, range.max_params, Unit::count) + ", " +
         span("D", range.min_tokens, range.max_tokens, Unit::count) + ", " +
         span("experts", range.min_experts, range.max_experts, Unit::number);
}

void print_joint_laws(const std::vector<JointLossLaw>& presets, std::ostream& out) {
  Table table(std::string("Joint dense/MoE presets: ") + kJointLawFormula +
              ", E^ of E experts by Eq. 4 (E_start, E_max)");
  table.header({"name", "E", "a", "b", "alpha", "beta", "delta", "gamma", "omega", "zeta",
                "E_start", "E_max"});
  for (const JointLossLaw& law : presets) {
    std::vector<std::string> cells{law.name};
    for (const double value : law.coefficients()) {
      cells.push_back(format_quantity(value, Unit::number, 4));
    }
    cells.push_back(format_quantity(law.experts_start, Unit::number, 5));
    cells.push_back(format_quantity(law.experts_max, Unit::number, 7));
    table.cells(std::move(cells));
  }
  table.print(out);
  for (const JointLossLaw& law : presets) {
    out << wrap_words(law.name + ": fitted on " + joint_range_text(law) + "; " + law.source);
  }
  out << "Named as a law of N and D alone (--law, law.preset) a joint preset is its dense form\n"
         "(1 expert); in a scenario law.experts, or the architecture's experts, set E.\n";
}

int run_laws(bool json, std::ostream& out) {
  const auto presets = loss_law_presets();
  const auto joint_presets = joint_loss_law_presets();
  if (json) {
    out << laws_json(presets, joint_presets).dump(2) << "\n";
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
         "Hoffmann's data.\n\n";
  print_joint_laws(joint_presets, out);
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
