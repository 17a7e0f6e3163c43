#pragma once
// Runs the real command line in-process and captures what it prints.

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "scaleopt/cli/app.hpp"

struct CliRun {
  int status;
  std::string out;
  std::string err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

inline CliRun run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int status = scaleopt::cli::run(args, out, err);
  return {status, out.str(), err.str()};
}

// `args` and then `more`: a command line with more flags.
inline std::vector<std::string> with(std::vector<std::string> args,
                                     const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// `run` without the warnings stderr starts with ("scaleopt: warning: KEY is ignored by ..."),
// which come before an error when the scenario has them.
inline CliRun without_warnings(CliRun run) {
  while (run.err.starts_with("scaleopt: warning: ")) {
    const std::size_t end = run.err.find('\n');
    run.err.erase(0, end == std::string::npos ? run.err.size() : end + 1);
  }
  return run;
}

// Bad input: exit 2, nothing on stdout, exactly one line on stderr.
inline bool is_one_line_error(const CliRun& run) {
  return run.status == 2 && run.out.empty() && !run.err.empty() &&
         run.err.find('\n') == run.err.size() - 1;
}
