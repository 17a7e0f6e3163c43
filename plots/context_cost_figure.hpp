#pragma once
// Cost per input and output token against context length (log axes), from the inference
// roofline at the best batch of each context (problems/pricing/pricing_curve.hpp): output flat
// while decode can turn compute-bound, then rising with the KV read; the large-batch limit with its
// crossover S*; the knee where HBM fills first; the scenario's own context; and a provider's
// tiered price list over it.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/price_list.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/plots/figure.hpp"

namespace scaleopt::plots {

struct ContextCostOptions {
  // Tokens; the axis starts here, or a decade below S* or the knee when they come sooner.
  double first_context = 1e3;
  // The axis ends here, or further to show S* and every price step (twice the last one), but
  // never past the longest context one sequence can hold in the replica's HBM.
  double last_context = 1e6;
  int points = 121;       // log-spaced contexts, plus S*, the knee and each price step (>= 2)
  void validate() const;  // InputError naming the field
};

struct ContextCostText {
  std::string title;
  std::string assumptions;
  std::string price_list_name;  // the legend of the price list ("Gemini 2.5 Pro")
};

// The contexts drawn: log-spaced over the range, with S*, the knee and the price steps added.
// Exposed for tests.
struct ContextRange {
  double first = 0.0;
  double last = 0.0;
};
ContextRange context_range(const Roofline& roofline, const std::optional<PriceList>& prices,
                           const ContextCostOptions& options);

// Throws InputError (fields named with `prefix`) when the serving setup is invalid.
Figure context_cost_figure(const Roofline& roofline, const ServingSetup& setup,
                           const std::optional<PriceList>& prices, const ContextCostText& text,
                           std::string_view prefix, const ContextCostOptions& options = {});

// One model of a comparison: its roofline on its own replica.
struct ModelContextCost {
  std::string label;  // the legend: "deepseek-v4-pro, 24 x b200"
  Roofline roofline;
  ServingSetup setup;
};

struct ModelCurvePoint {
  double context = 0.0;
  bool fits = false;  // a sequence of this context fits beside the weights at some batch
  double usd_per_mtok_input = 0.0;
  double usd_per_mtok_output = 0.0;
};

// The rows of each model's lines: `points` contexts log-spaced from `first` to `last`, the
// best batch at each (problems/pricing/pricing_curve.hpp). Exposed for tests and tables.
std::vector<std::vector<ModelCurvePoint>> model_context_costs(
    const std::vector<ModelContextCost>& models, double first, double last, int points,
    std::string_view prefix);

// Cost per million output tokens (solid) and input tokens (dashed) against context, a line
// per model in its own colour, log axes; a model's lines end where one sequence no longer
// fits its replica. Throws InputError for an empty list or a bad range.
Figure context_cost_models_figure(const std::vector<ModelContextCost>& models,
                                  const ContextCostText& text, std::string_view prefix,
                                  double first = 8e3, double last = 1e6, int points = 61);

}  // namespace scaleopt::plots
