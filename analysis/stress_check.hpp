#pragma once
// The stress run's judge (`scaleopt selftest`, docs/reliability.md): each random instance of
// analysis/stress_instance.hpp is solved the way users get answers (NLopt, through the same
// functions `scaleopt optimal` and `scaleopt solve` call) and by an independent method, and
// the two must agree:
//
//   compute-at-budget, compute-at-loss  Hoffmann's closed forms in 50-digit arithmetic
//   min-lifetime, max-quality           the 1-D reductions (TOMS 748 on the optimality condition)
//   equal-cost                          the heuristic's closed form re-costed by the cost model
//                                       (its shares must come back), and its optimum against
//                                       the 1-D reduction
//
// Feasibility is decided by the checker on its own (a target at or below E, a frontier beyond
// 1e30 parameters, a model larger than the replica serves, a budget below the cost of the
// smallest model with one token): an infeasible instance must be reported infeasible by both
// methods. A solver that throws, fails to converge on a feasible instance or prints a
// non-finite figure is a failure.

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "scaleopt/analysis/stress_instance.hpp"
#include "scaleopt/solver/solver_options.hpp"

namespace scaleopt {

enum class StressOutcome { agreed, infeasible, disagreed, failed };
inline constexpr int kStressOutcomeCount = 4;
std::string_view to_string(StressOutcome outcome);

struct StressCheckOptions {
  // Largest accepted relative difference on N and on D between NLopt and the independent
  // method. The KKT polish and TOMS 748 both resolve the optimum to ~1e-13 in ln N; 1e-8
  // leaves room for flat optima and for optima pinned against the wall where the weights fill
  // the replica (docs/reliability.md).
  double tolerance = 1e-8;
  // Largest accepted difference between the equal-cost shares asked for and those of the
  // heuristic's plan re-costed: a few roundings of sums of three terms.
  double shares_tolerance = 1e-12;
  SolverOptions solver;  // as `scaleopt solve` runs by default
  void validate() const;
};

struct StressCheck {
  StressOutcome outcome = StressOutcome::failed;
  // Largest relative difference on N and D between the two methods (NaN when not compared).
  double difference = std::numeric_limits<double>::quiet_NaN();
  std::string message;  // what went wrong (disagreed, failed); empty otherwise
  // Whether the fast path of sweeps and Monte Carlo (problems/question/question_fast.hpp) applied
  // and was held to the same verdict and reference as NLopt (min-lifetime, max-quality,
  // equal-cost).
  bool fast_path_checked = false;
};

// Never throws but Interrupted (when options.solver.stop says so): an exception from a solver is
// a failure, with its message.
StressCheck check_stress_instance(const StressInstance& instance,
                                  const StressCheckOptions& options = {});

struct StressRunOptions {
  std::uint64_t instances = 2000;
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: one per hardware thread; the results do not depend on it
  StressCheckOptions check;
  // Disagreed and failed instances kept in the summary (the lowest indices); the rest are
  // only counted, so that a run of 1e9 instances that all fail still fits in memory.
  std::uint64_t failures_kept = 1000;
  // Asked after each block of instances (in index order) with the number checked so far; once
  // it says true the run ends there and the summary covers those instances. Empty: never.
  // (check.solver.stop, asked before each instance, abandons the run: it throws Interrupted.)
  std::function<bool(std::uint64_t checked)> stop;
  // Throws InputError naming the field (instances, failures_kept, threads: solver/limits.hpp).
  void validate() const;
};

struct StressClassSummary {
  std::array<std::uint64_t, kStressOutcomeCount> counts{};  // by StressOutcome
  double largest_difference = 0.0;                          // over agreed instances
  std::uint64_t fast_path_checked = 0;                      // StressCheck::fast_path_checked
};

struct StressFailure {
  std::uint64_t index = 0;
  StressClass kind = StressClass::compute_at_budget;
  StressOutcome outcome = StressOutcome::failed;
  std::string message;
};

struct StressSummary {
  std::uint64_t instances = 0;
  std::uint64_t seed = 0;
  std::array<std::uint64_t, kStressOutcomeCount> counts{};  // by StressOutcome
  std::array<StressClassSummary, kStressClassCount> by_class{};
  double largest_difference = 0.0;      // over agreed instances
  std::uint64_t fast_path_checked = 0;  // instances the fast path also answered, checked
  // Disagreed and failed, in index order: the first StressRunOptions::failures_kept of them.
  std::vector<StressFailure> failures;

  std::uint64_t count(StressOutcome outcome) const {
    return counts[static_cast<std::size_t>(outcome)];
  }
  // Disagreed and failed instances, kept or not.
  std::uint64_t failure_count() const {
    return count(StressOutcome::disagreed) + count(StressOutcome::failed);
  }
  // Adds instance `index`'s check; instances must come in index order (failures are kept in
  // order, up to `failures_kept`).
  void add(std::uint64_t index, const StressCheck& check, std::uint64_t failures_kept);
};

// Generates and checks instances 0 .. instances-1 of the seed on `threads` threads, a block at
// a time: memory does not grow with the count. The summary is the same at any thread count.
StressSummary run_stress(const StressRunOptions& options);

}  // namespace scaleopt
