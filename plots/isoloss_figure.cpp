#include "scaleopt/plots/isoloss_figure.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/plots/cost_text.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"
#include "scaleopt/plots/label_layout.hpp"

namespace scaleopt::plots {
namespace {

// The plot area, fixed so that angles on the page are known: screen fractions of the figure.
constexpr double kLeft = 0.10, kRight = 0.96, kBottom = 0.19, kTop = 0.88;

// The pieces of `curves`, one data set: a blank line between pieces (gnuplot lifts the pen).
DataFile curves_file(const std::string& name, const std::vector<MapCurve>& curves) {
  DataTable table({"params", "tokens", "level"});
  for (const MapCurve& curve : curves) {
    for (const auto& piece : curve.pieces) {
      for (const MapPoint& p : piece) table.row({p.params, p.tokens, curve.level});
      table.blank();
    }
  }
  return {name, table.file()};
}

// Where a point of the (N, D) plane lands in the plot area, in pixels from its lower left.
struct Page {
  const PlotBox& box;
  double width, height;
  double x(const MapPoint& p) const {
    return std::log(p.params / box.params_min) / std::log(box.params_max / box.params_min) * width;
  }
  double y(const MapPoint& p) const {
    return std::log(p.tokens / box.tokens_min) / std::log(box.tokens_max / box.tokens_min) * height;
  }
};

// A label on its curve: centred text at a point of the curve, turned along it.
struct CurveLabel {
  MapPoint at;
  double degrees = 0.0;
  LabelBox box;
};

// Where a label of `characters` characters can sit on its curve: centred at points along the
// curve (by length on the page) from one end, at least half the label plus a gap from it,
// every 24 pixels; then from the other end. The first place inside the plot and clear of the
// labels placed before wins; none when the curve has no room (the line is left unlabelled).
// Angles stay between -90 and 90 degrees so that text never reads upside down.
enum class End { low_params, high_params };
std::optional<CurveLabel> label_on(const MapCurve& curve, End end, const Page& page,
                                   std::size_t characters, const LabelLayout& layout) {
  const double gap = 0.5 * characters * kCharPixels + 24.0;
  for (const End from : {end, end == End::low_params ? End::high_params : End::low_params}) {
    std::vector<MapPoint> piece =
        from == End::high_params ? curve.pieces.back() : curve.pieces.front();
    if (from == End::high_params) std::reverse(piece.begin(), piece.end());
    double walked = 0.0, wanted = gap;
    for (std::size_t i = 1; i + 1 < piece.size(); ++i) {
      walked += std::hypot(page.x(piece[i]) - page.x(piece[i - 1]),
                           page.y(piece[i]) - page.y(piece[i - 1]));
      if (walked < wanted) continue;
      wanted = walked + 24.0;
      double degrees = std::atan2(page.y(piece[i + 1]) - page.y(piece[i - 1]),
                                  page.x(piece[i + 1]) - page.x(piece[i - 1])) *
                       180.0 / std::numbers::pi;
      if (degrees > 90.0) degrees -= 180.0;
      if (degrees <= -90.0) degrees += 180.0;
      const LabelBox box = text_box(page.x(piece[i]), page.y(piece[i]), characters, 1, degrees);
      if (layout.fits(box)) return CurveLabel{piece[i], degrees, box};
    }
  }
  return std::nullopt;
}

// The box of a mark's label: `lines` lines of at most `characters`, right or left of the
// point by 1.2 characters (as point_command places it).
LabelBox mark_box(const Page& page, const MapPoint& point, const std::string& text, bool right) {
  std::size_t longest = 0, lines = 1, current = 0;
  for (const char ch : text) {
    if (ch == '\n') {
      ++lines;
      current = 0;
    } else {
      longest = std::max(longest, ++current);
    }
  }
  LabelBox box = text_box(0.0, 0.0, longest, static_cast<int>(lines), 0.0);
  const double shift = 1.2 * kCharPixels + box.half_width;
  box.x = page.x(point) + (right ? -shift : shift);
  box.y = page.y(point) - 0.5 * (lines - 1) * 15.0;
  return box;
}

std::string point_command(int tag, const std::string& text, const MapPoint& point,
                          const std::string& colour, int point_type, const std::string& place) {
  return "set label " + std::to_string(tag) + " " + gnuplot_string(text) + " at " +
         number(point.params) + "," + number(point.tokens) + " " + place + " point pt " +
         std::to_string(point_type) + " ps 1.6 lc rgb " + gnuplot_string(colour) + " tc rgb " +
         gnuplot_string(colour) + " front boxed\n";
}

bool has_rows(const DataTable& table) {
  return !table.text.empty();
}

}  // namespace

std::string mark_label(const std::string& name, const MapPoint& point, double cost, CostUnit unit) {
  std::string label = name + ": " + format_quantity(point.params, Unit::count) + " params, " +
                      format_quantity(point.tokens, Unit::count) + " tokens";
  if (std::isfinite(cost)) label.append("\n").append(cost_label(cost, unit)).append(" lifetime");
  return label;
}

Figure isoloss_figure(const IsolossMap& map, const IsolossMarks& marks, const IsolossText& text) {
  Figure figure;
  figure.name = "isoloss";
  figure.width = 1000;
  figure.height = 760;
  const PlotBox& box = map.box;
  const Page page{box, (kRight - kLeft) * figure.width, (kTop - kBottom) * figure.height};

  // Every family is one data set; its labels (x, y, text, angle) are another.
  std::vector<std::string> clauses;
  auto family = [&](const std::string& name, const std::vector<MapCurve>& curves,
                    const std::string& style, const std::string& title) {
    bool any = false;
    for (const MapCurve& curve : curves) any = any || !curve.empty();
    if (!any) return;
    figure.data.push_back(curves_file(name, curves));
    clauses.push_back(gnuplot_path(name) + " using 1:2 with lines " + style + " title " +
                      gnuplot_string(title));
  };
  LabelLayout layout(page.width, page.height);
  auto labels = [&](const std::string& name, const std::vector<MapCurve>& curves, End end,
                    const std::function<std::string(const MapCurve&)>& text_of,
                    const std::string& colour) {
    DataTable table({"params", "tokens", "label", "degrees"});
    for (const MapCurve& curve : curves) {
      if (curve.empty()) continue;
      const std::string label = text_of(curve);
      const std::optional<CurveLabel> at = label_on(curve, end, page, label.size(), layout);
      if (!at) continue;
      layout.place(at->box);
      table.row({at->at.params, at->at.tokens}, label, {at->degrees});
    }
    if (!has_rows(table)) return std::string();
    figure.data.push_back({name, table.file()});
    return gnuplot_path(name) + " using 1:2:3:4 with labels center rotate variable boxed tc rgb " +
           gnuplot_string(colour) + " notitle";
  };

  std::string legend_costs = "lifetime cost: the optimum's";
  for (const MapCurve& curve : map.iso_cost) {
    const double multiple = curve.level / map.optimum_cost;
    if (std::fabs(multiple - 1.0) > 1e-9) {
      legend_costs += ", " + format_quantity(multiple, Unit::number, 3) + "x";
    }
  }
  family("isoloss_contours.dat", map.contours, "lc rgb '#a0a0a0' lw 1", "loss L(N, D)");
  family("isoloss_flops.dat", map.iso_flops, "lc rgb '#a8a8a8' lw 1.2 dt (8,5)",
         "training compute 6ND");
  family("isoloss_cost.dat", map.iso_cost, "lc rgb '#2ca02c' lw 1.8 dt (3,3)", legend_costs);
  family("isoloss_frontier.dat", {map.frontier}, "lc rgb '#1f77b4' lw 2", text.frontier_name);
  family("isoloss_target.dat", {map.target}, "lc rgb '#000000' lw 2.5", "loss of the plans");
  // The marks' labels first, then the target's (drawn last, on top), the other losses where
  // the contours leave the plot, lifetime costs where their lines leave it (at the bottom,
  // where inference eats the budget), compute where the iso-FLOP lines enter it. A label that
  // finds no room is left out; its line stays.
  struct Mark {
    std::string text;
    MapPoint point;
    std::string colour, place;
    int point_type;
    bool right;
  };
  std::vector<Mark> mark_list{{mark_label("optimum", marks.optimum, text.optimum_cost, text.unit),
                               marks.optimum, "#d62728", "right offset char -1.2,-0.2", 7, true}};
  if (marks.chinchilla) {
    mark_list.push_back(
        {mark_label("Chinchilla, same loss", *marks.chinchilla, text.chinchilla_cost, text.unit),
         *marks.chinchilla, "#1f77b4", "left offset char 1.2,-0.2", 5, false});
  }
  if (marks.heuristic) {
    mark_list.push_back({mark_label("heuristic", *marks.heuristic, text.heuristic_cost, text.unit),
                         *marks.heuristic, "#ff7f0e", "left offset char 1.2,0.2", 9, false});
  }
  for (const Mark& mark : mark_list) {
    layout.place(mark_box(page, mark.point, mark.text, mark.right));
    layout.place(text_box(page.x(mark.point), page.y(mark.point), 2, 1, 0.0));  // the point
  }
  const std::string target_labels = labels(
      "isoloss_target_label.dat", {map.target}, End::high_params,
      [&](const MapCurve&) {
        return "L = " + format_quantity(text.target_loss, Unit::number, 5) + " (" +
               text.target_note + ")";
      },
      "#000000");
  for (const std::string& clause :
       {labels(
            "isoloss_loss_labels.dat", map.contours, End::high_params,
            [](const MapCurve& c) { return "L = " + format_quantity(c.level, Unit::number, 4); },
            "#606060"),
        labels(
            "isoloss_cost_labels.dat", map.iso_cost, End::high_params,
            [&](const MapCurve& c) {
              const double multiple = c.level / map.optimum_cost;
              return std::fabs(multiple - 1.0) < 1e-9
                         ? cost_label(c.level, text.unit)
                         : format_quantity(multiple, Unit::number, 3) + "x";
            },
            "#2ca02c"),
        labels(
            "isoloss_flops_labels.dat", map.iso_flops, End::low_params,
            [](const MapCurve& c) { return format_scientific(c.level, 2) + " FLOPs"; }, "#909090"),
        target_labels}) {
    if (!clause.empty()) clauses.push_back(clause);
  }

  std::string& c = figure.commands;
  c += "set title " + gnuplot_string(text.title + "\n" + wrap_list(text.assumptions)) + "\n";
  c += "set lmargin at screen " + number(kLeft) + "\n";
  c += "set rmargin at screen " + number(kRight) + "\n";
  c += "set bmargin at screen " + number(kBottom) + "\n";
  c += "set tmargin at screen " + number(kTop) + "\n";
  c += "set xlabel 'parameters N (log scale)'\n";
  c += "set ylabel 'pretraining tokens D (log scale)'\n";
  c += "set logscale xy\n";
  c += log_range("x", box.params_min, box.params_max);
  c += log_range("y", box.tokens_min, box.tokens_max);
  c += log_tics("x", box.params_min, box.params_max, Unit::count);
  c += log_tics("y", box.tokens_min, box.tokens_max, Unit::count);
  c += "set tics out nomirror\n";
  c += "set border 3\n";
  c += "set key outside below horizontal maxcols 3 samplen 3\n";
  c += "set style textbox opaque fc rgb 'white' noborder margins 1,1\n";
  // The optimum trains smaller models longer than Chinchilla, so it lies up and to the left:
  // its label goes left, Chinchilla's right; the heuristic's right of its point.
  for (std::size_t i = 0; i < mark_list.size(); ++i) {
    const Mark& mark = mark_list[i];
    c += point_command(static_cast<int>(i) + 1, mark.text, mark.point, mark.colour, mark.point_type,
                       mark.place);
  }
  c += plot_command(clauses);
  return figure;
}

}  // namespace scaleopt::plots
