#include "scaleopt/plots/context_cost_figure.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/plots/gnuplot_text.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"

namespace scaleopt::plots {
namespace {

constexpr double kTokensPerMillion = 1e6;

std::string context_text(double tokens) {
  return format_quantity(tokens, Unit::count, 3) + " tokens";
}

}  // namespace

void ContextCostOptions::validate() const {
  if (!(first_context >= 1.0 && std::isfinite(first_context))) {
    throw InputError("cost-vs-context: first_context must be >= 1 token");
  }
  if (!(last_context > first_context && std::isfinite(last_context))) {
    throw InputError("cost-vs-context: last_context must exceed first_context");
  }
  if (points < 2 || points > 10000) {
    throw InputError("cost-vs-context: points must be 2 to 10000, got " + std::to_string(points));
  }
}

ContextRange context_range(const Roofline& roofline, const std::optional<PriceList>& prices,
                           const ContextCostOptions& options) {
  options.validate();
  ContextRange range{options.first_context, options.last_context};
  const double s_star = crossover_context(roofline);
  if (std::isfinite(s_star)) range.last = std::max(range.last, 2 * s_star);
  // S* and the knee a decade inside the axis, so that the flat part shows.
  for (const double marked : {s_star, hbm_knee_context(roofline).context_tokens}) {
    if (std::isfinite(marked) && marked > 0.0 && marked < 10 * range.first) {
      range.first = std::max(1.0, std::pow(10.0, std::floor(std::log10(marked / 10))));
    }
  }
  if (prices) {
    for (const PriceTier& tier : prices->tiers) {
      if (std::isfinite(tier.max_context_tokens)) {
        range.last = std::max(range.last, 2 * tier.max_context_tokens);
      }
    }
  }
  // One sequence at batch 1 must fit next to the weights.
  const double longest = longest_context(roofline, roofline.hbm_bytes - roofline.weight_bytes);
  if (longest > 0.0 && std::isfinite(longest)) range.last = std::min(range.last, longest);
  if (!(range.last > range.first)) {
    throw InputError("cost-vs-context: the replica's HBM holds no sequence longer than " +
                     context_text(longest) + " next to the weights");
  }
  return range;
}

Figure context_cost_figure(const Roofline& roofline, const ServingSetup& setup,
                           const std::optional<PriceList>& prices, const ContextCostText& text,
                           std::string_view prefix, const ContextCostOptions& options) {
  const ContextRange range = context_range(roofline, prices, options);
  const double s_star = crossover_context(roofline);
  const KneeResult knee = hbm_knee_context(roofline);
  std::vector<double> contexts = log_spaced_contexts(range.first, range.last, options.points);
  auto add = [&](double context) {
    if (std::isfinite(context) && context > range.first && context < range.last) {
      contexts.push_back(context);
    }
  };
  add(s_star);
  add(knee.context_tokens);
  if (prices) {
    for (const PriceTier& tier : prices->tiers) add(tier.max_context_tokens);
  }
  std::sort(contexts.begin(), contexts.end());
  const PricingCurve curve = pricing_curve(roofline, setup, contexts, prefix);
  if (curve.status != Status::converged) throw InputError("cost-vs-context: " + curve.message);

  Figure figure;
  figure.name = "cost_vs_context";
  figure.width = 1000;
  figure.height = 680;
  DataTable costs({"context", "usd_per_mtok_input", "usd_per_mtok_output",
                   "usd_per_mtok_output_large_batch", "batch"});
  double low = INFINITY, high = 0.0;
  for (const CurvePoint& point : curve.points) {
    const double input = point.plan.input_token.usd * kTokensPerMillion;
    const double output = point.plan.output_token.usd * kTokensPerMillion;
    const double large = point.output.large_batch_usd * kTokensPerMillion;
    costs.row({point.plan.context_tokens, input, output, large, point.plan.batch});
    low = std::min({low, input, output, large});
    high = std::max({high, input, output, large});
  }
  figure.data.push_back({"cost_vs_context.dat", costs.file()});
  // The output line is drawn wide under the input line: below S* both cost the same.
  std::vector<std::string> clauses{
      "'cost_vs_context.dat' using 1:3 with lines lw 4 lc rgb '#d62728' title "
      "'output token, best batch'",
      "'' using 1:4 with lines lw 1.5 dt (6,4) lc rgb '#d62728' title "
      "'output token, large-batch limit'",
      "'' using 1:2 with lines lw 1.8 lc rgb '#1f77b4' title 'input token (prefill)'"};
  if (prices) {
    // The price list as a staircase: each tier from the previous bound to its own.
    DataTable tiers({"context", "usd_per_mtok_input", "usd_per_mtok_output"});
    double from = range.first;
    for (const PriceTier& tier : prices->tiers) {
      const double to = std::min(tier.max_context_tokens, range.last);
      if (to >= from) {
        tiers.row({from, tier.usd_per_mtok_input, tier.usd_per_mtok_output});
        tiers.row({to, tier.usd_per_mtok_input, tier.usd_per_mtok_output});
        for (const double price : {tier.usd_per_mtok_input, tier.usd_per_mtok_output}) {
          if (price > 0.0) low = std::min(low, price), high = std::max(high, price);
        }
      }
      from = to;
      if (from >= range.last) break;
    }
    figure.data.push_back({"cost_vs_context_prices.dat", tiers.file()});
    const std::string name = text.price_list_name.empty() ? "price" : text.price_list_name;
    clauses.push_back(
        "'cost_vs_context_prices.dat' using 1:3 with lines lw 2 lc rgb "
        "'#7f3f00' title " +
        gnuplot_string(name + ": output price"));
    clauses.push_back("'' using 1:2 with lines lw 2 lc rgb '#6a3d9a' title " +
                      gnuplot_string(name + ": input price"));
  }

  std::string& c = figure.commands;
  c += "set title " + gnuplot_string(text.title + "\n" + wrap_list(text.assumptions)) + "\n";
  c += "set xlabel " + gnuplot_string("context (tokens in each sequence's KV cache, log scale)") +
       "\n";
  c += "set ylabel 'cost per million tokens (USD, log scale)'\n";
  c += "set logscale xy\n";
  c += log_range("x", range.first, range.last);
  const double y_low = std::pow(10.0, std::floor(std::log10(low)));
  const double y_high = std::pow(10.0, std::ceil(std::log10(high * 1.5)));
  c += log_range("y", y_low, y_high);
  c += log_tics("x", range.first, range.last, Unit::count);
  c += log_tics("y", y_low, y_high, Unit::usd);
  c += "set tics out nomirror\n";
  c += "set border 3\n";
  c += "set grid xtics ytics lc rgb '#ececec'\n";
  c += "set key outside below horizontal maxcols 2\n";
  int tag = 1;
  auto vertical = [&](double context, const std::string& label, const std::string& colour,
                      double height) {
    if (!(context > range.first && context < range.last)) return;
    c += "set arrow " + std::to_string(tag) + " from " + number(context) + "," + number(y_low) +
         " to " + number(context) + "," + number(y_high) + " nohead dt (3,3) lc rgb " +
         gnuplot_string(colour) + " back\n";
    // Left of the line, unless the text would run past the left border (about 7 pixels a
    // character on a plot about 850 pixels wide).
    const double room = std::log(context / range.first) / std::log(range.last / range.first) * 850;
    const bool left_of_line = room > 7.0 * label.size() + 12.0;
    c += "set label " + std::to_string(tag) + " " + gnuplot_string(label) + " at " +
         number(context) + ", graph " + number(height) +
         (left_of_line ? " right offset char -0.6,0" : " left offset char 0.6,0") + " tc rgb " +
         gnuplot_string(colour) + " front\n";
    ++tag;
  };
  vertical(s_star, "S* = " + context_text(s_star), "#000000", 0.95);
  vertical(setup.context_tokens,
           "the scenario's context = " + format_exact_count(setup.context_tokens) + " tokens",
           "#1f77b4", 0.81);
  if (knee.status == Status::converged) {
    vertical(knee.context_tokens, "knee (HBM full) = " + context_text(knee.context_tokens),
             "#555555", 0.88);
  }
  c += plot_command(clauses);
  return figure;
}

std::vector<std::vector<ModelCurvePoint>> model_context_costs(
    const std::vector<ModelContextCost>& models, double first, double last, int points,
    std::string_view prefix) {
  const std::vector<double> contexts = log_spaced_contexts(first, last, points);
  std::vector<std::vector<ModelCurvePoint>> lines;
  for (const ModelContextCost& model : models) {
    const PricingCurve curve = pricing_curve(model.roofline, model.setup, contexts, prefix);
    std::vector<ModelCurvePoint> line;
    for (const CurvePoint& point : curve.points) {
      ModelCurvePoint row;
      row.context = point.plan.context_tokens;
      row.fits = point.feasible();
      if (point.feasible() && point.plan.status != Status::converged) {
        throw InputError("cost-vs-context-models: " + model.label + ": " + point.plan.message);
      }
      if (row.fits) {
        row.usd_per_mtok_input = point.plan.input_token.usd * kTokensPerMillion;
        row.usd_per_mtok_output = point.plan.output_token.usd * kTokensPerMillion;
      }
      line.push_back(row);
    }
    lines.push_back(line);
  }
  return lines;
}

Figure context_cost_models_figure(const std::vector<ModelContextCost>& models,
                                  const ContextCostText& text, std::string_view prefix,
                                  double first, double last, int points) {
  if (models.empty()) throw InputError("cost-vs-context-models: no models to compare");
  ContextCostOptions range_check;
  range_check.first_context = first;
  range_check.last_context = last;
  range_check.points = points;
  range_check.validate();
  const std::vector<std::vector<ModelCurvePoint>> lines =
      model_context_costs(models, first, last, points, prefix);
  // Colour-blind-safe qualitative colours (Okabe and Ito), one per model, then repeating.
  const char* colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                           "#e69f00", "#56b4e9", "#000000"};
  Figure figure;
  figure.name = "cost_vs_context_models";
  figure.width = 1000;
  figure.height = 680;
  DataTable costs({"model", "context", "usd_per_mtok_input", "usd_per_mtok_output"});
  double low = INFINITY, high = 0.0;
  std::vector<std::string> clauses;
  int data_set = 0;
  for (std::size_t m = 0; m < models.size(); ++m) {
    const bool any = std::any_of(lines[m].begin(), lines[m].end(),
                                 [](const ModelCurvePoint& row) { return row.fits; });
    if (!any) continue;  // fits nowhere on the axis: no line (the caller's table says so)
    for (const ModelCurvePoint& row : lines[m]) {
      if (!row.fits) continue;  // the line ends where a sequence no longer fits
      costs.row(
          {static_cast<double>(m), row.context, row.usd_per_mtok_input, row.usd_per_mtok_output});
      low = std::min({low, row.usd_per_mtok_input, row.usd_per_mtok_output});
      high = std::max({high, row.usd_per_mtok_input, row.usd_per_mtok_output});
    }
    costs.next_set();  // one gnuplot data set per model (index m)
    const std::string colour = colours[m % (sizeof colours / sizeof colours[0])];
    const std::string index = " index " + std::to_string(data_set);
    clauses.push_back(std::string(data_set++ == 0 ? "'cost_vs_context_models.dat'" : "''") + index +
                      " using 2:4 with lines lw 3 lc rgb " + gnuplot_string(colour) + " title " +
                      gnuplot_string(models[m].label + ": output"));
    clauses.push_back("''" + index + " using 2:3 with lines lw 1.5 dt (6,4) lc rgb " +
                      gnuplot_string(colour) + " title " +
                      gnuplot_string(models[m].label + ": input"));
  }
  if (!(high > 0.0)) {
    throw InputError("cost-vs-context-models: no model fits its replica at " + context_text(first));
  }
  figure.data.push_back({"cost_vs_context_models.dat", costs.file()});
  std::string& c = figure.commands;
  c += "set title " + gnuplot_string(text.title + "\n" + wrap_list(text.assumptions)) + "\n";
  c += "set xlabel " + gnuplot_string("context (tokens in each sequence's KV cache, log scale)") +
       "\n";
  c += "set ylabel " + gnuplot_string("cost per million tokens (USD, log scale)") + "\n";
  c += "set logscale xy\n";
  c += log_range("x", first, last);
  const double y_low = std::pow(10.0, std::floor(std::log10(low)));
  const double y_high = std::pow(10.0, std::ceil(std::log10(high * 1.5)));
  c += log_range("y", y_low, y_high);
  c += log_tics("x", first, last, Unit::count);
  c += log_tics("y", y_low, y_high, Unit::usd);
  c += "set tics out nomirror\n";
  c += "set border 3\n";
  c += "set grid xtics ytics lc rgb '#ececec'\n";
  c += "set key outside below horizontal maxcols 2\n";
  c += plot_command(clauses);
  return figure;
}

}  // namespace scaleopt::plots
