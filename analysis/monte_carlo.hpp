#pragma once
// Monte Carlo over a scenario's uncertain inputs (scaleopt uncertainty): every sample draws its
// inputs from the [uncertainty] distributions with its own random stream, seeded from (seed,
// sample index) (scenario/sample_generator.hpp), and is solved (the fast path where costs are
// linear in N or priced by the roofline, NLopt otherwise). Quantiles of the outputs over the
// samples that converged, and the shares of samples that were infeasible, invalid (a draw outside
// what the input allows, or breaking a rule between keys) or not converged. The same seed gives the
// same answer at any thread count.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scaleopt/problems/question/question_elasticity.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

struct MonteCarloOptions {
  std::size_t samples = 10000;
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: one per hardware thread
  SolverOptions solver;
  SolveMethod method = SolveMethod::automatic;
  bool keep_rows = false;     // a CSV row per sample (--out)
  bool keep_outputs = false;  // the optimum's outputs of every converged sample (histograms)
  void validate() const;      // InputError naming the field (counts: solver/limits.hpp)
};

struct Quantiles {
  double p05 = 0.0, p50 = 0.0, p95 = 0.0, mean = 0.0;  // NaN without converged samples
};
using OutputQuantiles = std::array<Quantiles, kElasticityOutputs.size()>;

struct MonteCarloReport {
  std::size_t samples = 0;
  std::size_t converged = 0;
  std::size_t infeasible = 0;
  std::size_t not_converged = 0;
  std::size_t invalid = 0;
  std::size_t fast_path = 0;
  std::vector<std::string> drawn;            // what each sample draws: input paths, law.E, ...
  OutputQuantiles quantiles{};               // of the optimum's outputs
  std::optional<OutputQuantiles> heuristic;  // equal-cost: of the heuristic's plan
  std::string header;                        // with keep_rows: "sample,<drawn>,<columns>"
  std::string rows;                          // with keep_rows: one line per sample, in order
  // With keep_outputs: the optimum's outputs of the converged samples, in sample order (the
  // values the quantiles are taken over).
  std::vector<OutputValues> outputs;
};

// Throws InputError when the scenario has no [uncertainty] table, or for bad options.
MonteCarloReport run_monte_carlo(const Scenario& scenario, const MonteCarloOptions& options);

}  // namespace scaleopt
