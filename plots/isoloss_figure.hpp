#pragma once
// The iso-loss map as a gnuplot figure: contours of L over log N x log D (the target loss in
// bold), dashed lines of equal training compute, lines of equal lifetime cost through each
// marked plan, the compute-optimal frontier, and the plans marked and labelled with their N and
// D (the optimum, the Chinchilla-style model of equal quality, the equal-cost heuristic).

#include <cmath>
#include <string>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/plots/isoloss_map.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt::plots {

struct IsolossText {
  std::string title;              // "Iso-loss map: examples/frontier_100x.toml (equal-cost)"
  std::string assumptions;        // second title line: law, demand, prices, the rule
  CostUnit unit = CostUnit::usd;  // of the lifetime-cost lines
  double target_loss = 0.0;
  std::string target_note = "target";  // its label: "L = 1.947 (target)"; "best the budget buys"
  std::string frontier_name;           // "compute-optimal frontier (epoch2024)" or "D = 20 N"
  // Lifetime costs of the marks in `unit`, shown in their labels (NaN: not shown).
  double optimum_cost = NAN, chinchilla_cost = NAN, heuristic_cost = NAN;
};

// "optimum: 24.2B params, 2.66T tokens\n$631M lifetime" and so on: how a mark is labelled.
std::string mark_label(const std::string& name, const MapPoint& point, double cost, CostUnit unit);

Figure isoloss_figure(const IsolossMap& map, const IsolossMarks& marks, const IsolossText& text);

}  // namespace scaleopt::plots
