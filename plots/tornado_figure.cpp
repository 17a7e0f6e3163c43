#include "scaleopt/plots/tornado_figure.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"

namespace scaleopt::plots {
namespace {

constexpr int kInputFontSize = 13;

}  // namespace

Figure tornado_figure(const std::vector<TornadoBar>& all, const TornadoText& text,
                      std::size_t max_bars) {
  std::vector<TornadoBar> bars;
  for (const TornadoBar& bar : all) {
    if (bars.size() == max_bars) break;
    if (std::isfinite(bar.low) && std::isfinite(bar.high)) bars.push_back(bar);
  }
  if (bars.empty()) throw InputError("tornado: no input has an answer on both sides");

  Figure figure;
  figure.name = "tornado";
  // About the width of the report's column, which every figure is scaled to
  // (report/report_html.cpp): its text shows there at about the size set here, not shrunk.
  figure.width = 900;
  figure.height = std::max(420, 190 + 40 * static_cast<int>(bars.size()));
  // Each side as a box from the base to the output at that side (boxxyerror: x y x0 x1 y0 y1),
  // the low side in the upper half of the row and the high side in the lower half, so that both
  // show when they move the output the same way. Each value is printed beyond its bar's end.
  DataTable low({"x", "rank", "from", "to", "bottom", "top"});
  DataTable high({"x", "rank", "from", "to", "bottom", "top"});
  DataTable lower_values({"x", "rank", "label"});  // ends left of the base
  DataTable upper_values({"x", "rank", "label"});  // ends right of it
  // The input names label the y axis from a data file (ytic): gnuplot shows them as they are,
  // where `set ytics ('name' y)` would take each for a printf format and cut it at 49 bytes.
  DataTable names({"base", "rank", "input"});
  double left = text.base, right = text.base;
  const double n = static_cast<double>(bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const TornadoBar& bar = bars[i];
    const double y = n - static_cast<double>(i);  // the largest swing on top
    for (auto [table, value, middle] :
         {std::tuple{&low, bar.low, y + 0.2}, std::tuple{&high, bar.high, y - 0.2}}) {
      table->row({0.5 * (text.base + value), middle, std::min(text.base, value),
                  std::max(text.base, value), middle - 0.18, middle + 0.18});
      (value < text.base ? lower_values : upper_values)
          .row({value, middle}, text.output.format(value));
    }
    left = std::min({left, bar.low, bar.high});
    right = std::max({right, bar.low, bar.high});
    names.row({text.base, y}, bar.input + " (" + bar.range + ")");
  }
  figure.data.push_back({"tornado_low.dat", low.file()});
  figure.data.push_back({"tornado_high.dat", high.file()});
  figure.data.push_back({"tornado_lower.dat", lower_values.file()});
  figure.data.push_back({"tornado_upper.dat", upper_values.file()});
  figure.data.push_back({"tornado_inputs.dat", names.file()});

  // A log axis when the outputs span 30x or more (one input can move the answer by orders of
  // magnitude), else linear; either way room for the value labels beyond the bars' ends.
  std::vector<double> all_values{text.base};
  std::size_t longest = 0;
  for (const TornadoBar& bar : bars) {
    all_values.push_back(bar.low);
    all_values.push_back(bar.high);
    longest = std::max(longest, bar.input.size() + bar.range.size() + 3);
  }
  std::string& c = figure.commands;
  // The input names and ranges; lmargin counts characters of the terminal's font.
  const int margin =
      static_cast<int>(std::ceil(static_cast<double>(longest) * kInputFontSize / kSvgFontSize)) + 2;
  // gnuplot centres the title over the plot, which the input names push right: moved back left
  // by half the margin, it is centred on the figure and has its whole width.
  c += "set title " + gnuplot_string(wrap_list(text.title + "; " + text.assumptions, 100)) +
       " offset char " + number(-0.5 * margin) + ",0\n";
  c += "set xlabel " + gnuplot_string(text.output.label) + "\n";
  if (spans_decades(all_values)) {
    const double x0 = std::pow(10.0, std::floor(std::log10(left) - 0.3));
    const double x1 = std::pow(10.0, std::ceil(std::log10(right) + 0.3));
    c += "set logscale x\n";
    c += log_range("x", x0, x1);
    c += log_tics("x", x0, x1, text.output.format);
  } else {
    const double span = right > left ? right - left : std::max(std::fabs(text.base), 1.0);
    // A value label is about 0.25 of the span wide in a 900-pixel figure.
    const double x0 = left - 0.3 * span, x1 = right + 0.3 * span;
    c += "set xrange [" + number(x0) + ":" + number(x1) + "]\n";
    c += linear_tics("x", x0, x1, text.output.format);
  }
  c += "set yrange [0.3:" + number(n + 1.1) + "]\n";
  // The input names a point larger than the rest: they are what the figure is read by.
  c += "set ytics scale 0 font '," + std::to_string(kInputFontSize) + "'\n";
  c += "set lmargin " + std::to_string(margin) + "\n";
  c += "set border 1\n";
  c += "set xtics out nomirror\n";
  c += "set grid xtics lc rgb '#ececec'\n";
  c += "set key outside below horizontal\n";
  c += "set style fill solid 0.85 noborder\n";
  c += "set arrow 1 from " + number(text.base) + ",0.3 to " + number(text.base) + "," +
       number(n + 0.6) + " nohead lc rgb '#000000' lw 1.5 front\n";
  c += "set label 1 " +
       gnuplot_string("base: " + text.output.name + " = " + text.output.format(text.base)) +
       " at " + number(text.base) + "," + number(n + 0.85) + " center tc rgb '#000000' front\n";
  c +=
      plot_command({"'tornado_low.dat' using 1:2:3:4:5:6 with boxxyerror lc rgb '#1f77b4' title "
                    "'input at its low value'",
                    "'tornado_high.dat' using 1:2:3:4:5:6 with boxxyerror lc rgb '#ff7f0e' title "
                    "'input at its high value'",
                    "'tornado_lower.dat' using 1:2:3 with labels right offset char -0.6,0 tc rgb "
                    "'#333333' notitle",
                    "'tornado_upper.dat' using 1:2:3 with labels left offset char 0.6,0 tc rgb "
                    "'#333333' notitle",
                    "'tornado_inputs.dat' using 1:2:ytic(3) with points ps 0 notitle"});
  return figure;
}

}  // namespace scaleopt::plots
