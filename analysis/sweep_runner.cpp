#include "scaleopt/analysis/sweep_runner.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <numeric>
#include <vector>

#include "scaleopt/analysis/input_scaling.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/problems/lifecycle/fast_path.hpp"
#include "scaleopt/solver/limits.hpp"
#include "scaleopt/solver/parallel_for.hpp"

namespace scaleopt {
namespace {

// Points per parallel task: enough that handing out tasks costs nothing, few enough that the
// threads finish a chunk together.
std::size_t block_points(bool fast) {
  return fast ? 512 : 8;
}

}  // namespace

void check_first_point(const Scenario& scenario, const SweepGrid& grid) {
  Scenario first = scenario;
  std::vector<double> values(grid.axes().size());
  grid.values_at(0, values);
  try {
    for (std::size_t a = 0; a < values.size(); ++a) grid.axes()[a].input.set(first, values[a]);
    validate_scenario(first);
    (void)scenario_setup(first);
  } catch (const InputError& e) {
    throw InputError("vary: the grid's first point is not a valid question: " +
                     std::string(e.what()));
  }
}

void SweepOptions::validate() const {
  kThreadsLimit.check(threads);
  solver.validate();
}

void SweepTally::add(const SweepTally& o) {
  points += o.points;
  converged += o.converged;
  infeasible += o.infeasible;
  not_converged += o.not_converged;
  invalid_input += o.invalid_input;
  fast_path += o.fast_path;
}

SweepRunner::SweepRunner(const Scenario& base, const SweepGrid& grid, const SweepOptions& options)
    : base_(base), grid_(grid), options_(options) {
  options_.validate();
  const QuestionSetup setup = scenario_setup(base);
  layout_ = answer_layout(setup);
  fast_ = options.method == SolveMethod::automatic &&
          setup.fast_path().accelerator != Accelerator::none;
}

void SweepRunner::solve_point(Scenario& work, std::size_t point, SweepPoint& answer,
                              SweepTally& tally) const {
  answer.point = point;
  answer.values.resize(grid_.axes().size());
  grid_.values_at(point, answer.values);
  ++tally.points;
  try {
    // scenario_setup validates what the question uses (law, setups, demand, problem).
    const std::vector<double>& values = answer.values;
    for (std::size_t a = 0; a < values.size(); ++a) grid_.axes()[a].input.set(work, values[a]);
    answer.summary = solve_question_summary(scenario_setup(work), options_.solver, options_.method);
    const QuestionSummary& summary = answer.summary;
    switch (summary.status()) {
      case Status::converged:
        ++tally.converged;
        break;
      case Status::infeasible:
        ++tally.infeasible;
        break;
      case Status::not_converged:
      case Status::not_identifiable:
        ++tally.not_converged;
        break;
      // An answer that overflowed (problems/question/question_summary.hpp).
      case Status::invalid_input:
        ++tally.invalid_input;
        break;
    }
    const AnswerSummary& solved = summary.has_optimum ? summary.optimum : summary.answer;
    if (solved.path == SolvePath::newton) ++tally.fast_path;
  } catch (const InputError&) {
    answer.invalid_input = true;
    answer.summary.kind = layout_.kind;
    answer.summary.rl_returns = layout_.rl_returns;
    answer.summary.data_limit = layout_.data_limit;
    answer.summary.training_cap = layout_.training_cap;
    ++tally.invalid_input;
  }
}

SweepTally SweepRunner::solve(std::span<const std::size_t> points,
                              const std::function<void(SweepBlock&)>& prepare,
                              const std::function<void(const SweepBlock&)>& write,
                              const std::function<bool()>& stop,
                              const std::function<void(std::size_t)>& done) const {
  const std::size_t block = block_points(fast_);
  const std::size_t blocks = (points.size() + block - 1) / block;
  std::vector<SweepTally> tallies(blocks);
  // Blocks are written in order. A worker whose block is not next parks it and takes another
  // (waiting for its turn would leave it idle: a tenth of a 10^6-point sweep on 2 threads); the
  // worker that writes the next block writes every parked block that follows it. At most
  // kParkedPerThread blocks per thread are parked, so a slow block (one that fell back to
  // NLopt) cannot make the others pile up answers without bound: beyond, they wait.
  constexpr std::size_t kParkedPerThread = 4;
  const std::size_t max_parked = kParkedPerThread * resolve_thread_count(options_.threads, blocks);
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t turn = 0;                      // the next block to write
  std::map<std::size_t, SweepBlock> parked;  // finished blocks waiting for their turn
  // Written blocks, cleared, for the next tasks: their answers and text keep their capacity,
  // so a block's ~300 KB is not mapped and faulted in afresh each time (page faults were a
  // tenth of a 10^6-point sweep). As many as there are blocks in flight, at most.
  std::vector<SweepBlock> spare;
  bool aborted = false;  // a write failed: nothing more is written
  parallel_for(blocks, options_.threads, [&](std::size_t b) {
    // However this block fails, the workers waiting for room are woken (its turn never comes).
    auto abort_all = [&] {
      const std::lock_guard guard(mutex);
      aborted = true;
      changed.notify_all();
    };
    SweepBlock solved;
    {
      const std::lock_guard guard(mutex);
      if (!spare.empty()) {
        solved = std::move(spare.back());
        spare.pop_back();
      }
    }
    solved.answers.clear();
    try {
      std::vector<SweepPoint>& answers = solved.answers;
      // A working copy per task: every point sets all the varied inputs, so what earlier
      // points set never shows through.
      Scenario work = base_;
      const std::size_t first = b * block, last = std::min(points.size(), first + block);
      answers.reserve(last - first);
      for (std::size_t i = first; i < last; ++i) {
        if (stop()) break;
        solve_point(work, points[i], answers.emplace_back(), tallies[b]);
      }
      if (!answers.empty()) done(answers.size());
      if (prepare) prepare(solved);
    } catch (...) {
      abort_all();
      throw;
    }
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return aborted || b == turn || parked.size() < max_parked; });
    if (aborted) return;
    if (b != turn) {
      parked.emplace(b, std::move(solved));
      return;
    }
    // This block and the parked ones after it, written outside the lock (the other workers
    // go on solving); the turn passes however a write ends.
    try {
      for (;;) {
        lock.unlock();
        write(solved);
        lock.lock();
        ++turn;
        spare.push_back(std::move(solved));
        const auto next = parked.find(turn);
        if (next == parked.end()) break;
        solved = std::move(next->second);
        parked.erase(next);
      }
    } catch (...) {
      if (lock.owns_lock()) lock.unlock();
      abort_all();
      throw;
    }
    changed.notify_all();
  });
  SweepTally tally;
  for (const SweepTally& t : tallies) tally.add(t);
  return tally;
}

std::vector<SweepPoint> solve_sweep(const Scenario& base, const SweepGrid& grid,
                                    const SweepOptions& options) {
  const SweepRunner runner(base, grid, options);
  std::vector<std::size_t> points(grid.size());
  std::iota(points.begin(), points.end(), std::size_t{0});
  std::vector<SweepPoint> answers;
  answers.reserve(points.size());
  // `write` sees the blocks in order, one at a time: appending keeps the points in grid order.
  runner.solve(
      points, nullptr,
      [&answers](const SweepBlock& block) {
        answers.insert(answers.end(), block.answers.begin(), block.answers.end());
      },
      [] { return false; }, [](std::size_t) {});
  return answers;
}

}  // namespace scaleopt
