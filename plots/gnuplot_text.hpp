#pragma once
// Pieces of gnuplot scripts: strings, numbers, data tables and tic marks whose labels are
// printed the way scaleopt prints numbers (1e12 or 2T, $1.2B: costmodel/quantity.hpp).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt::plots {

// Text from inputs (names, file names, CSV columns) reaches gnuplot scripts, so every string a
// script holds is written here, and gnuplot reads it back literally: no text is ever run.
// gnuplot runs `command` inside double-quoted strings (and anywhere on a line outside
// quotes), and expands @name outside quotes, so text goes in single quotes, where nothing is
// special but the quote. A quote, an '@' and a line break (a single-quoted string cannot span
// lines) are pieces of their own, escapes in double quotes that hold nothing else:
// 'it'."\047".'s', 'a'."\n".'b'. gnuplot takes such a concatenation wherever a string goes
// (set title/label/xlabel/output, cd, key titles, tic labels, plot file names: tested).
// Scripts use the noenhanced terminals, so no character of the text is markup either.

// Text as a figure shows it: a line break is kept; NUL and every other control character
// (C0 and DEL: not allowed in the SVG's XML, and gnuplot reads lines as C strings) becomes a
// space; a byte that is not valid UTF-8 (and U+FFFE, U+FFFF) becomes U+FFFD; "]]>", which XML
// forbids in text and gnuplot's SVG leaves as it is, gets an invisible U+200B before its '>'.
// So the SVG gnuplot writes stays well-formed whatever the input.
std::string figure_text(std::string_view text);

// A gnuplot string expression that reads back as figure_text(text).
std::string gnuplot_string(std::string_view text);

// A file name as a gnuplot string expression that reads back as exactly `path` (every byte
// but NUL, which no path holds: InputError). Not cleaned like figure text: gnuplot must open
// the very file. A relative name starting with '|' (which `set output` would run as a
// command) gets "./" in front.
std::string gnuplot_path(std::string_view path);

// A label of `set xtics ('label' position)`: gnuplot uses it as a printf format for the tic's
// value, so '%' is doubled as well ("12%" would fail, "%s" would print the value). Such a label
// is cut at 49 bytes when it holds a '%': for numbers only. Text from inputs on an axis comes
// from a data file instead (`using ...:ytic(3)`), which gnuplot shows as it is.
std::string gnuplot_tic_label(std::string_view text);

// A text cell of a data file, figure_text(text) in double quotes: a backslash as \\, a line
// break as \n, a quote as \042 (gnuplot's reader ends a cell at the first '"' whatever comes
// before it, then reads these escapes), and a digit 0-7 right after that as an octal escape
// too (gnuplot reads every octal digit after a backslash: "\0427" would be one character). gnuplot
// never evaluates a data file: nothing there runs.
std::string data_string(std::string_view text);

// `text` broken into lines of at most `width` characters after "; " (a title's list of
// assumptions); a part longer than `width` keeps its own line.
std::string wrap_list(std::string_view text, std::size_t width = 110);

// A number as a script or data file holds it: 10 significant digits, no locale.
std::string number(double value);

// A data file: a '#' line naming the columns (figure_text on one line), then one line per row.
// Text cells are data_string.
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

// A count (tokens, parameters, requests) as figures print it: format_quantity's suffixes up to
// T (24.2B, 100T), then the exponent form (1e15, 3.2e16), as the answers print token counts
// beside their suffix form: a "P" on an axis of tokens reads as a typo.
std::string count_text(double value, int significant = 3);

// "set xtics (...)" on a log axis from `low` to `high` (> 0): a labelled tic at every power of
// ten (every second or third one when there are many), labelled by format_quantity in `unit`
// (count_text for counts) (or by `label`), and unlabelled minor tics at 2..9 times each power.
// `axis` is "x", "y", "x2" or "y2".
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
