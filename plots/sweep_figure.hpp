#pragma once
// A sweep as lines: one output of the optimum (y) against the varied input (x), one line per
// value of a second varied input (the series). Axes turn logarithmic when every value is
// positive and they span at least 30x (a sweep over a log grid). The lowest y is marked and
// labelled when it is an interior minimum (lower than the points on both sides of it on its
// line); at the first or last point of its line it is an end of the swept range, not an
// optimum (a curve that only falls, say): nothing is marked, and the key and the figure's
// notes say so. Points the reader brings (a published claim) are marked too.

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "scaleopt/plots/figure.hpp"

namespace scaleopt::plots {

struct SweepLine {
  double series = 0.0;                            // the second input's value (NaN: a single line)
  std::vector<std::pair<double, double>> points;  // (x, y), in increasing x
};

struct SweepAxis {
  std::string name;                           // "inference.requests"
  std::string label;                          // "inference.requests: lifetime requests (count)"
  std::function<std::string(double)> format;  // tics and labels: "1e12", "2T", "$1.2M"
};

// A point drawn over the lines with its label, e.g. a published claim: (0.02 s, 100x).
struct SweepMark {
  double x = 0.0;  // in the x column's units
  double y = 0.0;  // in the y column's units
  std::string label;
};

struct SweepText {
  std::string title;
  std::string assumptions;  // second title line: the file, rows drawn and left out
  SweepAxis x, y, series;   // series.name empty: one line
  // A sweep marks its lowest y (when interior); a figure of shares (plot rl-shares) marks none
  // and keeps y linear, since its lows are no answer and its values may span decades towards
  // zero.
  bool mark_lowest = true;
  bool log_y_allowed = true;
  std::vector<SweepMark> marks;  // drawn as well; the axes widen to hold them
};

// Lines with their points (rows of one series, sorted by x) from rows of (x, y, series).
std::vector<SweepLine> sweep_lines(const std::vector<std::array<double, 3>>& rows);

// Where the lowest y of `lines` is: on which line, at which point, and whether it is interior
// (neither end of its line, and strictly lower than the points on both sides).
struct SweepLowest {
  std::size_t line = 0;
  std::size_t point = 0;
  bool interior = false;
};
// Throws InputError when no line has a point.
SweepLowest sweep_lowest(const std::vector<SweepLine>& lines);

// Why a sweep without an interior minimum marks none: "params falls over the whole range of
// inference.requests: no interior minimum" ("never rises" when some steps are level; rises,
// never falls, is constant; or, when the lines neither all fall nor all rise, "lowest params
// at an end of the range ..."). Empty when the lowest point is interior.
std::string no_minimum_note(const std::vector<SweepLine>& lines, const SweepText& text);

// Throws InputError when no line has a point.
Figure sweep_figure(const std::vector<SweepLine>& lines, const SweepText& text);

// Whether values (all > 0) span at least `ratio` (a log axis reads them better).
bool spans_decades(const std::vector<double>& values, double ratio = 30.0);

}  // namespace scaleopt::plots
