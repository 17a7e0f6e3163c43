#pragma once
// The scaleopt command line, callable in-process (tests, fuzzers) as well as from main().

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "scaleopt/problems/fit/training_run.hpp"
#include "scaleopt/solver/stop.hpp"

namespace scaleopt::cli {

// Exit statuses: 0 answer printed; 1 the solver did not converge (the status is printed,
// never an "optimal" answer); 2 bad input or an infeasible question (one line on `err`,
// nothing on `out`).
inline constexpr int kExitOk = 0;
inline constexpr int kExitNotConverged = 1;
inline constexpr int kExitBadInput = 2;

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// What an in-process caller (the Python module) gives a command beyond its arguments.
struct RunContext {
  // Asked between the steps of long work (optimal, fit, sensitivity, uncertainty, selftest:
  // solver/stop.hpp); once it says true the command throws Interrupted out of run(), having
  // printed nothing. Empty: never.
  StopCheck stop{};
  // fit: the runs to fit, in place of reading RUNS.csv, which then only names them.
  std::optional<std::vector<TrainingRun>> runs;
};

// Same, with the arguments after the program name. An argument holding a NUL byte is refused
// (exit 2): as a C string it would be cut short there and read as something else.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const RunContext& context = {});

}  // namespace scaleopt::cli
