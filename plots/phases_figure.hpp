#pragma once
// Lifetime cost by phase as stacked bars: pretraining, RL and inference for each plan (the
// equal-cost heuristic, its optimum, the Chinchilla-style model of equal quality), in the unit
// the problem minimised, each segment labelled with its share and each bar with its total.

#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt::plots {

struct PhaseBar {
  std::string name;  // "optimum", may hold a line break ("optimum\n112B params")
  double pretrain = 0.0, rl = 0.0, inference = 0.0;  // in the figure's unit, each >= 0
  double total() const { return pretrain + rl + inference; }
};

struct PhasesText {
  std::string title;
  std::string assumptions;
  CostUnit unit = CostUnit::usd;
};

// "33.3%": the share labels (segments below 4% of the tallest bar are left unlabelled).
std::string share_label(double part, double total);

// Throws InputError when there is no bar or a cost is negative or not finite. `last_bar_note`,
// when given, is printed right of the last bar, level with its RL segment (or its middle
// without RL): what that bar holds fixed that a reader would not expect. It may hold line
// breaks; about 15 characters a line fit.
Figure phases_figure(const std::vector<PhaseBar>& bars, const PhasesText& text,
                     std::string_view last_bar_note = {});

}  // namespace scaleopt::plots
