#pragma once
// How a subcommand plugs into the app: it registers its options on a CLI11 subcommand and,
// when chosen, leaves behind the action to run once parsing is over. Actions write to a
// buffer that reaches stdout only if they finish, so a failed command prints nothing there.

#include <CLI/CLI.hpp>
#include <concepts>
#include <functional>
#include <ostream>

#include "scaleopt/cli/app.hpp"

namespace scaleopt::cli {

// Returns the exit status (kExitOk or kExitNotConverged); throws InputError for bad input.
// Most actions only answer (`out`); one that must warn before long work (a sweep's estimated
// output size) takes `notes` too, which reaches stderr at once, while `out` waits for the end;
// one that does long work takes the caller's RunContext too (its stop check, given runs).
class Action {
 public:
  Action() = default;
  // Implicit, so that a command assigns its lambda: `chosen = [args](std::ostream& out) {...}`.
  template <class F>
  requires std::invocable<F&, std::ostream&> Action(F f)
      : run_([f = std::move(f)](std::ostream& out, std::ostream&, const RunContext&) mutable {
          return f(out);
        }) {}
  template <class F>
  requires std::invocable<F&, std::ostream&, std::ostream&> Action(F f)
      : run_([f = std::move(f)](std::ostream& out, std::ostream& notes, const RunContext&) mutable {
          return f(out, notes);
        }) {}
  template <class F>
  requires std::invocable<F&, std::ostream&, std::ostream&, const RunContext&> Action(F f)
      : run_(std::move(f)) {}

  explicit operator bool() const { return static_cast<bool>(run_); }
  int operator()(std::ostream& out, std::ostream& notes, const RunContext& context) const {
    return run_(out, notes, context);
  }

 private:
  std::function<int(std::ostream& out, std::ostream& notes, const RunContext& context)> run_;
};

// Each command file defines one of these.
void add_laws_command(CLI::App& app, Action& chosen);
void add_optimal_command(CLI::App& app, Action& chosen);
void add_loss_command(CLI::App& app, Action& chosen);
void add_hardware_command(CLI::App& app, Action& chosen);
void add_models_command(CLI::App& app, Action& chosen);
void add_training_runs_command(CLI::App& app, Action& chosen);
void add_roofline_command(CLI::App& app, Action& chosen);
void add_cost_command(CLI::App& app, Action& chosen);
void add_solve_command(CLI::App& app, Action& chosen);
void add_compare_command(CLI::App& app, Action& chosen);
void add_fit_command(CLI::App& app, Action& chosen);
void add_pricing_command(CLI::App& app, Action& chosen);
void add_sweep_command(CLI::App& app, Action& chosen);
void add_merge_command(CLI::App& app, Action& chosen);
void add_sensitivity_command(CLI::App& app, Action& chosen);
void add_uncertainty_command(CLI::App& app, Action& chosen);
void add_plot_command(CLI::App& app, Action& chosen);
void add_report_command(CLI::App& app, Action& chosen);
void add_selftest_command(CLI::App& app, Action& chosen);
void add_serve_command(CLI::App& app, Action& chosen);

}  // namespace scaleopt::cli
