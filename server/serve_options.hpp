#pragma once
// What `scaleopt serve` listens on and the limits it holds every request to (docs/serve.md,
// "Safety"). The defaults are the safe ones: loopback only, small bodies, a short time per
// request, a bounded queue of connections.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

namespace scaleopt::server {

struct ServeOptions {
  // The address bound. Loopback by default: anything else reaches the network (the command
  // line warns).
  std::string host = "127.0.0.1";
  // 0: the kernel picks a free port (the URL printed says which).
  int port = 8080;
  // Host header names accepted besides 127.0.0.1, localhost and [::1] (each with the port),
  // for a server bound elsewhere on purpose (--allow-host): against DNS rebinding, a page of
  // another site may reach this server only under a name given here.
  std::vector<std::string> allowed_hosts;
  // A body larger than this is refused from its Content-Length, before any of it is read
  // (413); a scenario is a few KB.
  std::size_t max_body_bytes = std::size_t{1} << 20;
  // Each solve or sweep stops once it has run this long (the solver's stop check,
  // solver/stop.hpp) and answers 503: a question NLopt takes long over cannot hold a worker.
  std::chrono::milliseconds time_limit{10'000};
  // The most points a sweep request may ask for: the page draws ~200; `scaleopt sweep` is the
  // tool for millions.
  std::size_t max_sweep_points = 10'000;
  // Threads answering connections (0: the hardware threads, at least 16: a thread mostly
  // waits on its client, and an idle connection holds one for keep_alive_timeout) and the
  // connections that may wait for one; a connection beyond those is answered 503 at once
  // (server/bounded_task_queue.hpp).
  unsigned workers = 0;
  std::size_t queue_capacity = 64;
  // A connection holds a worker while it is kept alive: at most this many requests, and this
  // long idle, so that a few clients cannot hold every worker.
  std::size_t keep_alive_max_count = 20;
  std::chrono::seconds keep_alive_timeout{2};
  // How long a client may take to send a request or read an answer.
  std::chrono::seconds read_timeout{5};
  std::chrono::seconds write_timeout{5};
};

// The threads answering connections: `workers`, or the hardware threads and at least 16.
inline unsigned worker_threads(const ServeOptions& options) {
  return options.workers > 0 ? options.workers : std::max(16u, std::thread::hardware_concurrency());
}

}  // namespace scaleopt::server
