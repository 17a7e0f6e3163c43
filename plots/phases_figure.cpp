#include "scaleopt/plots/phases_figure.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/plots/cost_text.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"

namespace scaleopt::plots {
namespace {

constexpr double kHalfBar = 0.275;   // half a bar's width, in bars
constexpr double kNoteWidth = 0.55;  // room right of the last bar for its note, in bars

}  // namespace

std::string share_label(double part, double total) {
  return format_quantity(100.0 * part / total, Unit::number, 3) + "%";
}

Figure phases_figure(const std::vector<PhaseBar>& bars, const PhasesText& text,
                     std::string_view last_bar_note) {
  if (bars.empty()) throw InputError("phases: no plan to draw");
  double tallest = 0.0;
  for (const PhaseBar& bar : bars) {
    for (const double part : {bar.pretrain, bar.rl, bar.inference}) {
      if (!(part >= 0.0) || !std::isfinite(part)) {
        throw InputError("phases: the costs of '" + bar.name + "' must be finite and >= 0");
      }
    }
    tallest = std::max(tallest, bar.total());
  }
  if (!(tallest > 0.0)) throw InputError("phases: every plan costs nothing");

  Figure figure;
  figure.name = "phases";
  figure.width = 900;
  figure.height = 640;
  DataTable costs({"pretrain", "rl", "inference", "total", "plan"});
  DataTable labels({"bar", "height", "label"});
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const PhaseBar& bar = bars[i];
    const double total = bar.total();
    costs.row({bar.pretrain, bar.rl, bar.inference, total}, bar.name);
    double bottom = 0.0;
    for (const double part : {bar.pretrain, bar.rl, bar.inference}) {
      if (part >= 0.04 * tallest) {
        labels.row({static_cast<double>(i), bottom + part / 2},
                   cost_label(part, text.unit) + " (" + share_label(part, total) + ")");
      }
      bottom += part;
    }
  }
  DataTable totals({"bar", "height", "label"});
  for (std::size_t i = 0; i < bars.size(); ++i) {
    totals.row({static_cast<double>(i), bars[i].total()},
               "total " + cost_label(bars[i].total(), text.unit));
  }
  // The note right of the last bar; the x range grows to hold it.
  const bool has_note = !last_bar_note.empty();
  DataTable notes({"bar", "height", "note"});
  if (has_note) {
    const PhaseBar& bar = bars.back();
    const double height = bar.rl > 0.0 ? bar.pretrain + bar.rl / 2 : bar.total() / 2;
    notes.row({static_cast<double>(bars.size() - 1) + kHalfBar + 0.04, height}, last_bar_note);
  }
  figure.data.push_back({"phases.dat", costs.file()});
  figure.data.push_back({"phases_shares.dat", labels.file()});
  figure.data.push_back({"phases_totals.dat", totals.file()});
  if (has_note) figure.data.push_back({"phases_notes.dat", notes.file()});

  const CostUnit unit = text.unit;
  std::string& c = figure.commands;
  c += "set title " + gnuplot_string(text.title + "\n" + wrap_list(text.assumptions)) + "\n";
  c += "set ylabel " + gnuplot_string(cost_axis_label(unit)) + "\n";
  c += "set yrange [0:" + number(tallest * 1.12) + "]\n";
  c += linear_tics("y", tallest * 1.12, [unit](double v) { return cost_tic(v, unit); });
  c += "set xrange [-0.6:" + number(bars.size() - (has_note ? 0.4 - kNoteWidth : 0.4)) + "]\n";
  c += "set style data histograms\n";
  c += "set style histogram rowstacked\n";
  c += "set style fill solid 0.9 border rgb 'white'\n";
  c += "set boxwidth " + number(2 * kHalfBar) + "\n";
  c += "set tics out nomirror\n";
  c += "set xtics scale 0\n";
  c += "set border 3\n";
  c += "set grid ytics lc rgb '#e0e0e0'\n";
  c += "set key outside below horizontal\n";
  c += "set bmargin 7\n";  // two-line bar names above the key
  // RL is in the key only when some plan pays for it.
  const bool any_rl =
      std::any_of(bars.begin(), bars.end(), [](const PhaseBar& b) { return b.rl > 0; });
  std::vector<std::string> plots{
      "'phases.dat' using 1:xtic(5) title 'pretraining' lc rgb '#1f77b4'",
      std::string("'' using 2 ") + (any_rl ? "title 'RL'" : "notitle") + " lc rgb '#ff7f0e'",
      "'' using 3 title 'inference' lc rgb '#2ca02c'",
      "'phases_shares.dat' using 1:2:3 with labels tc rgb 'white' notitle",
      "'phases_totals.dat' using 1:2:3 with labels offset char 0,0.8 notitle"};
  if (has_note) {
    plots.push_back("'phases_notes.dat' using 1:2:3 with labels left tc rgb '#333333' notitle");
  }
  c += plot_command(plots);
  return figure;
}

}  // namespace scaleopt::plots
