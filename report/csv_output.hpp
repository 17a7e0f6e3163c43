#pragma once
// CSV from JSON rows: one line per object of an array, columns named like the objects' keys
// (those of the first row, in order), so that a CSV file and the --json output read alike.
// Numbers print with 17 significant digits (they read back as the same doubles), null as an
// empty field, text quoted when it holds a comma, a quote or a line break (RFC 4180).

#include <string>

#include "scaleopt/report/json_fwd.hpp"

namespace scaleopt::report {

// Throws InputError when `rows` is not an array of objects with the same keys.
std::string csv_from_rows(const Json& rows);

}  // namespace scaleopt::report
