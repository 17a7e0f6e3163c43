#pragma once
#include <string_view>

namespace scaleopt {

// How sure a result is. Only `converged` answers are printed as optimal.
enum class Status {
  converged,         // constraints met and KKT conditions verified to tolerance
  infeasible,        // no point satisfies the constraints; the message says why
  not_converged,     // the optimiser stopped without a verified optimum
  invalid_input,     // the problem or the options are malformed; the message names the field
  not_identifiable,  // the data cannot determine the answer (a fit): the message says why
};

std::string_view to_string(Status status);

}  // namespace scaleopt
