#pragma once
// The one exception type for input a user can correct: a bad number, an unknown preset, an
// infeasible target. The CLI turns it into a one-line message and exit status 2; anything
// else escaping is a bug.

#include <stdexcept>
#include <string>

namespace scaleopt {

class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Prefixes a message with the field it concerns: "params: must be positive, got -1" (the
// library names its parameter; the command line shows it as the flag, cli/flags.hpp).
inline InputError field_error(const std::string& field, const std::string& what) {
  return InputError(field + ": " + what);
}

}  // namespace scaleopt
