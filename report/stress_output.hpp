#pragma once
// How the stress run is shown: counts by outcome and by class, the largest difference between
// NLopt and the independent methods, the time taken, and each failing instance as a file that
// reproduces it; or JSON.

#include <ostream>
#include "scaleopt/report/json_fwd.hpp"

#include "scaleopt/analysis/stress_check.hpp"

namespace scaleopt::report {

// What the run took, beside its (thread-count independent) summary.
struct StressTiming {
  double seconds = 0.0;
  unsigned threads = 1;
};

// Keys: instances, agreed, infeasible, disagreed, failed, seed, tolerance,
// largest_difference, classes (per class: instances, the four counts, largest_difference),
// failures (index, class, outcome, message, reproduction; the first of them),
// failures_not_listed, seconds, threads.
Json stress_json(const StressSummary& summary, const StressRunOptions& options,
                 const StressTiming& timing);

std::string stress_text(const StressSummary& summary, const StressRunOptions& options,
                        const StressTiming& timing);

}  // namespace scaleopt::report
