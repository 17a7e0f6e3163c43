#pragma once
// Solving the points of a sweep (or any list of grid points) on several threads, and turning
// each into a CSV row: "point,points,<the varied inputs>,<the answer's columns>". Each point is
// computed from the base scenario and its own grid values alone (no warm start from another
// point: the fast path starts from closed-form brackets, NLopt from the problem's own start),
// so a row's text is the same whatever thread, chunk or shard computes it.

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "scaleopt/cli/sweep_grid.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {

struct SweepOptions {
  unsigned threads = 0;  // 0: one per hardware thread
  SolverOptions solver;  // the NLopt path
  SolveMethod method = SolveMethod::automatic;
  void validate() const;  // throws InputError naming the field
};

// Rows by outcome, and by how they were solved.
struct SweepTally {
  std::size_t points = 0;
  std::size_t converged = 0;
  std::size_t infeasible = 0;
  std::size_t not_converged = 0;
  std::size_t invalid_input = 0;  // the point's inputs break a rule between keys
  std::size_t fast_path = 0;      // answered by the 1-D Newton fast path
  void add(const SweepTally& other);
};

class SweepRunner {
 public:
  // `base` needs a [law] and a [problem] (InputError otherwise).
  SweepRunner(const Scenario& base, const SweepGrid& grid, const SweepOptions& options);

  // "point,points,PATH...,COLUMN..." (no newline).
  std::string header() const;

  // The grid values of `point` as the row prints them (for checking a partial file).
  std::string values_text(std::size_t point) const;

  // Solves `points` (increasing) and hands their rows, in that order, to `write` (a block of
  // rows at a time, from whichever worker finished it, never two at once). Before each point
  // `stop()` is asked; once it says true, the remaining points are skipped (their rows are
  // simply absent). `done(n)` is called as points finish. Returns the tally of the rows
  // written.
  SweepTally solve(std::span<const std::size_t> points,
                   const std::function<void(const std::string&)>& write,
                   const std::function<bool()>& stop,
                   const std::function<void(std::size_t)>& done) const;

  // Points per write of the partial file: large when the fast path applies (microseconds a
  // point), small otherwise (NLopt with the roofline: up to milliseconds).
  std::size_t chunk_points() const { return fast_ ? 65536 : 256; }

 private:
  void solve_point(Scenario& work, std::size_t point, std::span<double> values, std::string& row,
                   SweepTally& tally) const;

  const Scenario& base_;
  const SweepGrid& grid_;
  SweepOptions options_;
  ProblemKind kind_;
  bool fast_ = false;
};

}  // namespace scaleopt::cli
