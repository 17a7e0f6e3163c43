#include "scaleopt/cli/solver_flags.hpp"

#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"

namespace scaleopt::cli {
namespace {

// A tolerance in (0, 1): `what` says what it bounds.
CLI::Validator relative_tolerance_check(const char* what) {
  return CLI::Validator(
      [what](const std::string& text) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(text, value)) return "expected a number, got " + text;
        if (!(value > 0.0 && value < 1.0)) {
          return std::string("must be above 0 and below 1 (") + what + "), got " + text;
        }
        return "";
      },
      "in (0, 1)");
}

}  // namespace

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
      ->type_name("COUNT")
      ->transform(count_check(1, kMaxEvaluations))
      ->group("Solver");
  command.add_option("--starts", options.starts, "Start points (the best verified answer wins)")
      ->default_str(std::to_string(options.starts))
      ->type_name("COUNT")
      ->transform(count_check(1, kMaxStarts))
      ->group("Solver");
  command
      .add_option("--kkt-tolerance", options.kkt_tolerance,
                  "Largest relative KKT residual accepted as converged")
      ->default_str("1e-7")
      ->type_name("NUMBER")
      ->check(relative_tolerance_check("a relative residual"))
      ->group("Solver");
  command
      .add_option("--reference-tolerance", options.reference_tolerance,
                  "Largest relative difference from the independent method (the 1-D reduction) "
                  "accepted as agreement; beyond it the answer is not converged")
      ->default_str("1e-8")
      ->type_name("NUMBER")
      ->check(relative_tolerance_check("a relative difference"))
      ->group("Solver");
  // A callback rather than a bool flag bound with "!": CLI11 would show the negation in --help
  // as "--no-polish{false}".
  command
      .add_flag_callback(
          "--no-polish", [&options] { options.polish = false; },
          "Skip the Newton polish of the KKT conditions after NLopt (SLSQP alone stalls "
          "~1e-8 from the optimum)")
      ->group("Solver");
}

}  // namespace scaleopt::cli
