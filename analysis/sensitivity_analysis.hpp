#pragma once
// Which assumption moves the answer, and by how much (scaleopt sensitivity; method:
// docs/sensitivity.md). For every numeric input p of a scenario (numeric_inputs):
//  - the elasticities d ln y / d ln p of the optimum's outputs (params, pretraining tokens,
//    loss, total cost, over-Chinchilla factor) by the implicit-function theorem on the KKT
//    system, and for equal-cost those of the heuristic's closed form;
//  - a tornado row: p moved down and up by a fraction (default 20%, kept within the input's
//    allowed range), the question re-solved, and the swing of one output.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/question/question_elasticity.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

struct SensitivityAnalysisOptions {
  double tornado_fraction = 0.2;  // inputs moved by -+20%; in (0, 1)
  std::size_t rank_by = 0;        // the output the tornado ranks by (kElasticityOutputs index)
  unsigned threads = 0;           // 0: one per hardware thread
  SolverOptions solver;
  SolveMethod method = SolveMethod::automatic;  // how tornado points are re-solved
  ElasticityOptions elasticity;
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
  std::vector<InputSensitivity> inputs;   // in numeric_inputs order
  std::vector<std::size_t> tornado;       // indices into inputs, largest swing first
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

// The index in kElasticityOutputs of `text` ("params", "cost_total", ...); InputError
// "FLAG: unknown output 'x': expected one of ..." otherwise.
std::size_t parse_elasticity_output(const std::string& text, std::string_view flag);

}  // namespace scaleopt
