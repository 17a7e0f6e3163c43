#pragma once
// The figures of a scenario: its numbers computed (the lifecycle solution, the pricing curve)
// and handed to the figure builders of plots/, with titles that say what was assumed. Shared
// by `scaleopt plot` and `scaleopt report`.

#include <string>
#include <string_view>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

enum class PlotKind {
  isoloss,
  cost_vs_context,
  cost_vs_context_models,
  phases,
  sweep,
  tornado,
  uncertainty
};

std::string_view to_string(PlotKind kind);
// "isoloss, cost-vs-context, cost-vs-context-models, phases, sweep, tornado, uncertainty"
std::string plot_kind_names();
// Throws InputError "KIND: unknown plot 'x': expected one of ...".
PlotKind parse_plot_kind(std::string_view text);

// What the lifecycle figures assumed, on one line: the law, the demand, the prices and
// utilizations of each phase ("law epoch2024; 2.63e14 inference tokens (50M/s for 2mo); ...").
std::string lifecycle_assumptions(const Scenario& scenario, const QuestionSolution& solution);

// The iso-loss map of a solved scenario (plots/isoloss_figure.hpp).
plots::Figure isoloss_of(const Scenario& scenario, const QuestionSolution& solution);

// Lifetime cost by phase of the plans of a solved scenario (plots/phases_figure.hpp).
plots::Figure phases_of(const Scenario& scenario, const QuestionSolution& solution);

// Cost per token against context on the scenario's serving replica, with its [pricing] list
// (plots/context_cost_figure.hpp). Throws InputError when the setup cannot serve the model.
plots::Figure cost_vs_context_of(const Scenario& scenario);

// Cost per output and input token against context, 8K to 1M, for each model of
// inference.compare_models on the scenario's chip, precisions and price, each on the fewest
// whole nodes holding its weights twice (plots/context_cost_figure.hpp). Throws InputError
// when the scenario names no models.
plots::Figure cost_vs_context_models_of(const Scenario& scenario);

}  // namespace scaleopt::report
