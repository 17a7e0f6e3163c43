#pragma once
// Training runs shared by the fit tests: Epoch AI's digitisation of Hoffmann et al.'s Figure 4
// (tests/data/chinchilla_fig4_epoch.csv, see tests/data/README.md), and runs generated from a
// known law with noise.

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "scaleopt/problems/fit/bootstrap_resample.hpp"
#include "scaleopt/problems/fit/scaling_law_fit.hpp"
#include "scaleopt/scenario/runs_csv.hpp"

inline std::string epoch_csv_path() {
  return std::string(SCALEOPT_SOURCE_DIR) + "/tests/data/chinchilla_fig4_epoch.csv";
}

// All 245 runs, D = C / (6 N).
inline std::vector<scaleopt::TrainingRun> epoch_runs_all() {
  return scaleopt::read_runs_csv(
             epoch_csv_path(),
             {.params = "Model Size", .tokens = "", .flops = "Training FLOP", .loss = "loss"})
      .runs;
}

// The 240 runs Epoch fit: the 5 of highest loss dropped.
inline std::vector<scaleopt::TrainingRun> epoch_runs() {
  return scaleopt::without_highest_loss(epoch_runs_all(), 5);
}

// A standard normal draw by Box-Muller from the portable uniform_below (so that the data are
// the same with any standard library).
inline double standard_normal(std::mt19937_64& generator) {
  constexpr std::uint64_t kSteps = std::uint64_t{1} << 53;
  const double u1 = (static_cast<double>(scaleopt::uniform_below(generator, kSteps)) + 0.5) /
                    static_cast<double>(kSteps);
  const double u2 =
      static_cast<double>(scaleopt::uniform_below(generator, kSteps)) / static_cast<double>(kSteps);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// `sizes` x `ratios` runs from `law`: N log-spaced over 7e7..1.6e10 and D/N over 2..100 (the
// span of Hoffmann's Figure 4), each loss multiplied by exp(noise * z), z standard normal.
inline std::vector<scaleopt::TrainingRun> synthetic_runs(const scaleopt::LossLaw& law, int sizes,
                                                         int ratios, double noise,
                                                         std::uint64_t seed) {
  std::mt19937_64 generator = scaleopt::replicate_generator(seed, 0);
  std::vector<scaleopt::TrainingRun> runs;
  for (int i = 0; i < sizes; ++i) {
    const double params = 7e7 * std::pow(1.6e10 / 7e7, i / (sizes - 1.0));
    for (int j = 0; j < ratios; ++j) {
      const double tokens = params * 2.0 * std::pow(50.0, j / (ratios - 1.0));
      const double loss = law.loss(params, tokens) * std::exp(noise * standard_normal(generator));
      runs.push_back({params, tokens, loss});
    }
  }
  return runs;
}
