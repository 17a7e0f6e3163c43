#include "scaleopt/scenario/input_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <utility>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

[[noreturn]] void fail(std::string_view flag, const std::string& path, const std::string& what) {
  std::string message;
  if (!flag.empty()) message.append(flag).append(": ");
  throw InputError(message + path + ": " + what);
}

// Closes the descriptor on every way out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Opens `path` for reading. O_NONBLOCK: opening a FIFO that no process writes to would
// otherwise wait for a writer for ever; reads then wait in poll(), with a time limit.
int open_input(const std::string& path, std::string_view flag, struct stat& status) {
  if (path.empty())
    throw InputError(std::string(flag.empty() ? "input" : flag) + ": empty file name");
  // open() would read the name only up to the NUL: another file.
  if (path.find('\0') != std::string::npos) {
    throw InputError(std::string(flag.empty() ? "input" : flag) +
                     ": the file name holds a NUL byte, which no path may hold");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) fail(flag, path, std::string("cannot open the file (") + std::strerror(errno) + ")");
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    fail(flag, path, std::string("cannot open the file (") + std::strerror(error) + ")");
  }
  if (S_ISDIR(status.st_mode)) {
    ::close(fd);
    fail(flag, path, "is a directory, not a file");
  }
  return fd;
}

// Appends what `fd` holds to `text`, at most `limit` bytes and one more (to tell a file that is
// larger). Returns whether that one more byte was there.
bool read_up_to(int fd, std::size_t limit, std::string& text, std::chrono::milliseconds silence,
                std::string_view flag, const std::string& path) {
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  while (text.size() <= limit) {
    const std::size_t want = std::min(kChunk, limit + 1 - text.size());
    const std::size_t before = text.size();
    text.resize(before + want);
    const ssize_t n = ::read(fd, text.data() + before, want);
    text.resize(before + (n > 0 ? static_cast<std::size_t>(n) : 0));
    if (n > 0) continue;
    if (n == 0) return false;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd wait{fd, POLLIN, 0};
      const int ready = ::poll(&wait, 1, static_cast<int>(silence.count()));
      if (ready == 0) {
        std::ostringstream seconds;
        seconds << static_cast<double>(silence.count()) / 1000.0;
        fail(flag, path,
             "no data for " + seconds.str() + " s (a pipe or device that nobody writes to?)");
      }
      if (ready < 0 && errno != EINTR) {
        fail(flag, path, std::string("cannot read (") + std::strerror(errno) + ")");
      }
      continue;
    }
    fail(flag, path, std::string("cannot read (") + std::strerror(errno) + ")");
  }
  return true;
}

[[noreturn]] void too_large(std::string_view flag, const std::string& path, const InputKind& kind) {
  fail(flag, path,
       "larger than " + bytes_text(kind.max_bytes) + ", the limit for " + std::string(kind.name) +
           ": is it the right file?");
}

}  // namespace

std::string bytes_text(std::size_t bytes) {
  constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (unit + 1 < std::size(units) && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + units[unit];
}

std::string read_input_file(const std::string& path, const InputKind& kind, std::string_view flag,
                            std::chrono::milliseconds silence) {
  struct stat status {};
  const Descriptor fd(open_input(path, flag, status));
  std::string text;
  if (S_ISREG(status.st_mode)) {
    // Refused before a byte is read; reserved so that a large sweep file is read in one piece.
    if (static_cast<std::uintmax_t>(status.st_size) > kind.max_bytes) too_large(flag, path, kind);
    text.reserve(static_cast<std::size_t>(status.st_size) + 1);
  }
  if (read_up_to(fd.get(), kind.max_bytes, text, silence, flag, path)) too_large(flag, path, kind);
  return text;
}

std::string read_input_head(const std::string& path, std::size_t bytes, std::string_view flag) {
  struct stat status {};
  const Descriptor fd(open_input(path, flag, status));
  std::string text;
  if (bytes == 0) return text;
  read_up_to(fd.get(), bytes - 1, text, kInputSilence, flag, path);
  return text;
}

// InputLines reads this much at a time.
constexpr std::size_t kLinesChunk = std::size_t{1} << 20;

InputLines::InputLines(std::string path, std::size_t max_line_bytes, std::string_view flag)
    : path_(std::move(path)), flag_(flag), max_line_bytes_(max_line_bytes) {
  struct stat status {};
  fd_ = open_input(path_, flag_, status);
  // Room for a chunk beside the longest line, once: the buffer is never reallocated, so
  // reading a file of any size allocates nothing more.
  buffer_.reserve(kLinesChunk + max_line_bytes_ + 2);
}

InputLines::~InputLines() {
  if (fd_ >= 0) ::close(fd_);
}

bool InputLines::next(std::string_view& line, bool& complete) {
  for (;;) {
    const std::size_t newline = buffer_.find('\n', begin_);
    // A line is refused past the bound whether or not its end is already in the buffer.
    if ((newline == std::string::npos ? buffer_.size() : newline) - begin_ > max_line_bytes_) {
      fail(flag_, path_ + ":" + std::to_string(line_number_ + 1),
           "a line longer than " + bytes_text(max_line_bytes_) + ": is it the right file?");
    }
    if (newline != std::string::npos) {
      line = std::string_view(buffer_).substr(begin_, newline - begin_);
      complete = true;
      begin_ = newline + 1;
      ++line_number_;
      return true;
    }
    if (at_end_) {
      if (begin_ == buffer_.size()) return false;
      line = std::string_view(buffer_).substr(begin_);
      complete = false;
      begin_ = buffer_.size();
      ++line_number_;
      return true;
    }
    buffer_.erase(0, begin_);
    begin_ = 0;
    at_end_ =
        !read_up_to(fd_, buffer_.size() + kLinesChunk - 1, buffer_, kInputSilence, flag_, path_);
  }
}

const ReadFile* same_file_as_input(const std::string& output, const std::vector<ReadFile>& inputs) {
  struct stat target {};
  if (output.empty() || ::stat(output.c_str(), &target) != 0) return nullptr;
  for (const ReadFile& input : inputs) {
    struct stat status {};
    if (input.path.empty() || ::stat(input.path.c_str(), &status) != 0) continue;
    if (status.st_dev == target.st_dev && status.st_ino == target.st_ino) return &input;
  }
  return nullptr;
}

}  // namespace scaleopt
