#include "scaleopt/plots/sweep_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"

namespace scaleopt::plots {
namespace {

struct Range {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  std::vector<double> values;
  void add(double v) {
    low = std::min(low, v);
    high = std::max(high, v);
    values.push_back(v);
  }
};

// The axis commands: log (whole decades around the values) or linear (with 5% room).
std::string axis_commands(std::string_view axis, const Range& range, const SweepAxis& text,
                          bool log_allowed = true) {
  std::string c = "set " + std::string(axis) + "label " + gnuplot_string(text.label) + "\n";
  if (log_allowed && spans_decades(range.values)) {
    const double low = std::pow(10.0, std::floor(std::log10(range.low)));
    const double high = std::pow(10.0, std::ceil(std::log10(range.high)));
    c += "set logscale " + std::string(axis) + "\n";
    c += log_range(axis, low, high);
    c += log_tics(axis, low, high, text.format);
    return c;
  }
  const double pad = range.high > range.low ? 0.05 * (range.high - range.low)
                                            : 0.05 * std::max(std::fabs(range.high), 1.0);
  const double low = range.low >= 0.0 && range.low - pad < 0.0 ? 0.0 : range.low - pad;
  const double high = range.high + pad;
  c += "set " + std::string(axis) + "range [" + number(low) + ":" + number(high) + "]\n";
  c += linear_tics(axis, low, high, text.format);
  return c;
}

// Where `value` sits along an axis over `range`, from 0 (its low end) to 1, in the axis's
// own scale (logarithmic when the values span decades).
double axis_fraction(double value, const Range& range) {
  if (!(range.high > range.low)) return 0.5;
  return spans_decades(range.values)
             ? std::log(value / range.low) / std::log(range.high / range.low)
             : (value - range.low) / (range.high - range.low);
}

// The reader's points: a filled diamond each, its label to the right, or to the left for a
// point in the right third so that the label stays inside the plot. Labels 10 on: 1 and 2 are
// the lowest point's.
std::string mark_commands(const std::vector<SweepMark>& marks, const Range& xs) {
  std::string c;
  for (std::size_t i = 0; i < marks.size(); ++i) {
    const bool left = axis_fraction(marks[i].x, xs) > 2.0 / 3.0;
    c += "set label " + std::to_string(10 + i) + " " + gnuplot_string(marks[i].label) + " at " +
         number(marks[i].x) + "," + number(marks[i].y) + (left ? " right" : " left") +
         " point pt 13 ps 2.2 lc rgb '#1f3b73' offset char " + (left ? "-1.5" : "1.5") +
         ",0 tc rgb '#1f3b73' front boxed\n";
  }
  return c;
}

}  // namespace

bool spans_decades(const std::vector<double>& values, double ratio) {
  if (values.empty()) return false;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return *low > 0.0 && *high / *low >= ratio;
}

std::vector<SweepLine> sweep_lines(const std::vector<std::array<double, 3>>& rows) {
  std::vector<SweepLine> lines;
  for (const std::array<double, 3>& row : rows) {
    // Not a structured binding: clang before 16 cannot capture one in a lambda.
    const double series = row[2];
    auto line = std::find_if(lines.begin(), lines.end(), [&](const SweepLine& l) {
      return (std::isnan(series) && std::isnan(l.series)) || l.series == series;
    });
    if (line == lines.end()) {
      lines.push_back({series, {}});
      line = lines.end() - 1;
    }
    line->points.emplace_back(row[0], row[1]);
  }
  for (SweepLine& line : lines) std::sort(line.points.begin(), line.points.end());
  std::sort(lines.begin(), lines.end(),
            [](const SweepLine& a, const SweepLine& b) { return a.series < b.series; });
  return lines;
}

SweepLowest sweep_lowest(const std::vector<SweepLine>& lines) {
  SweepLowest lowest;
  double low = INFINITY;
  bool found = false;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    for (std::size_t p = 0; p < lines[l].points.size(); ++p) {
      if (!found || lines[l].points[p].second < low) {
        low = lines[l].points[p].second;
        lowest.line = l;
        lowest.point = p;
        found = true;
      }
    }
  }
  if (!found) throw InputError("sweep: no row to draw");
  const auto& points = lines[lowest.line].points;
  const std::size_t p = lowest.point;
  lowest.interior =
      p > 0 && p + 1 < points.size() && points[p - 1].second > low && points[p + 1].second > low;
  return lowest;
}

std::string no_minimum_note(const std::vector<SweepLine>& lines, const SweepText& text) {
  const SweepLowest lowest = sweep_lowest(lines);
  if (lowest.interior) return "";
  bool all_fall = true, all_rise = true, level = false;  // level: a step without change
  std::size_t most_points = 0;
  for (const SweepLine& line : lines) {
    most_points = std::max(most_points, line.points.size());
    for (std::size_t i = 1; i < line.points.size(); ++i) {
      if (line.points[i].second > line.points[i - 1].second) all_fall = false;
      if (line.points[i].second < line.points[i - 1].second) all_rise = false;
      if (line.points[i].second == line.points[i - 1].second) level = true;
    }
  }
  const std::string& y = text.y.name;
  const std::string range = " over the whole range of " + text.x.name +
                            (lines.size() > 1 && !text.series.name.empty() ? " on every line" : "");
  const std::string why = ": no interior minimum";
  if (most_points < 3) return "fewer than 3 points along " + text.x.name + why;
  if (all_fall && all_rise) return y + " is constant" + range + why;
  if (all_fall) return y + (level ? " never rises" : " falls") + range + why;
  if (all_rise) return y + (level ? " never falls" : " rises") + range + why;
  const double x = lines[lowest.line].points[lowest.point].first;
  return "lowest " + y + " at an end of the range of " + text.x.name + " (" + text.x.name + " = " +
         text.x.format(x) + ")" + why;
}

Figure sweep_figure(const std::vector<SweepLine>& lines, const SweepText& text) {
  Range xs, ys;
  for (const SweepLine& line : lines) {
    for (const auto& [x, y] : line.points) {
      xs.add(x);
      ys.add(y);
    }
  }
  if (xs.values.empty()) throw InputError("sweep: no row to draw");
  const SweepLowest where = sweep_lowest(lines);
  const std::pair<double, double> lowest = lines[where.line].points[where.point];
  const double lowest_series = lines[where.line].series;
  for (const SweepMark& mark : text.marks) {
    if (!std::isfinite(mark.x) || !std::isfinite(mark.y)) {
      throw InputError("marks: the point needs finite x and y");
    }
    xs.add(mark.x);
    ys.add(mark.y);
  }

  Figure figure;
  figure.name = "sweep";
  figure.width = 1000;
  figure.height = 680;
  DataTable table(
      {text.x.name, text.y.name, text.series.name.empty() ? "series" : text.series.name});
  std::vector<std::string> clauses;
  const bool one_line = text.series.name.empty() || lines.size() == 1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) table.text += "\n\n";  // two blank lines: the next data set (gnuplot's index)
    for (const auto& [x, y] : lines[i].points) table.row({x, y, lines[i].series});
    const std::string title = one_line ? text.y.name : text.series.format(lines[i].series);
    clauses.push_back(std::string(i == 0 ? "'sweep.dat'" : "''") + " index " + std::to_string(i) +
                      " using 1:2 with linespoints lw 2 pt 7 ps 0.6 title " +
                      gnuplot_string(title));
  }
  figure.data.push_back({"sweep.dat", table.file()});

  std::string& c = figure.commands;
  c += "set title " + gnuplot_string(text.title + "\n" + wrap_list(text.assumptions)) + "\n";
  c += axis_commands("x", xs, text.x);
  c += axis_commands("y", ys, text.y, text.log_y_allowed);
  c += "set tics out nomirror\n";
  c += "set border 3\n";
  c += "set grid xtics ytics lc rgb '#ececec'\n";
  // Without an interior minimum the key says why nothing is marked.
  const std::string note = text.mark_lowest ? no_minimum_note(lines, text) : "";
  if (!note.empty()) figure.notes.push_back(note);
  std::string key_title = one_line ? "" : text.series.name;
  if (!note.empty()) key_title += (key_title.empty() ? "" : "\n") + note;
  c += "set key outside below horizontal title " + gnuplot_string(key_title) + "\n";
  c += "set style textbox opaque fc rgb 'white' noborder margins 1,1\n";
  c += mark_commands(text.marks, xs);
  if (!text.mark_lowest || !where.interior) {
    c += plot_command(clauses);
    return figure;
  }
  std::string lowest_label = "lowest " + text.y.name + ": " + text.y.format(lowest.second) +
                             "\nat " + text.x.name + " = " + text.x.format(lowest.first);
  if (!one_line)
    lowest_label += ", " + text.series.name + " = " + text.series.format(lowest_series);
  // The label sits a fifth of the plot towards its centre from the point (each axis in its own
  // scale), with an arrow back to it, so that it does not sit on the lines that end there.
  auto toward_centre = [](double value, const Range& range) {
    const bool log = spans_decades(range.values);
    const double t = axis_fraction(value, range);
    const double moved = t + (t > 0.5 ? -0.22 : 0.22);
    return log ? range.low * std::pow(range.high / range.low, moved)
               : range.low + moved * (range.high - range.low);
  };
  const double label_x = toward_centre(lowest.first, xs);
  const double label_y = toward_centre(lowest.second, ys);
  const bool left_of_point = label_x < lowest.first;
  c += "set arrow 1 from " + number(label_x) + "," + number(label_y) + " to " +
       number(lowest.first) + "," + number(lowest.second) +
       " head filled size char 1,20 lc rgb '#d62728' front\n";
  c += "set label 1 " + gnuplot_string(lowest_label) + " at " + number(label_x) + "," +
       number(label_y) + (left_of_point ? " right" : " left") + " tc rgb '#d62728' front boxed\n";
  c += "set label 2 '' at " + number(lowest.first) + "," + number(lowest.second) +
       " point pt 6 ps 2 lc rgb '#d62728' front\n";
  c += plot_command(clauses);
  return figure;
}

}  // namespace scaleopt::plots
