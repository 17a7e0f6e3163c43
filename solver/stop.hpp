#pragma once
// Stopping long work at a front end's request (Ctrl-C in Python, a client that went away): the
// work asks a StopCheck between its steps (an objective evaluation, a start, a sample, a sweep
// point, a block of stress instances) and, once it says true, throws Interrupted. The exception
// unwinds every thread of the work (parallel_for rethrows it once all have joined), so nothing
// half-made is returned and the caller has nothing to clean up.
//
// The check is a function rather than a flag so that a front end can look for its own signal
// while it is asked: the Python module runs its signal handlers from it, on the thread that
// called the library (python/_scaleopt.cpp). It may be called from several threads at once.

#include <functional>
#include <stdexcept>

namespace scaleopt {

// Whether to stop now. Empty: never.
using StopCheck = std::function<bool()>;

// Thrown by work whose StopCheck said true. Not an InputError: the input was fine.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

inline void throw_if_stopped(const StopCheck& stop) {
  if (stop && stop()) throw Interrupted();
}

}  // namespace scaleopt
