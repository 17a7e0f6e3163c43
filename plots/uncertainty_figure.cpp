#include "scaleopt/plots/uncertainty_figure.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"

namespace scaleopt::plots {

Histogram histogram(const std::vector<double>& samples, int bins, bool log) {
  Histogram h;
  if (samples.empty() || bins < 1) return h;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  double low = *lo, high = *hi;
  if (!(high > low)) {  // one value: one bin around it
    low -= 0.5 * std::max(std::fabs(low), 1e-300);
    high += 0.5 * std::max(std::fabs(high), 1e-300);
    log = log && low > 0.0;
  }
  auto scale = [&](double v) { return log ? std::log(v) : v; };
  auto unscale = [&](double v) { return log ? std::exp(v) : v; };
  const double a = scale(low), b = scale(high);
  for (int i = 0; i <= bins; ++i) h.edges.push_back(unscale(a + (b - a) * i / bins));
  h.edges.front() = low;
  h.edges.back() = high;
  h.counts.assign(bins, 0.0);
  for (const double v : samples) {
    int i = static_cast<int>((scale(v) - a) / (b - a) * bins);
    i = std::clamp(i, 0, bins - 1);  // the largest value belongs to the last bin
    h.counts[i] += 1.0;
  }
  return h;
}

Figure uncertainty_figure(const std::vector<UncertaintyPanel>& panels, const UncertaintyText& text,
                          int bins) {
  if (panels.empty()) throw InputError("uncertainty: no output to draw");
  const int columns = panels.size() > 1 ? 2 : 1;
  const int rows = static_cast<int>((panels.size() + columns - 1) / columns);
  Figure figure;
  figure.name = "uncertainty";
  figure.width = 1100;
  figure.height = 140 + 330 * rows;
  std::string& c = figure.commands;
  c += "set multiplot layout " + std::to_string(rows) + "," + std::to_string(columns) + " title " +
       gnuplot_string(text.title + "\n" + wrap_list(text.assumptions, 120)) + "\n";
  c += "set style fill solid 0.6 noborder\n";
  c += "set tics out nomirror\n";
  c += "set border 3\n";
  c += "set ylabel 'samples'\n";
  c += "unset key\n";
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const UncertaintyPanel& panel = panels[p];
    if (panel.samples.empty()) {
      throw InputError("uncertainty: no converged sample of " + panel.output.name);
    }
    const bool log = spans_decades(panel.samples);
    const Histogram h = histogram(panel.samples, bins, log);
    DataTable table({"center", "count", "from", "to", "zero", "count"});
    double tallest = 0.0;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
      const double center =
          log ? std::sqrt(h.edges[i] * h.edges[i + 1]) : 0.5 * (h.edges[i] + h.edges[i + 1]);
      table.row({center, 0.5 * h.counts[i], h.edges[i], h.edges[i + 1], 0.0, h.counts[i]});
      tallest = std::max(tallest, h.counts[i]);
    }
    const std::string file = "uncertainty_" + std::to_string(p + 1) + ".dat";
    figure.data.push_back({file, table.file()});
    // A number, not the output's name: a comment ends at a line break and goes on after a
    // trailing backslash, so text from inputs stays in quoted strings.
    c += "# panel " + std::to_string(p + 1) + "\n";
    c += "unset arrow\nunset label\nunset logscale x\n";
    c += "set title " + gnuplot_string(panel.output.name) + "\n";
    c += "set xlabel " + gnuplot_string(panel.output.label) + "\n";
    const double low = h.edges.front(), high = h.edges.back();
    if (log) {
      c += "set logscale x\n";
      c += log_range("x", low, high);
      c += log_tics("x", std::pow(10.0, std::floor(std::log10(low))),
                    std::pow(10.0, std::ceil(std::log10(high))), panel.output.format);
    } else {
      const double pad = 0.02 * (high - low);
      c += "set xrange [" + number(low - pad) + ":" + number(high + pad) + "]\n";
      c += linear_tics("x", low - pad, high + pad, panel.output.format, 4);
    }
    c += "set yrange [0:" + number(tallest * 1.45) + "]\n";
    c += "set ytics autofreq\n";
    // The quantiles, labels staggered so that close ones do not overlap.
    const std::pair<double, const char*> marks[] = {
        {panel.p05, "5%"}, {panel.p50, "50%"}, {panel.p95, "95%"}};
    int tag = 1;
    for (const auto& [value, name] : marks) {
      const double height = 0.96 - 0.08 * (tag - 1);
      c += "set arrow " + std::to_string(tag) + " from " + number(value) + ", graph 0 to " +
           number(value) + ", graph " + number(height - 0.03) + " nohead lc rgb '#d62728' " +
           (tag == 2 ? "lw 2" : "dt (4,3)") + " front\n";
      c += "set label " + std::to_string(tag) + " " +
           gnuplot_string(std::string(name) + ": " + panel.output.format(value)) + " at " +
           number(value) + ", graph " + number(height) + " center tc rgb '#d62728' front\n";
      ++tag;
    }
    c += "plot " + gnuplot_path(file) + " using 1:2:3:4:5:6 with boxxyerror lc rgb '#1f77b4'\n";
  }
  c += "unset multiplot\n";
  return figure;
}

}  // namespace scaleopt::plots
