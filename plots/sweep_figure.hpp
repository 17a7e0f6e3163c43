#pragma once
// A sweep as lines: one output of the optimum (y) against the varied input (x), one line per
// value of a second varied input (the series). Axes turn logarithmic when every value is
// positive and they span at least 30x (a sweep over a log grid). The lowest y is marked and
// labelled; points the reader brings (a published claim to compare against) are marked too.

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
  // A sweep marks its lowest y; a figure of shares (plot rl-shares) marks none and keeps y
  // linear, since its lows are no answer and its values may span decades towards zero.
  bool mark_lowest = true;
  bool log_y_allowed = true;
  std::vector<SweepMark> marks;  // drawn as well; the axes widen to hold them
};

// Lines with their points (rows of one series, sorted by x) from rows of (x, y, series).
std::vector<SweepLine> sweep_lines(const std::vector<std::array<double, 3>>& rows);

// Throws InputError when no line has a point.
Figure sweep_figure(const std::vector<SweepLine>& lines, const SweepText& text);

// Whether values (all > 0) span at least `ratio` (a log axis reads them better).
bool spans_decades(const std::vector<double>& values, double ratio = 30.0);

}  // namespace scaleopt::plots
