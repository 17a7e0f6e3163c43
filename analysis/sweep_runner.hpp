#pragma once
// Solving the points of a sweep (or any list of grid points) on several threads, each into the
// numbers of its answer (SweepPoint: the point, its grid values, the question's summary and
// its status); analysis/sweep_csv_writer.hpp turns them into the CSV rows of `scaleopt sweep`.
// Each point is computed from the base scenario and its own grid values alone (no warm start
// from another point: the fast path starts from closed-form brackets, NLopt from the problem's
// own start), so a point's answer is the same whatever thread, chunk or shard computes it.

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/problems/question/answer_fields.hpp"
#include "scaleopt/problems/question/question_fast.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt {

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
  // The point's inputs break a rule between keys, or its answer overflowed
  // (problems/question/question_summary.hpp).
  std::size_t invalid_input = 0;
  std::size_t fast_path = 0;  // answered by the 1-D Newton fast path
  void add(const SweepTally& other);
};

// The answer at one point of the grid.
struct SweepPoint {
  std::size_t point = 0;       // its index in the grid
  std::vector<double> values;  // its grid values, one per axis
  // The point's inputs break a rule between keys: there is no question to answer, and
  // `summary` holds no numbers.
  bool invalid_input = false;
  QuestionSummary summary;
  Status status() const { return invalid_input ? Status::invalid_input : summary.status(); }
};

// The answers of a block of consecutive points (of those given to SweepRunner::solve), in
// order, and what the caller makes of them on the worker that solved them (the CSV rows of
// analysis/sweep_csv_writer.hpp, say).
struct SweepBlock {
  std::vector<SweepPoint> answers;
  std::string text;
};

// The first point must make a valid question: a systematic mistake (varying a key that breaks
// a rule between keys, such as one of three shares) fails here, once, rather than on every row.
// Throws InputError "vary: the grid's first point is not a valid question: ...".
void check_first_point(const Scenario& scenario, const SweepGrid& grid);

class SweepRunner {
 public:
  // `base` needs a [law] and a [problem] (InputError otherwise).
  SweepRunner(const Scenario& base, const SweepGrid& grid, const SweepOptions& options);

  // The question's answers (which answer columns a row has).
  ProblemKind kind() const { return layout_.kind; }
  const AnswerLayout& layout() const { return layout_; }

  // Solves `points` (increasing), a block of consecutive points per task on several threads.
  // Each block goes to `prepare` (if given) on the worker that solved it, blocks at once and in
  // any order, then to `write` in the order of `points`, from whichever worker finished it,
  // never two at once. Before each point `stop()` is asked; once it says true, the remaining
  // points are skipped (their answers are simply absent). `done(n)` is called as points finish.
  // Returns the tally of the answers written.
  SweepTally solve(std::span<const std::size_t> points,
                   const std::function<void(SweepBlock&)>& prepare,
                   const std::function<void(const SweepBlock&)>& write,
                   const std::function<bool()>& stop,
                   const std::function<void(std::size_t)>& done) const;

  // Points per write of the partial file: large when the fast path applies (microseconds a
  // point), small otherwise (NLopt: up to milliseconds a point).
  std::size_t chunk_points() const { return fast_ ? 65536 : 256; }

 private:
  void solve_point(Scenario& work, std::size_t point, SweepPoint& answer, SweepTally& tally) const;

  const Scenario& base_;
  const SweepGrid& grid_;
  SweepOptions options_;
  AnswerLayout layout_;
  bool fast_ = false;
};

// Every point of `grid`, solved, in order: the whole sweep as numbers in memory, for a program
// that wants them rather than the CSV (docs/library.md). One SweepPoint per point, so a grid of
// millions of points wants SweepRunner::solve and a `write` that keeps what it needs.
// Throws as SweepRunner.
std::vector<SweepPoint> solve_sweep(const Scenario& base, const SweepGrid& grid,
                                    const SweepOptions& options = {});

}  // namespace scaleopt
