#pragma once
// Runs task(i) for every i in [0, count) on a few threads (multi-start fits, bootstrap
// replicates). Each index runs exactly once and the task writes only to its own slot, so the
// results do not depend on how many threads ran or which thread took which index.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace scaleopt {

// `threads` = 0 means one per hardware thread; never more threads than indices.
inline unsigned resolve_thread_count(unsigned threads, std::size_t count) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::clamp<std::size_t>(count, 1, threads));
}

// Indices are handed out one at a time from a shared counter (the tasks' costs vary ~10x
// between starts, so a static split would leave a thread idle). If tasks throw, the
// exception of the lowest failing index is rethrown after every thread has joined: the same
// exception whatever the thread count. Once a task has thrown, indices not yet started are
// skipped.
template <class Task>
void parallel_for(std::size_t count, unsigned threads, Task task) {
  const unsigned thread_count = resolve_thread_count(threads, count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(count);
  auto work = [&] {
    // Check for failure before taking an index, never after: every index taken runs, so
    // every index below the lowest failing one runs at any thread count.
    while (!failed.load()) {
      const std::size_t i = next++;
      if (i >= count) break;
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    }
  };
  if (thread_count == 1) {
    work();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(thread_count - 1);
    for (unsigned t = 1; t < thread_count; ++t) pool.emplace_back(work);
    work();
  }  // jthreads join here
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace scaleopt
