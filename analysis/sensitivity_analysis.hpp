#pragma once
// Which assumption moves the answer, and by how much (scaleopt sensitivity; method:
// docs/sensitivity.md). For every numeric input p of a scenario (numeric_inputs):
//  - the elasticities d ln y / d ln p of the optimum's outputs (params, pretraining tokens,
//    loss, total cost, over-Chinchilla factor) by the implicit-function theorem on the KKT
//    system, and for equal-cost those of the heuristic's closed form;
//  - a tornado row: p moved down and up by a fraction (default 20%, kept within the input's
//    allowed range), the question re-solved, and the swing of one output.
// A whole-number input (layers, heads, experts, chips: NumericInput::whole_number) has no
// derivative: its elasticities are secants over whole steps (p - 1 and p + 1, re-solved), and its
// tornado sides are whole numbers, at least one step away. `inputs` and `exclude` choose which
// inputs are analysed.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/question/question_elasticity.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

namespace scaleopt {

struct SensitivityAnalysisOptions {
  double tornado_fraction = 0.2;  // inputs moved by -+20%; in (0, 1)
  std::size_t rank_by = 0;        // the output the tornado ranks by (kElasticityOutputs index)
  unsigned threads = 0;           // 0: one per hardware thread
  SolverOptions solver;
  SolveMethod method = SolveMethod::automatic;  // how tornado points are re-solved
  ElasticityOptions elasticity;
  // Names or shell globs (fnmatch(3): "inference.*", "law.?") of the inputs analysed (empty:
  // every numeric input) and of those left out; each must match an input of the scenario.
  std::vector<std::string> inputs;
  std::vector<std::string> exclude;
  void validate() const;  // InputError naming the flag
};

// The input moved one way, re-solved.
struct TornadoSide {
  double value = 0.0;  // the input's value (clamped to its range)
  Status status = Status::invalid_input;
  std::string message;     // why there is no answer (a rule broken, infeasible, ...)
  OutputValues outputs{};  // of the optimum, when status is converged
};

struct InputSensitivity {
  std::string path;
  Unit unit = Unit::number;
  double value = 0.0;
  bool whole_number = false;  // elasticities by whole steps, tornado sides whole
  Elasticity optimum;
  std::optional<Elasticity> heuristic;  // equal-cost
  TornadoSide low, high;
  double swing = 0.0;  // |y(high) - y(low)| / y(base) of the ranked output; NaN when unknown
};

struct SensitivityReport {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  CostUnit unit = CostUnit::usd;
  OutputValues base{};                    // the optimum's outputs
  std::optional<OutputValues> heuristic;  // equal-cost: the heuristic's
  std::vector<InputSensitivity> inputs;   // in numeric_inputs order (those chosen)
  // The chips per replica the optimum chose when inference.chips is absent: the elasticities
  // hold the size there (a discrete choice has no derivative); empty when given or not served.
  std::optional<double> replica_chips_held;
  // Indices into inputs, largest swing first: the scenario's inputs, then the law's
  // coefficients (law.*) as a group of their own (a fit's uncertainty, not an economic choice).
  std::vector<std::size_t> tornado;
};

// Throws InputError for bad input or an infeasible question (as solve). A base that does not
// converge gives status not_converged and no report.
struct SensitivityResult {
  Status status = Status::converged;
  std::string message;
  SensitivityReport report;
};
SensitivityResult analyse_sensitivity(const Scenario& scenario,
                                      const SensitivityAnalysisOptions& options);

// Whether `path` is one of the law's coefficients (the tornado's second group).
bool law_coefficient(std::string_view path);

// The numeric inputs of `scenario` that `options.inputs` and `options.exclude` choose, in
// numeric_inputs order. InputError "inputs: 'x' matches no numeric input ..." (or
// --exclude) for a pattern that matches none, and when none is left.
std::vector<NumericInput> chosen_inputs(const Scenario& scenario,
                                        const SensitivityAnalysisOptions& options);

// The index in kElasticityOutputs of `text` ("params", "cost_total", ...); InputError
// "FLAG: unknown output 'x': expected one of ..." otherwise.
std::size_t parse_elasticity_output(const std::string& text, std::string_view flag);

}  // namespace scaleopt
