#include "scaleopt/server/bounded_task_queue.hpp"

namespace scaleopt::server {

BoundedTaskQueue::BoundedTaskQueue(unsigned workers, std::size_t capacity) : capacity_(capacity) {
  for (unsigned i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  refuser_ = std::thread([this] { refuse(); });
}

BoundedTaskQueue::~BoundedTaskQueue() {
  shutdown();
}

void BoundedTaskQueue::enqueue(std::function<void()> fn) {
  std::unique_lock lock(mutex_);
  if (shutting_down_) return;
  if (jobs_.size() < capacity_) {
    jobs_.push_back(std::move(fn));
    jobs_ready_.notify_one();
    return;
  }
  refusal_room_.wait(lock,
                     [this] { return shutting_down_ || refusals_.size() < kRefusalCapacity; });
  if (shutting_down_) return;
  refusals_.push_back(std::move(fn));
  refusals_ready_.notify_one();
}

void BoundedTaskQueue::shutdown() {
  {
    const std::lock_guard lock(mutex_);
    if (shutting_down_ && workers_.empty() && !refuser_.joinable()) return;
    shutting_down_ = true;
  }
  jobs_ready_.notify_all();
  refusals_ready_.notify_all();
  refusal_room_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
  if (refuser_.joinable()) refuser_.join();
}

void BoundedTaskQueue::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      jobs_ready_.wait(lock, [this] { return shutting_down_ || !jobs_.empty(); });
      // Connections already accepted are answered before the threads end: each job closes
      // its socket.
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

void BoundedTaskQueue::refuse() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      refusals_ready_.wait(lock, [this] { return shutting_down_ || !refusals_.empty(); });
      if (refusals_.empty()) return;
      job = std::move(refusals_.front());
      refusals_.pop_front();
      refusal_room_.notify_one();
    }
    job();
  }
}

}  // namespace scaleopt::server
