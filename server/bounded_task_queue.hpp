#pragma once
// The task queue cpp-httplib runs each accepted connection on (its `new_task_queue`, through an
// adapter in http_server.cpp, so that this needs no httplib.h and is tested alone), bounded:
// Debian 12's cpp-httplib (0.11.4) queues connections without limit and gives each kept-alive
// connection a pool thread, so a flood of connections would queue without end or starve the
// pool. Here `workers` threads answer connections, at most `capacity` wait for one, and a
// connection beyond those goes to a thread of its own that answers its request 503 at once
// (`refusing()` says so to the request handler), without reading its body. Those refusals
// wait in a queue bounded too: when it is full, enqueue blocks the accepting thread, so the
// kernel's backlog holds further connections instead of this process's memory.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace scaleopt::server {

class BoundedTaskQueue {
 public:
  // Refusals that may wait for the refusing thread before enqueue blocks.
  static constexpr std::size_t kRefusalCapacity = 256;

  BoundedTaskQueue(unsigned workers, std::size_t capacity);
  ~BoundedTaskQueue();
  BoundedTaskQueue(const BoundedTaskQueue&) = delete;
  BoundedTaskQueue& operator=(const BoundedTaskQueue&) = delete;

  // Runs `fn` on a worker, or on the refusing thread when `capacity` jobs already wait.
  void enqueue(std::function<void()> fn);
  // Runs what was enqueued, then joins every thread; enqueue does nothing after.
  void shutdown();

  // Whether the calling thread is the one answering connections that found the queue full.
  bool refusing() const { return std::this_thread::get_id() == refuser_.get_id(); }

 private:
  void work();
  void refuse();

  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable jobs_ready_;
  std::condition_variable refusals_ready_;
  std::condition_variable refusal_room_;
  std::deque<std::function<void()>> jobs_;
  std::deque<std::function<void()>> refusals_;
  bool shutting_down_ = false;
  std::vector<std::thread> workers_;
  std::thread refuser_;
};

}  // namespace scaleopt::server
