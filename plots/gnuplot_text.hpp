#pragma once
// Pieces of gnuplot scripts: strings, numbers, data tables and tic marks whose labels are
// printed the way scaleopt prints numbers (1e12 or 2T, $1.2B: costmodel/quantity.hpp).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "costmodel/quantity.hpp"

namespace scaleopt::plots {

// A double-quoted gnuplot string: backslash and quote escaped, a line break as \n. Scripts use
// the noenhanced terminals, so no other character is special.
std::string gnuplot_string(std::string_view text);

// `text` broken into lines of at most `width` characters after "; " (a title's list of
// assumptions); a part longer than `width` keeps its own line.
std::string wrap_list(std::string_view text, std::size_t width = 110);

// A number as a script or data file holds it: 10 significant digits, no locale.
std::string number(double value);

// A data file: a '#' line naming the columns, then one line per row. Text cells are quoted.
struct DataTable {
  std::vector<std::string> columns;
  std::string text;  // the rows so far
  explicit DataTable(std::vector<std::string> names);
  DataTable& row(const std::vector<double>& values);
  // A text cell after `values`, then `after`.
  DataTable& row(const std::vector<double>& values, std::string_view label,
                 const std::vector<double>& after = {});
  DataTable& blank();     // a blank line: gnuplot breaks the line there (same data set)
  DataTable& next_set();  // two blank lines: the rows after are the next `index` of the file
  std::string file() const;
};

// "set xtics (...)" on a log axis from `low` to `high` (> 0): a labelled tic at every power of
// ten (every second or third one when there are many), labelled by format_quantity in `unit`
// (or by `label`), and unlabelled minor tics at 2..9 times each power. `axis` is "x", "y",
// "x2" or "y2".
std::string log_tics(std::string_view axis, double low, double high, Unit unit,
                     int significant = 3);
std::string log_tics(std::string_view axis, double low, double high,
                     const std::function<std::string(double)>& label);

// "set xrange [...]" for a log axis from `low` to `high`, a hair wider (1e-9 relative) so
// that gnuplot keeps the tics that sit exactly on the ends (rounding may drop them otherwise).
std::string log_range(std::string_view axis, double low, double high);

// "set ytics (...)" on a linear axis from `low` (0 by default) to `high`: about `count`
// labelled tics at multiples of a step of 1, 2 or 5 times a power of ten, each labelled by
// `label`.
std::string linear_tics(std::string_view axis, double high,
                        const std::function<std::string(double)>& label, int count = 6);
std::string linear_tics(std::string_view axis, double low, double high,
                        const std::function<std::string(double)>& label, int count = 6);

// "plot A, \\" + newline + "     B": one plot command from its clauses (file and style each); ""
// when there are none.
std::string plot_command(const std::vector<std::string>& clauses);

// The step of linear_tics (exposed for tests and ranges).
double nice_step(double high, int count);

}  // namespace scaleopt::plots
