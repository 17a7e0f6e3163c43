#pragma once
// Running another program (gnuplot, chromium) and waiting for it. Only cli/ starts processes.

#include <string>
#include <vector>

namespace scaleopt::report {

struct ProcessOptions {
  // Seconds before the program (and its process group) is killed; 0 waits for ever.
  double timeout_seconds = 120.0;
  // At most this many bytes of the program's output are kept (its first ones).
  std::size_t max_output_bytes = 64 * 1024;
  // Keep stderr with stdout (true), or discard it (chromium logs to stderr while it prints
  // the page on stdout).
  bool keep_stderr = true;
  // "NAME=VALUE" entries set in the program's environment, each replacing the variable of that
  // name inherited from ours (the rest is inherited as it is).
  std::vector<std::string> environment;
};

struct ProcessResult {
  bool started = false;     // false: the program was not found on PATH (or could not run)
  std::string start_error;  // why it did not start (strerror of posix_spawnp)
  int exit_status = -1;     // the program's exit status when it exited normally
  bool timed_out = false;
  std::string output;  // stdout and (keep_stderr) stderr, interleaved as written
  bool succeeded() const { return started && !timed_out && exit_status == 0; }
};

// Runs `program` (looked up on PATH) with `arguments` (argv[1..]), stdin from /dev/null, in its
// own process group. Never throws for the program's failures: the result says what happened.
ProcessResult run_program(const std::string& program, const std::vector<std::string>& arguments,
                          const ProcessOptions& options = {});

// Whether `program` is an executable file in a directory of PATH.
bool on_path(const std::string& program);

}  // namespace scaleopt::report
