#include "scaleopt/analysis/monte_carlo.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/fit/sample_statistics.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"
#include "scaleopt/scenario/uncertainty_table.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

enum class Outcome : unsigned char { converged, infeasible, not_converged, invalid };

// Samples per parallel task (each task copies the scenario once).
constexpr std::size_t kBlock = 256;

struct Sample {
  Outcome outcome = Outcome::invalid;
  bool fast = false;
  OutputValues optimum{};
  OutputValues heuristic{};
};

OutputQuantiles quantiles_of(const std::vector<Sample>& samples, bool heuristic) {
  OutputQuantiles result{};
  std::vector<double> values;
  values.reserve(samples.size());
  for (std::size_t j = 0; j < kElasticityOutputs.size(); ++j) {
    values.clear();
    for (const Sample& s : samples) {
      if (s.outcome == Outcome::converged)
        values.push_back((heuristic ? s.heuristic : s.optimum)[j]);
    }
    // The mean first: the quantiles reorder the values (the sum would then round otherwise).
    const double mean = values.empty() ? std::nan("")
                                       : std::accumulate(values.begin(), values.end(), 0.0) /
                                             static_cast<double>(values.size());
    const double p05 = quantile_in_place(values, 0.05);
    const double p50 = quantile_in_place(values, 0.5);
    const double p95 = quantile_in_place(values, 0.95);
    result[j] = {p05, p50, p95, mean};
  }
  return result;
}

}  // namespace

void MonteCarloOptions::validate() const {
  kSamplesLimit.check(static_cast<double>(samples));
  kThreadsLimit.check(threads);
  solver.validate();
}

MonteCarloReport run_monte_carlo(const Scenario& scenario, const MonteCarloOptions& options) {
  options.validate();
  const UncertaintySpec& spec = scenario.uncertainty;
  if (!spec.any()) {
    throw InputError(scenario.file +
                     ": uncertainty: the scenario has no [uncertainty] table: give inputs "
                     "distributions, e.g. \"inference.rate\" = { dist = \"lognormal\", median = "
                     "\"50M/s\", sigma = 0.5 } (docs/sensitivity.md)");
  }
  const QuestionSetup base = scenario_setup(scenario);
  const bool equal_cost = base.kind == ProblemKind::equal_cost;
  std::vector<NumericInputSetter> setters;
  MonteCarloReport report;
  for (const UncertainInput& input : spec.inputs) {
    setters.emplace_back(scenario, input.path);
    report.drawn.push_back(input.path);
  }
  std::optional<LawSampler> law_sampler;
  if (spec.law_bootstrap) {
    law_sampler.emplace(*scenario.law, bootstrap_uncertainty(*scenario.law));
    for (const char* name : kLawCoefficientNames)
      report.drawn.push_back(std::string("law.") + name);
  }
  if (options.keep_rows) {
    report.header = "sample";
    for (const std::string& name : report.drawn) report.header += "," + name;
    for (const std::string& column : summary_columns(answer_layout(base)))
      report.header += "," + column;
  }

  std::vector<Sample> samples(options.samples);
  const std::size_t blocks = (options.samples + kBlock - 1) / kBlock;
  std::vector<std::string> texts(options.keep_rows ? blocks : 0);
  parallel_for(blocks, options.threads, [&](std::size_t b) {
    Scenario work = scenario;
    std::vector<double> drawn(report.drawn.size());
    const std::size_t first = b * kBlock, last = std::min(options.samples, first + kBlock);
    for (std::size_t i = first; i < last; ++i) {
      throw_if_stopped(options.solver.stop);  // the fast path asks nothing itself
      Sample& sample = samples[i];
      SampleGenerator generator(options.seed, i);
      for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        drawn[k] = spec.inputs[k].distribution.draw(generator);
      }
      if (law_sampler) {
        law_sampler->draw(generator, *work.law);
        const LossLaw& law = *work.law;
        std::copy_n(std::array{law.E, law.A, law.B, law.alpha, law.beta}.begin(), 5,
                    drawn.end() - 5);
      }
      std::optional<QuestionSummary> summary;
      try {
        // scenario_setup validates what the question uses (law, setups, demand, problem).
        for (std::size_t k = 0; k < setters.size(); ++k) setters[k].set(work, drawn[k]);
        summary = solve_question_summary(scenario_setup(work), options.solver, options.method);
      } catch (const InputError&) {
        sample.outcome = Outcome::invalid;
      }
      if (summary) {
        const Status status = summary->status();
        // invalid_input: the answer overflowed (problems/question/question_summary.hpp).
        sample.outcome = status == Status::converged       ? Outcome::converged
                         : status == Status::infeasible    ? Outcome::infeasible
                         : status == Status::invalid_input ? Outcome::invalid
                                                           : Outcome::not_converged;
        const AnswerSummary& optimum = summary->has_optimum ? summary->optimum : summary->answer;
        sample.fast = optimum.path == SolvePath::newton;
        sample.optimum = outputs_of(optimum, summary->unit);
        sample.heuristic = outputs_of(summary->answer, summary->unit);
      }
      if (options.keep_rows) {
        std::string& row = texts[b];
        append_integer(row, i);
        for (double v : drawn) {
          row += ',';
          append_number(row, v);
        }
        row += ',';
        if (summary) {
          append_summary_cells(row, *summary, answer_layout(base), options.solver.algorithm);
        } else {
          append_unsolved_cells(row, answer_layout(base), Status::invalid_input);
        }
        row += '\n';
      }
    }
  });

  report.samples = options.samples;
  for (const Sample& s : samples) {
    report.converged += s.outcome == Outcome::converged;
    report.infeasible += s.outcome == Outcome::infeasible;
    report.not_converged += s.outcome == Outcome::not_converged;
    report.invalid += s.outcome == Outcome::invalid;
    report.fast_path += s.fast;
  }
  if (options.keep_outputs) {
    for (const Sample& s : samples) {
      if (s.outcome == Outcome::converged) report.outputs.push_back(s.optimum);
    }
  }
  report.quantiles = quantiles_of(samples, false);
  if (equal_cost) report.heuristic = quantiles_of(samples, true);
  for (const std::string& text : texts) report.rows += text;
  return report;
}

}  // namespace scaleopt
