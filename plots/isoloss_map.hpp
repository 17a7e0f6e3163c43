#pragma once
// The data of the iso-loss map: the (N, D) plane on log axes with contours of the loss
// L(N, D) = E + A / N^alpha + B / D^beta (Hoffmann et al. 2022, Eq. 2), lines of equal training
// compute 6 N D, lines of equal lifetime cost (pretraining + RL + inference, in the problem's
// unit), the compute-optimal frontier (or the D = r N rule), and the plans to mark. Every curve
// is a closed form D(N) sampled in ln N; where one leaves the plot its crossing with the border
// is found by bisection, so the lines end exactly on the frame.

#include <functional>
#include <optional>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"
#include "scaleopt/problems/lifetime/lifetime_cost_model.hpp"

namespace scaleopt::plots {

struct MapPoint {
  double params = 0.0;  // N
  double tokens = 0.0;  // D
};

// One curve: its level (loss, FLOPs or cost) and its pieces inside the plot, each a run of
// points in increasing N whose ends lie on the border (or inside, where the curve ends).
struct MapCurve {
  double level = 0.0;
  std::vector<std::vector<MapPoint>> pieces;
  bool empty() const { return pieces.empty(); }
};

// The plans to mark. Every point must be finite and positive.
struct IsolossMarks {
  MapPoint optimum;  // the answer (for equal-cost, its true optimum)
  // The Chinchilla-style model of equal quality; absent when the rule cannot reach the loss.
  std::optional<MapPoint> chinchilla;
  std::optional<MapPoint> heuristic;  // equal-cost: the talk's heuristic
};

struct IsolossOptions {
  int samples = 241;            // points per curve, evenly spaced in ln N over the plot (>= 16)
  double margin_decades = 1.0;  // the plot extends this far beyond the marks (>= 0.1)
  int loss_levels = 7;          // contours besides the target, at most (0 to 20)
  // Lifetime-cost lines as multiples of the optimum's cost (each > 0); 1 is the line through it.
  std::vector<double> cost_multiples{1.0, 2.0, 4.0};
  // Throws InputError naming the field.
  void validate() const;
};

// The plotted rectangle of the (N, D) plane.
struct PlotBox {
  double params_min = 0.0, params_max = 0.0, tokens_min = 0.0, tokens_max = 0.0;
  bool contains(const MapPoint& point) const;  // borders included
};

struct IsolossMap {
  PlotBox box;      // whole powers of ten at least `margin_decades` beyond every mark
  MapCurve target;  // the loss every marked plan reaches
  // Other losses at 3 significant digits, spread evenly along the plot's diagonal (from the
  // lowest N and D to the highest), ascending.
  std::vector<MapCurve> contours;
  std::vector<MapCurve> iso_flops;  // training compute 6 N D at powers of ten, ascending
  // Lifetime cost in the problem's unit: through the optimum (where it touches the target
  // contour), then at the multiples of it in IsolossOptions::cost_multiples; empty when the
  // cost model cannot price the optimum.
  std::vector<MapCurve> iso_cost;
  double optimum_cost = 0.0;  // NaN when it cannot be priced
  MapCurve frontier;          // D(N) of the rule: the law's compute-optimal D, or r N
};

IsolossMap isoloss_map(const AllocationRule& rule, const LifetimeCostModel& model, CostUnit unit,
                       double target_loss, const IsolossMarks& marks,
                       const IsolossOptions& options = {});

// Samples D = tokens_of(N) over [params_min, params_max] at `samples` points evenly spaced in
// ln N and keeps the pieces inside the box; each piece's end on the border is located by
// bisection in ln N (NaN means "no curve at this N"). Exposed for tests.
MapCurve sample_curve(double level, const std::function<double(double)>& tokens_of,
                      const PlotBox& box, int samples);

}  // namespace scaleopt::plots
