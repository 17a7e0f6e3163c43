#include "scaleopt/cli/solver_flags.hpp"

namespace scaleopt::cli {

void add_solver_flags(CLI::App& command, SolverOptions& options) {
  command
      .add_option("--algorithm", options.algorithm,
                  "NLopt algorithm: LD_SLSQP, LN_COBYLA (equality constraints) ...")
      ->default_str(options.algorithm)
      ->type_name("NAME")
      ->group("Solver");
  command
      .add_option("--max-evaluations", options.max_evaluations,
                  "Objective evaluations allowed per start")
      ->default_str(std::to_string(options.max_evaluations))
      ->group("Solver");
  command.add_option("--starts", options.starts, "Start points (the best verified answer wins)")
      ->default_str(std::to_string(options.starts))
      ->group("Solver");
  command
      .add_option("--kkt-tolerance", options.kkt_tolerance,
                  "Largest relative KKT residual accepted as converged")
      ->default_str("1e-7")
      ->group("Solver");
  command
      .add_flag("!--no-polish", options.polish,
                "Skip the Newton polish of the KKT conditions after NLopt (SLSQP alone stalls "
                "~1e-8 from the optimum)")
      ->group("Solver");
}

}  // namespace scaleopt::cli
