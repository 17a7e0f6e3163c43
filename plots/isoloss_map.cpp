#include "scaleopt/plots/isoloss_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/at_budget/quality_at_budget.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"

namespace scaleopt::plots {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void require_mark(const MapPoint& point, const char* name) {
  if (!(point.params > 0.0 && point.tokens > 0.0 && std::isfinite(point.params) &&
        std::isfinite(point.tokens))) {
    std::ostringstream message;
    message << "isoloss: the " << name << " (" << point.params << " parameters, " << point.tokens
            << " tokens) cannot be drawn on log axes";
    throw InputError(message.str());
  }
}

// Whole powers of ten at least `margin` decades beyond [low, high].
std::pair<double, double> decade_range(double low, double high, double margin) {
  return {std::pow(10.0, std::floor(std::log10(low) - margin)),
          std::pow(10.0, std::ceil(std::log10(high) + margin))};
}

// The cost model's lifetime cost in `unit`, or NaN where it cannot price the plan (a model
// too large for the serving replica).
double lifetime_cost(const LifetimeCostModel& model, CostUnit unit, const MapPoint& point) {
  if (point.params > model.max_params) return kNaN;
  try {
    return model.total(unit, point.params, point.tokens).value;
  } catch (const InputError&) {
    return kNaN;
  }
}

}  // namespace

void IsolossOptions::validate() const {
  auto fail = [](const std::string& what) { throw InputError("isoloss: " + what); };
  if (samples < 16 || samples > 100000) {
    fail("samples must be 16 to 100000, got " + std::to_string(samples));
  }
  if (!(margin_decades >= 0.1 && margin_decades <= 10.0)) {
    fail("margin_decades must be 0.1 to 10");
  }
  if (loss_levels < 0 || loss_levels > 20) {
    fail("loss_levels must be 0 to 20, got " + std::to_string(loss_levels));
  }
  for (const double multiple : cost_multiples) {
    if (!(multiple > 0.0 && std::isfinite(multiple))) fail("cost_multiples must be positive");
  }
}

bool PlotBox::contains(const MapPoint& point) const {
  return point.params >= params_min && point.params <= params_max && point.tokens >= tokens_min &&
         point.tokens <= tokens_max;
}

MapCurve sample_curve(double level, const std::function<double(double)>& tokens_of,
                      const PlotBox& box, int samples) {
  const double x0 = std::log(box.params_min);
  const double x1 = std::log(box.params_max);
  const double y_span = std::log(box.tokens_max / box.tokens_min);
  auto point_at = [&](double x) {
    const double params = x <= x0 ? box.params_min : x >= x1 ? box.params_max : std::exp(x);
    return MapPoint{params, tokens_of(params)};
  };
  auto inside = [&](double x) { return box.contains(point_at(x)); };
  // The last x on the inside side of a crossing between `in` (inside) and `out` (outside).
  auto crossing = [&](double in, double out) {
    for (int i = 0; i < 60; ++i) {
      const double middle = 0.5 * (in + out);
      (inside(middle) ? in : out) = middle;
    }
    return in;
  };
  // Points between a and b (both inside) until no step is longer than a grid step on the
  // plot, so that steep stretches (near an asymptote) are drawn as smoothly as flat ones.
  const double longest = 1.0 / (samples - 1);
  std::function<void(double, double, int, std::vector<MapPoint>&)> refine =
      [&](double a, double b, int depth, std::vector<MapPoint>& piece) {
        const MapPoint pa = point_at(a), pb = point_at(b);
        const double dx = (b - a) / (x1 - x0);
        const double dy = std::log(pb.tokens / pa.tokens) / y_span;
        const double middle = 0.5 * (a + b);
        if (depth >= 40 || std::hypot(dx, dy) <= longest || !inside(middle)) {
          piece.push_back(pb);
          return;
        }
        refine(a, middle, depth + 1, piece);
        refine(middle, b, depth + 1, piece);
      };
  MapCurve curve;
  curve.level = level;
  std::vector<MapPoint> piece;
  double previous_x = x0;
  bool previous_inside = false;
  for (int i = 0; i < samples; ++i) {
    const double x = i + 1 == samples ? x1 : x0 + (x1 - x0) * i / (samples - 1);
    const bool now_inside = inside(x);
    if (now_inside && !previous_inside) {
      const double start = i > 0 ? crossing(x, previous_x) : x;
      piece.push_back(point_at(start));
      if (start != x) refine(start, x, 0, piece);
    } else if (now_inside) {
      refine(previous_x, x, 0, piece);
    } else if (previous_inside) {
      refine(previous_x, crossing(previous_x, x), 0, piece);
      curve.pieces.push_back(std::move(piece));
      piece.clear();
    }
    previous_x = x;
    previous_inside = now_inside;
  }
  if (piece.size() >= 2) curve.pieces.push_back(std::move(piece));
  std::erase_if(curve.pieces, [](const auto& p) { return p.size() < 2; });
  return curve;
}

IsolossMap isoloss_map(const AllocationRule& rule, const LifetimeCostModel& model, CostUnit unit,
                       double target_loss, const IsolossMarks& marks,
                       const IsolossOptions& options) {
  options.validate();
  const LossLaw& law = rule.law;
  law.validate("law");
  if (!(target_loss > law.E)) {
    throw InputError("isoloss: the target loss must exceed the law's E");
  }
  require_mark(marks.optimum, "optimum");
  std::vector<MapPoint> points{marks.optimum};
  if (marks.chinchilla) {
    require_mark(*marks.chinchilla, "Chinchilla-style model");
    points.push_back(*marks.chinchilla);
  }
  if (marks.heuristic) {
    require_mark(*marks.heuristic, "heuristic");
    points.push_back(*marks.heuristic);
  }

  IsolossMap map;
  auto [n_low, n_high] =
      std::minmax_element(points.begin(), points.end(),
                          [](const MapPoint& a, const MapPoint& b) { return a.params < b.params; });
  auto [d_low, d_high] =
      std::minmax_element(points.begin(), points.end(),
                          [](const MapPoint& a, const MapPoint& b) { return a.tokens < b.tokens; });
  std::tie(map.box.params_min, map.box.params_max) =
      decade_range(n_low->params, n_high->params, options.margin_decades);
  std::tie(map.box.tokens_min, map.box.tokens_max) =
      decade_range(d_low->tokens, d_high->tokens, options.margin_decades);
  const PlotBox& box = map.box;
  const int samples = options.samples;

  auto contour = [&](double loss) {
    return sample_curve(
        loss, [&](double params) { return tokens_for_loss(law, loss, params); }, box, samples);
  };
  map.target = contour(target_loss);

  // Other losses where the plot's diagonal crosses it at even steps, rounded to 3 significant
  // digits: on log axes the contours come out evenly spaced wherever the eye looks.
  std::vector<double> levels;
  for (int k = 1; k <= options.loss_levels; ++k) {
    const double t = static_cast<double>(k) / (options.loss_levels + 1);
    const double params = box.params_min * std::pow(box.params_max / box.params_min, t);
    const double tokens = box.tokens_min * std::pow(box.tokens_max / box.tokens_min, t);
    const double level = std::stod(format_quantity(law.loss(params, tokens), Unit::number, 3));
    const bool distinct = std::none_of(levels.begin(), levels.end(), [&](double other) {
      return std::fabs(other - level) < 1e-9 * level;
    });
    // Not on top of the target line (within a fifth of a step of the diagonal).
    const double step = (law.loss(box.params_min, box.tokens_min) - law.E) /
                        (law.loss(box.params_max, box.tokens_max) - law.E);
    const double apart = std::pow(step, 0.2 / (options.loss_levels + 1));
    const bool near_target = (level - law.E) / (target_loss - law.E) < apart &&
                             (target_loss - law.E) / (level - law.E) < apart;
    if (level > law.E && distinct && !near_target) levels.push_back(level);
  }
  std::sort(levels.begin(), levels.end());
  for (const double level : levels) {
    MapCurve curve = contour(level);
    if (!curve.empty()) map.contours.push_back(std::move(curve));
  }

  // Training compute 6 N D at powers of ten crossing the plot, at most eight of them.
  const int first = static_cast<int>(std::ceil(std::log10(6 * box.params_min * box.tokens_min)));
  const int last = static_cast<int>(std::floor(std::log10(6 * box.params_max * box.tokens_max)));
  const int every = std::max(1, (last - first + 8) / 8);
  for (int k = first; k <= last; k += every) {
    const double flops = std::pow(10.0, k);
    MapCurve curve = sample_curve(
        flops, [&](double params) { return flops / (6 * params); }, box, samples);
    if (!curve.empty()) map.iso_flops.push_back(std::move(curve));
  }

  // Lifetime cost: pretraining is linear in D, so the line of a cost is the D that budget
  // leaves at each N once RL and inference are paid.
  map.optimum_cost = lifetime_cost(model, unit, marks.optimum);
  if (std::isfinite(map.optimum_cost) && map.optimum_cost > 0.0) {
    for (const double multiple : options.cost_multiples) {
      const double level = multiple * map.optimum_cost;
      MapCurve curve = sample_curve(
          level,
          [&](double params) {
            if (params > model.max_params) return kNaN;
            try {
              return tokens_within_budget(model, unit, level, params);
            } catch (const InputError&) {
              return kNaN;
            }
          },
          box, samples);
      if (!curve.empty()) map.iso_cost.push_back(std::move(curve));
    }
  }

  map.frontier = sample_curve(
      0.0, [&](double params) { return optimal_for_params(rule, params).tokens; }, box, samples);
  return map;
}

}  // namespace scaleopt::plots
