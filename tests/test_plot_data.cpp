// The numbers the figures draw (plots/), checked against the equations they come from, each
// evaluated on its own: every contour point has the loss of its level, every iso-cost point
// the cost of its level under the cost model, the frontier is Hoffmann's Eq. 4 in 50 digits,
// curves end exactly on the frame, and the optimum touches its iso-cost line.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/chinchilla_closed_form.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/plots/context_cost_figure.hpp"
#include "scaleopt/plots/figure.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"
#include "scaleopt/plots/isoloss_map.hpp"
#include "scaleopt/plots/label_layout.hpp"
#include "scaleopt/plots/phases_figure.hpp"
#include "scaleopt/plots/sweep_figure.hpp"
#include "scaleopt/plots/tornado_figure.hpp"
#include "scaleopt/plots/uncertainty_figure.hpp"
#include "scaleopt/problems/at_loss/lifetime_at_loss.hpp"
#include "scaleopt/problems/lifecycle/lifecycle_solve.hpp"
#include "scaleopt/solver/high_precision.hpp"

using namespace scaleopt;
using namespace scaleopt::plots;

namespace {

// Sardana et al. 2024's compute example: loss 1.947, 2T inference tokens, law sardana2024.
struct SardanaCompute {
  LossLaw law = loss_law_preset("sardana2024");
  LifetimeCostModel model = flops_cost_model(2e12);
  double target = 1.947;
  LifetimePlan plan = min_lifetime_cost_at_loss(law, target, model, CostUnit::flops);
  AllocationRule rule{law, std::nullopt};
  IsolossMarks marks() const {
    IsolossMarks m;
    m.optimum = {plan.params, plan.pretrain_tokens};
    const Allocation chinchilla = optimal_for_loss(rule, target);
    m.chinchilla = MapPoint{chinchilla.params, chinchilla.tokens};
    return m;
  }
};

bool on_border(const MapPoint& p, const PlotBox& box) {
  auto near = [](double a, double b) { return std::fabs(a / b - 1.0) < 1e-9; };
  return near(p.params, box.params_min) || near(p.params, box.params_max) ||
         near(p.tokens, box.tokens_min) || near(p.tokens, box.tokens_max);
}

}  // namespace

TEST_CASE("isoloss map: the box is whole decades a decade beyond the marks", "[plots]") {
  const SardanaCompute s;
  const IsolossMap map = isoloss_map(s.rule, s.model, CostUnit::flops, s.target, s.marks());
  // Optimum 24.2B / 2.66T, Chinchilla 34.1B / 1.81T (Sardana's README): N in [1e9, 1e12],
  // D in [1e11, 1e14].
  CHECK(map.box.params_min == 1e9);
  CHECK(map.box.params_max == 1e12);
  CHECK(map.box.tokens_min == 1e11);
  CHECK(map.box.tokens_max == 1e14);
}

TEST_CASE("isoloss map: every contour point has its loss, and pieces end on the frame", "[plots]") {
  const SardanaCompute s;
  const IsolossMap map = isoloss_map(s.rule, s.model, CostUnit::flops, s.target, s.marks());
  REQUIRE(!map.target.empty());
  REQUIRE(map.contours.size() >= 5);
  std::vector<const MapCurve*> curves{&map.target};
  for (const MapCurve& c : map.contours) curves.push_back(&c);
  for (const MapCurve* curve : curves) {
    for (const auto& piece : curve->pieces) {
      REQUIRE(piece.size() >= 2);
      for (const MapPoint& p : piece) {
        CHECK(map.box.contains(p));
        // L = E + A / N^alpha + B / D^beta, Hoffmann et al. 2022 Eq. 2, written out here.
        const double loss = s.law.E + s.law.A / std::pow(p.params, s.law.alpha) +
                            s.law.B / std::pow(p.tokens, s.law.beta);
        CHECK(loss == Approx(curve->level).epsilon(1e-12));
      }
      CHECK(on_border(piece.front(), map.box));
      CHECK(on_border(piece.back(), map.box));
    }
  }
  // The target and the levels: ascending, distinct, at 3 significant digits.
  CHECK(map.target.level == s.target);
  for (std::size_t i = 1; i < map.contours.size(); ++i) {
    CHECK(map.contours[i].level > map.contours[i - 1].level);
  }
  for (const MapCurve& c : map.contours) {
    const double scale = std::pow(10.0, std::floor(std::log10(c.level)) - 2);
    CHECK(std::fabs(c.level / scale - std::round(c.level / scale)) < 1e-6);
  }
}

TEST_CASE("isoloss map: iso-FLOP lines are 6ND = C at powers of ten", "[plots]") {
  const SardanaCompute s;
  const IsolossMap map = isoloss_map(s.rule, s.model, CostUnit::flops, s.target, s.marks());
  REQUIRE(!map.iso_flops.empty());
  for (const MapCurve& curve : map.iso_flops) {
    CHECK(std::log10(curve.level) == Approx(std::round(std::log10(curve.level))).margin(1e-12));
    for (const auto& piece : curve.pieces) {
      for (const MapPoint& p : piece) CHECK(6 * p.params * p.tokens == Approx(curve.level));
    }
  }
}

TEST_CASE("isoloss map: the frontier is Hoffmann's Eq. 4 (50 digits), or D = r N", "[plots]") {
  const SardanaCompute s;
  const IsolossMap map = isoloss_map(s.rule, s.model, CostUnit::flops, s.target, s.marks());
  const auto c = coefficients_of<Real50>(s.law);
  REQUIRE(!map.frontier.empty());
  for (const auto& piece : map.frontier.pieces) {
    for (const MapPoint& p : piece) {
      // On the frontier the Lagrange condition alpha A / N^alpha = beta B / D^beta holds.
      const Real50 lhs = c.alpha * c.A / pow(Real50(p.params), c.alpha);
      const Real50 rhs = c.beta * c.B / pow(Real50(p.tokens), c.beta);
      CHECK(relative_difference(lhs.convert_to<double>(), rhs) < 1e-12);
    }
  }
  const AllocationRule twenty{s.law, 20.0};
  const IsolossMap ruled = isoloss_map(twenty, s.model, CostUnit::flops, s.target, s.marks());
  for (const auto& piece : ruled.frontier.pieces) {
    for (const MapPoint& p : piece) CHECK(p.tokens == Approx(20 * p.params).epsilon(1e-14));
  }
}

TEST_CASE("isoloss map: iso-cost lines have their cost; the optimum's touches the target",
          "[plots]") {
  const SardanaCompute s;
  const IsolossMap map = isoloss_map(s.rule, s.model, CostUnit::flops, s.target, s.marks());
  // Sardana Eq. 3 at the optimum: 6 N D + 2 N T.
  const double optimum_cost = 6 * s.plan.params * s.plan.pretrain_tokens + 2 * s.plan.params * 2e12;
  CHECK(map.optimum_cost == Approx(optimum_cost).epsilon(1e-12));
  REQUIRE(map.iso_cost.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(map.iso_cost[i].level == Approx(optimum_cost * std::pow(2.0, i)).epsilon(1e-12));
    for (const auto& piece : map.iso_cost[i].pieces) {
      for (const MapPoint& p : piece) {
        const double cost = 6 * p.params * p.tokens + 2 * p.params * 2e12;
        CHECK(cost == Approx(map.iso_cost[i].level).epsilon(1e-10));
      }
    }
  }
  // No point of the target contour is cheaper than the optimum: its cost line is tangent.
  for (const auto& piece : map.target.pieces) {
    for (const MapPoint& p : piece) {
      CHECK(6 * p.params * p.tokens + 2 * p.params * 2e12 >= optimum_cost * (1 - 1e-9));
    }
  }
}

TEST_CASE("sample_curve: an asymptote meets the frame where the closed form says", "[plots]") {
  // D = 1e12 / (N - 2e9) leaves the top of [1e9, 1e12] x [1e11, 1e14] at N = 2e9 + 1e12/1e14
  // and the bottom at N = 2e9 + 10, beyond the box: the curve ends on the right border.
  const PlotBox box{1e9, 1e12, 1e2, 1e14};
  const MapCurve curve = sample_curve(
      0.0, [](double n) { return n > 2e9 ? 1e21 / (n - 2e9) : NAN; }, box, 64);
  REQUIRE(curve.pieces.size() == 1);
  const MapPoint first = curve.pieces.front().front();
  CHECK(first.tokens == Approx(1e14).epsilon(1e-9));
  CHECK(first.params == Approx(2e9 + 1e21 / 1e14).epsilon(1e-12));
  CHECK(curve.pieces.front().back().params == 1e12);
  // Refinement: no step on the page longer than a grid step (1/63 of the diagonal's axes).
  const auto& piece = curve.pieces.front();
  for (std::size_t i = 1; i < piece.size(); ++i) {
    const double dx = std::log(piece[i].params / piece[i - 1].params) / std::log(1e3);
    const double dy = std::log(piece[i].tokens / piece[i - 1].tokens) / std::log(1e12);
    CHECK(std::hypot(dx, dy) <= 1.0 / 63 + 1e-12);
  }
}

TEST_CASE("isoloss map: bad options and marks are errors naming them", "[plots]") {
  const SardanaCompute s;
  IsolossOptions options;
  options.samples = 3;
  CHECK_THROWS_WITH(isoloss_map(s.rule, s.model, CostUnit::flops, s.target, s.marks(), options),
                    Catch::Contains("samples"));
  IsolossMarks bad = s.marks();
  bad.optimum.params = 0.0;
  CHECK_THROWS_WITH(isoloss_map(s.rule, s.model, CostUnit::flops, s.target, bad),
                    Catch::Contains("optimum"));
  CHECK_THROWS_AS(isoloss_map(s.rule, s.model, CostUnit::flops, 1.5, s.marks()), InputError);
}

TEST_CASE("log tics: decades labelled as scaleopt prints numbers, minor tics unlabelled",
          "[plots]") {
  const std::string tics = log_tics("x", 1e9, 1e12, Unit::count);
  CHECK_THAT(tics, Catch::StartsWith("set xtics ("));
  for (const char* label : {"'1B' 1000000000", "'10B' 1e+10", "'100B' 1e+11", "'1T' 1e+12"}) {
    CHECK_THAT(tics, Catch::Contains(label));
  }
  CHECK_THAT(tics, Catch::Contains("'' 2000000000 1"));  // a minor tic
  CHECK_THAT(log_tics("y", 0.01, 100, Unit::usd), Catch::Contains("'$0.01' 0.01"));
  // Many decades: every second one labelled, no minor tics.
  const std::string wide = log_tics("y", 1e3, 1e11, Unit::count);
  CHECK_THAT(wide, Catch::Contains("'1K' 1000"));
  CHECK_THAT(wide, Catch::Contains("'' 10000 1"));
  CHECK_THAT(wide, Catch::Contains("'100K' 100000"));
}

TEST_CASE("linear tics: steps of 1, 2 or 5 times a power of ten", "[plots]") {
  CHECK(nice_step(1.87e9, 6) == 5e8);  // 1.87e9 / 6 = 3.1e8 -> 5e8
  CHECK(nice_step(600, 6) == 100);
  CHECK(nice_step(0.9, 6) == 0.2);
  const std::string tics =
      linear_tics("y", 1.2e9, [](double v) { return format_quantity(v, Unit::usd); });
  CHECK(tics ==
        "set ytics ('$0' 0, '$200M' 200000000, '$400M' 400000000, '$600M' 600000000, "
        "'$800M' 800000000, '$1B' 1000000000, '$1.2B' 1200000000)\n");
  // Tic labels are printf formats to gnuplot: a percent sign is doubled.
  CHECK(linear_tics(
            "x", 1.0, [](double v) { return std::to_string(int(100 * v)) + "%"; }, 1) ==
        "set xtics ('0%%' 0, '100%%' 1)\n");
}

TEST_CASE("gnuplot strings, figure formats and title wrapping", "[plots]") {
  // Single quotes (gnuplot runs `...` in double quotes), a quote, @ or line break a piece of its
  // own; the property test in test_gnuplot_quoting.cpp runs such strings through gnuplot.
  CHECK(gnuplot_string("a 'b' \"c\" \\ `d`\ne") ==
        "'a '.\"\\047\".'b'.\"\\047\".' \"c\" \\ `d`'.\"\\n\".'e'");
  CHECK(gnuplot_string("'") == "\"\\047\"");
  CHECK(gnuplot_string("x@y") == "'x'.\"\\100\".'y'");
  CHECK(gnuplot_string("") == "''");
  CHECK(figure_format_of("out/fig.svg", "--out") == FigureFormat::svg);
  CHECK(figure_format_of("FIG.PNG", "--out") == FigureFormat::png);
  CHECK_THROWS_WITH(figure_format_of("fig.pdf", "--out"),
                    Catch::Contains("--out") && Catch::Contains("FILE.svg or FILE.png"));
  CHECK(wrap_list("aaaa; bbbb; cccc", 11) == "aaaa; bbbb;\ncccc");
  CHECK(wrap_list("aaaa; bbbb; cccc", 10) == "aaaa;\nbbbb; cccc");
  CHECK(wrap_list("short", 10) == "short");
  const std::string script = gnuplot_script(Figure{"demo", 640, 480, "plot x\n", {}, {}},
                                            FigureFormat::png, "o.png", "/data dir");
  CHECK_THAT(script, Catch::Contains("cd '/data dir'\n"));
  CHECK_THAT(script, Catch::Contains("set terminal pngcairo size 640,480 noenhanced"));
  CHECK_THAT(script, Catch::Contains("set output 'o.png'\nplot x\n"));
}

TEST_CASE("label layout: boxes of turned text, inside the plot and apart", "[plots]") {
  // 10 characters of 7 pixels and one line of 15, plus 3 pixels of margin all round.
  const LabelBox flat = text_box(100, 100, 10, 1, 0.0);
  CHECK(flat.half_width == Approx(38.0));
  CHECK(flat.half_height == Approx(10.5));
  const LabelBox upright = text_box(100, 100, 10, 1, 90.0);
  CHECK(upright.half_width == Approx(10.5));
  CHECK(upright.half_height == Approx(38.0));
  LabelLayout layout(400, 300);
  CHECK(layout.fits(flat));
  CHECK_FALSE(layout.fits(text_box(20, 100, 10, 1, 0.0)));  // runs past the left border
  layout.place(flat);
  CHECK_FALSE(layout.fits(upright));
  CHECK(layout.fits(text_box(100, 200, 10, 1, 0.0)));
}

TEST_CASE("phases figure: segments, shares and totals in its data", "[plots]") {
  const Figure figure = phases_figure({{"heuristic", 1.0, 1.0, 1.0}, {"optimum", 1.0, 2.0, 2.0}},
                                      {"title", "assumed", CostUnit::usd});
  REQUIRE(figure.data.size() == 3);
  CHECK(figure.data[0].text ==
        "# pretrain rl inference total plan\n1 1 1 3 \"heuristic\"\n1 2 2 5 \"optimum\"\n");
  CHECK_THAT(figure.data[1].text, Catch::Contains("0 0.5 \"$1 (33.3%)\""));
  CHECK_THAT(figure.data[1].text, Catch::Contains("1 4 \"$2 (40%)\""));  // 3 + 2/2
  CHECK_THAT(figure.data[2].text, Catch::Contains("1 5 \"total $5\""));
  CHECK_THROWS_WITH(phases_figure({{"bad", -1.0, 0.0, 0.0}}, {}), Catch::Contains("bad"));
  CHECK_THROWS_AS(phases_figure({}, {}), InputError);
}

TEST_CASE("histogram: every sample in one bin, edges even in the value or its log", "[plots]") {
  const std::vector<double> samples{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const Histogram even = histogram(samples, 3, false);
  REQUIRE(even.edges.size() == 4);
  CHECK(even.edges[1] == Approx(4.0));
  CHECK(even.counts == std::vector<double>{3, 3, 4});  // 10 falls in the last bin
  const Histogram log = histogram({1, 10, 100, 1000}, 3, true);
  CHECK(log.edges[1] == Approx(10.0));
  CHECK(log.edges[2] == Approx(100.0));
  CHECK(log.counts == std::vector<double>{1, 1, 2});
  CHECK(spans_decades({1, 30}));
  CHECK_FALSE(spans_decades({1, 29}));
  CHECK_FALSE(spans_decades({-1, 100}));
}

TEST_CASE("sweep lines: one per series value, sorted by x", "[plots]") {
  const auto lines = sweep_lines({{{3, 30, 0.2}}, {{1, 10, 0.1}}, {{2, 20, 0.2}}, {{1, 11, 0.2}}});
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].series == 0.1);
  CHECK(lines[1].points == std::vector<std::pair<double, double>>{{1, 11}, {2, 20}, {3, 30}});
  const auto single = sweep_lines({{{2, 1, NAN}}, {{1, 2, NAN}}});
  REQUIRE(single.size() == 1);
  CHECK(single[0].points.front().first == 1);
}

TEST_CASE("sweep lowest: interior only when both neighbours on its line are higher", "[plots]") {
  const auto line = [](std::vector<std::pair<double, double>> points) {
    return SweepLine{NAN, std::move(points)};
  };
  SweepText text;
  text.x = {"x", "x", [](double v) { return format_scientific(v); }};
  text.y = {"y", "y", [](double v) { return format_scientific(v); }};
  // A dip at the middle point.
  const std::vector<SweepLine> dip{line({{1, 3}, {2, 1}, {3, 2}})};
  CHECK(sweep_lowest(dip).interior);
  CHECK(sweep_lowest(dip).point == 1);
  CHECK(no_minimum_note(dip, text).empty());
  CHECK(sweep_figure(dip, text).notes.empty());
  // A plateau reaching the last point: the first lowest point ties its right neighbour.
  const std::vector<SweepLine> plateau{line({{1, 3}, {2, 1}, {3, 1}})};
  CHECK_FALSE(sweep_lowest(plateau).interior);
  CHECK(no_minimum_note(plateau, text) ==
        "y never rises over the whole range of x: no interior minimum");
  // The lowest of two lines is the one that counts: here at the end of the second.
  const std::vector<SweepLine> two{{0.1, {{1, 3}, {2, 2}, {3, 2.5}}},
                                   {0.2, {{1, 4}, {2, 3}, {3, 1}}}};
  CHECK(sweep_lowest(two).line == 1);
  CHECK_FALSE(sweep_lowest(two).interior);
  CHECK(no_minimum_note(two, text) ==
        "lowest y at an end of the range of x (x = 3): no interior minimum");
  CHECK(no_minimum_note({line({{1, 2}, {2, 2}, {3, 2}})}, text) ==
        "y is constant over the whole range of x: no interior minimum");
  CHECK(no_minimum_note({line({{1, 2}, {2, 1}})}, text) ==
        "fewer than 3 points along x: no interior minimum");
  const Figure figure = sweep_figure(plateau, text);
  REQUIRE(figure.notes.size() == 1);
  CHECK_THAT(figure.commands, !Catch::Contains("lowest"));
  CHECK_THROWS_AS(sweep_lowest({}), InputError);
}

TEST_CASE("count_text: suffixes up to T, the exponent form from 1e15", "[plots]") {
  CHECK(count_text(2.42e10) == "24.2B");
  CHECK(count_text(999e12) == "999T");
  CHECK(count_text(1e15) == "1e15");
  CHECK(count_text(3.2e16) == "3.2e16");
  CHECK(count_text(-1e15) == "-1e15");
  CHECK_THAT(log_tics("y", 1e13, 1e16, Unit::count), Catch::Contains("'100T' 1e+14") &&
                                                         Catch::Contains("'1e15' 1e+15") &&
                                                         !Catch::Contains("P'"));
}

TEST_CASE("tornado figure: each side a box from the base to its output", "[plots]") {
  const plots::SweepAxis axis{"params", "params (parameters)",
                              [](double v) { return format_quantity(v, Unit::count); }};
  const Figure figure =
      tornado_figure({{"law.alpha", "0.27 .. 0.40", 30e9, 15e9},
                      {"training.mfu", "0.32 .. 0.48", NAN, 21e9},  // no answer at -20%
                      {"inference.rate", "40M/s .. 60M/s", 19e9, 21e9}},
                     {"t", "a", axis, 20e9});
  // Two bars drawn (the one without an answer is left out), the first on top (y = 2).
  CHECK(figure.data[0].text ==
        "# x rank from to bottom top\n2.5e+10 2.2 2e+10 3e+10 2.02 2.38\n"
        "1.95e+10 1.2 1.9e+10 2e+10 1.02 1.38\n");
  CHECK(figure.data[1].text ==
        "# x rank from to bottom top\n1.75e+10 1.8 1.5e+10 2e+10 1.62 1.98\n"
        "2.05e+10 0.8 2e+10 2.1e+10 0.62 0.98\n");
  CHECK_THAT(figure.commands, Catch::Contains("base: params = 20B"));
  // The inputs label the y axis from a data file (not `set ytics`, where text is a format).
  CHECK(figure.data[4].text ==
        "# base rank input\n2e+10 2 \"law.alpha (0.27 .. 0.40)\"\n"
        "2e+10 1 \"inference.rate (40M/s .. 60M/s)\"\n");
  CHECK_THAT(figure.commands, Catch::Contains("'tornado_inputs.dat' using 1:2:ytic(3)"));
  CHECK_THROWS_AS(tornado_figure({{"x", "", NAN, 1.0}}, {"t", "a", axis, 1.0}), InputError);
}
