#pragma once
// How a subcommand plugs into the app: it registers its options on a CLI11 subcommand and,
// when chosen, leaves behind the action to run once parsing is over. Actions write to a
// buffer that reaches stdout only if they finish, so a failed command prints nothing there.

#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>

namespace scaleopt::cli {

// Returns the exit status (kExitOk or kExitNotConverged); throws InputError for bad input.
using Action = std::function<int(std::ostream& out)>;

// Each command file defines one of these.
void add_laws_command(CLI::App& app, Action& chosen);
void add_optimal_command(CLI::App& app, Action& chosen);
void add_loss_command(CLI::App& app, Action& chosen);
void add_hardware_command(CLI::App& app, Action& chosen);
void add_models_command(CLI::App& app, Action& chosen);
void add_roofline_command(CLI::App& app, Action& chosen);
void add_cost_command(CLI::App& app, Action& chosen);
void add_solve_command(CLI::App& app, Action& chosen);
void add_fit_command(CLI::App& app, Action& chosen);
void add_pricing_command(CLI::App& app, Action& chosen);
void add_sweep_command(CLI::App& app, Action& chosen);
void add_merge_command(CLI::App& app, Action& chosen);
void add_sensitivity_command(CLI::App& app, Action& chosen);
void add_uncertainty_command(CLI::App& app, Action& chosen);
void add_plot_command(CLI::App& app, Action& chosen);
void add_report_command(CLI::App& app, Action& chosen);
void add_selftest_command(CLI::App& app, Action& chosen);

}  // namespace scaleopt::cli
