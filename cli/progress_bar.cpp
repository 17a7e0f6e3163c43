#include "scaleopt/cli/progress_bar.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

namespace scaleopt::cli {
namespace {

constexpr auto kRedraw = std::chrono::milliseconds(200);
constexpr std::size_t kWidth = 30;

}  // namespace

ProgressBar::ProgressBar(std::size_t total, std::ostream* stream)
    : stream_(stream ? stream : (isatty(STDERR_FILENO) ? &std::cerr : nullptr)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() {
  if (!stream_) return;
  draw(done_.load());
  *stream_ << "\n" << std::flush;
}

void ProgressBar::add(std::size_t points) {
  const std::size_t done = done_ += points;
  if (!stream_) return;
  const std::unique_lock lock(drawing_, std::try_to_lock);
  if (!lock.owns_lock() || std::chrono::steady_clock::now() - last_ < kRedraw) return;
  draw(done);
}

void ProgressBar::draw(std::size_t done) {
  last_ = std::chrono::steady_clock::now();
  const double fraction = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 1;
  const auto filled = static_cast<std::size_t>(fraction * kWidth);
  const double seconds = std::chrono::duration<double>(last_ - start_).count();
  char text[128];
  std::snprintf(text, sizeof text, "] %5.1f%% %zu/%zu points, %.1f s", 100 * fraction, done, total_,
                seconds);
  *stream_ << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, ' ') << text
           << std::flush;
}

}  // namespace scaleopt::cli
