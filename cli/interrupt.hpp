#pragma once
// Stopping a long command cleanly on SIGINT (Ctrl-C) or SIGTERM (what Slurm sends before a
// time limit): while a guard lives, the signals only set a flag, which the work checks between
// points; the command then writes what it has and exits. The handler does nothing else (no
// printing, no allocation: only async-signal-safe work is allowed there).
//
// The flag is the one piece of process-wide mutable state in scaleopt: a signal handler can
// reach nothing else.

#include <csignal>

namespace scaleopt::cli {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers and clears the flag
  ~InterruptGuard();  // restores the previous handlers
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // Whether SIGINT or SIGTERM arrived since the guard was made.
  static bool interrupted();

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

// The exit status of a command stopped by a signal (128 + SIGINT, as shells report it).
inline constexpr int kExitInterrupted = 130;

}  // namespace scaleopt::cli
