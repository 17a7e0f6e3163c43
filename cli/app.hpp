#pragma once
// The scaleopt command line, callable in-process (tests, fuzzers) as well as from main().

#include <ostream>
#include <string>
#include <vector>

namespace scaleopt::cli {

// Exit statuses: 0 answer printed; 1 the solver did not converge (the status is printed,
// never an "optimal" answer); 2 bad input or an infeasible question (one line on `err`,
// nothing on `out`).
inline constexpr int kExitOk = 0;
inline constexpr int kExitNotConverged = 1;
inline constexpr int kExitBadInput = 2;

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// Same, with the arguments after the program name.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace scaleopt::cli
