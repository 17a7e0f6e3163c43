#pragma once
// `plot sweep`: a sweep file (scaleopt sweep --out) drawn as lines of one output against the
// varied input, one line per value of a second varied input, with axes named and formatted by
// what each column holds (the key registry for inputs, solve's keys for outputs).

#include <string>
#include <vector>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/plots/sweep_figure.hpp"

namespace scaleopt::report {

struct SweepChoice {
  std::string x;             // a varied input; empty: the first
  std::string y = "params";  // any column of numbers
  std::string series;        // a varied input, or "none"; empty: the second varied input, if any
  std::vector<plots::SweepMark> marks;  // points to draw as well (--mark), in the columns' units
};

// The axis of a column: "params" -> parameters as 24.2B; "cost.total.usd" -> $1.2M; an input
// path -> its registry unit and meaning ("inference.rate: tokens served per second").
plots::SweepAxis sweep_axis(const std::string& column);

// Rows whose status is not converged, or without a number in a chosen column, are left out
// (the title says how many). Throws InputError for an unknown column, a file that is not a
// sweep, no row to draw, or more marks or longer labels than solver/limits.hpp allows.
plots::Figure sweep_of(const std::string& csv, const SweepChoice& choice);

}  // namespace scaleopt::report
