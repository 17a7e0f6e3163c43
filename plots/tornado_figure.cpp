#include "plots/tornado_figure.hpp"

#include <algorithm>
#include <cmath>

#include "costmodel/input_error.hpp"
#include "plots/gnuplot_text.hpp"

namespace scaleopt::plots {

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
  figure.width = 1000;
  figure.height = std::max(420, 170 + 34 * static_cast<int>(bars.size()));
  // Each side as a box from the base to the output at that side (boxxyerror: x y x0 x1 y0 y1).
  DataTable low({"x", "rank", "from", "to", "bottom", "top"});
  DataTable high({"x", "rank", "from", "to", "bottom", "top"});
  DataTable lower_values({"x", "rank", "label"});
  DataTable upper_values({"x", "rank", "label"});
  double left = text.base, right = text.base;
  std::string tics;
  const double n = static_cast<double>(bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const TornadoBar& bar = bars[i];
    const double y = n - static_cast<double>(i);  // the largest swing on top
    for (auto [table, value] : {std::pair{&low, bar.low}, std::pair{&high, bar.high}}) {
      table->row({0.5 * (text.base + value), y, std::min(text.base, value),
                  std::max(text.base, value), y - 0.35, y + 0.35});
    }
    left = std::min({left, bar.low, bar.high});
    right = std::max({right, bar.low, bar.high});
    // The outputs at the bar's ends, outside it.
    const double lower = std::min(bar.low, bar.high), upper = std::max(bar.low, bar.high);
    lower_values.row({lower, y}, text.output.format(lower));
    upper_values.row({upper, y}, text.output.format(upper));
    tics += (tics.empty() ? "" : ", ") + gnuplot_string(bar.input + " (" + bar.range + ")") + " " +
            number(y);
  }
  figure.data.push_back({"tornado_low.dat", low.file()});
  figure.data.push_back({"tornado_high.dat", high.file()});
  figure.data.push_back({"tornado_lower.dat", lower_values.file()});
  figure.data.push_back({"tornado_upper.dat", upper_values.file()});

  // Room for the value labels beyond the bars' ends.
  const double span = right > left ? right - left : std::max(std::fabs(text.base), 1.0);
  const double x0 = left - 0.2 * span, x1 = right + 0.2 * span;
  std::string& c = figure.commands;
  c += "set title " + gnuplot_string(text.title + "\n" + wrap_list(text.assumptions)) + "\n";
  c += "set xlabel " + gnuplot_string(text.output.label) + "\n";
  c += "set xrange [" + number(x0) + ":" + number(x1) + "]\n";
  c += linear_tics("x", x0, x1, text.output.format);
  c += "set yrange [0.3:" + number(n + 0.7) + "]\n";
  c += "set ytics (" + tics + ") scale 0\n";
  c += "set lmargin 42\n";  // the input names and ranges
  c += "set border 1\n";
  c += "set xtics out nomirror\n";
  c += "set grid xtics lc rgb \"#ececec\"\n";
  c += "set key outside below horizontal\n";
  c += "set style fill solid 0.85 noborder\n";
  c += "set arrow 1 from " + number(text.base) + ",0.3 to " + number(text.base) + "," +
       number(n + 0.7) + " nohead lc rgb \"#000000\" lw 1.5 front\n";
  c += "set label 1 " +
       gnuplot_string("base: " + text.output.name + " = " + text.output.format(text.base)) +
       " at " + number(text.base) + "," + number(n + 0.55) +
       " left offset char 0.5,0 tc rgb \"#000000\" front\n";
  c += plot_command(
      {"\"tornado_low.dat\" using 1:2:3:4:5:6 with boxxyerror lc rgb \"#1f77b4\" title "
       "\"input at its low value\"",
       "\"tornado_high.dat\" using 1:2:3:4:5:6 with boxxyerror lc rgb \"#ff7f0e\" title "
       "\"input at its high value\"",
       "\"tornado_lower.dat\" using 1:2:3 with labels right offset char -0.6,0 tc rgb "
       "\"#333333\" notitle",
       "\"tornado_upper.dat\" using 1:2:3 with labels left offset char 0.6,0 tc rgb "
       "\"#333333\" notitle"});
  return figure;
}

}  // namespace scaleopt::plots
