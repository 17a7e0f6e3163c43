#include "scaleopt/solver/status.hpp"

namespace scaleopt {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::converged:
      return "converged";
    case Status::infeasible:
      return "infeasible";
    case Status::not_converged:
      return "not_converged";
    case Status::invalid_input:
      return "invalid_input";
    case Status::not_identifiable:
      return "not_identifiable";
  }
  return "unknown";
}

}  // namespace scaleopt
