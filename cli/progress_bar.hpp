#pragma once
// A progress bar on stderr for long commands, drawn only when stderr is a terminal (never in
// files, pipes or tests). Workers report finished points from any thread; the bar redraws at
// most five times a second.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <ostream>

namespace scaleopt::cli {

class ProgressBar {
 public:
  // `total` points to do. Draws on `stream` when it is given, or on stderr when that is a
  // terminal; otherwise does nothing.
  explicit ProgressBar(std::size_t total, std::ostream* stream = nullptr);
  ~ProgressBar();  // ends the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void add(std::size_t points);  // thread-safe

 private:
  void draw(std::size_t done);
  std::ostream* stream_;
  std::size_t total_;
  std::atomic<std::size_t> done_{0};
  std::mutex drawing_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace scaleopt::cli
