#pragma once
// Monte Carlo outputs as histograms, one panel per output, each with its 5%, 50% and 95%
// quantiles marked and labelled. Bins are even in the output, or in its logarithm when the
// samples span at least 30x.

#include <string>
#include <vector>

#include "scaleopt/plots/figure.hpp"
#include "scaleopt/plots/sweep_figure.hpp"  // SweepAxis

namespace scaleopt::plots {

struct UncertaintyPanel {
  SweepAxis output;                        // name, axis label, format
  std::vector<double> samples;             // the output of every converged sample
  double p05 = 0.0, p50 = 0.0, p95 = 0.0;  // as the analysis reports them
};

struct UncertaintyText {
  std::string title;
  std::string assumptions;
};

// Counts of `samples` in `bins` bins over [low, high] (even, or even in log when `log`).
struct Histogram {
  std::vector<double> edges;  // bins + 1
  std::vector<double> counts;
};
Histogram histogram(const std::vector<double>& samples, int bins, bool log);

// Throws InputError when there is no panel or a panel has no sample.
Figure uncertainty_figure(const std::vector<UncertaintyPanel>& panels, const UncertaintyText& text,
                          int bins = 40);

}  // namespace scaleopt::plots
