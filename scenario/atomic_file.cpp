#include "scaleopt/scenario/atomic_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {
namespace {

[[noreturn]] void cannot_write(std::string_view flag, const std::string& path,
                               const std::string& why) {
  throw InputError(std::string(flag) + ": cannot write " + path + ": " + why);
}

std::string folder_of(const std::string& path) {
  const std::filesystem::path target(path);
  return target.has_parent_path() ? target.parent_path().string() : std::string(".");
}

// fsync of the folder makes a rename in it durable (POSIX leaves it to the folder's metadata).
// A file system that cannot sync a folder says EINVAL: nothing more can be done there.
void sync_folder(const std::string& path, std::string_view flag) {
  const std::string folder = folder_of(path);
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    cannot_write(flag, path,
                 "cannot open its folder to sync it: " + std::string(std::strerror(errno)));
  const bool synced = ::fsync(fd) == 0 || errno == EINVAL;
  const int error = errno;
  ::close(fd);
  if (!synced) cannot_write(flag, path, "syncing its folder: " + std::string(std::strerror(error)));
}

// Writing to a pipe whose reader has gone raises SIGPIPE, which would kill the process
// without a word; blocked in this thread while we write, the write fails with EPIPE instead.
// A SIGPIPE left pending by that write is taken before the mask is restored.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      const timespec now{0, 0};
      sigtimedwait(&pipe_, nullptr, &now);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_{};
  sigset_t old_{};
  bool was_pending_ = false;
};

}  // namespace

OutputKind check_output(const std::string& path, std::string_view flag,
                        const std::vector<ReadFile>& inputs) {
  if (path.empty()) throw InputError(std::string(flag) + ": empty file name");
  // The system calls would see the name only up to the NUL: another file.
  if (path.find('\0') != std::string::npos) {
    throw InputError(std::string(flag) +
                     ": the file name holds a NUL byte, which no path may hold");
  }
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    // Anything but "nothing there" (a name longer than NAME_MAX, a loop of symbolic links
    // among the folders, no permission) is said now.
    if (errno != ENOENT) cannot_write(flag, path, std::strerror(errno));
    // Nothing there: the rename will create it, in a folder that must exist and be writable.
    // Said now rather than after hours of work (the rename remains the authority).
    const std::string folder = folder_of(path);
    struct stat status {};
    if (::stat(folder.c_str(), &status) != 0) cannot_write(flag, path, std::strerror(errno));
    if (!S_ISDIR(status.st_mode)) cannot_write(flag, path, folder + " is not a directory");
    if (::access(folder.c_str(), W_OK | X_OK) != 0) cannot_write(flag, path, std::strerror(errno));
    return OutputKind::absent;
  }
  struct stat target = link;
  if (S_ISLNK(link.st_mode) && ::stat(path.c_str(), &target) != 0) {
    if (errno == ENOENT) cannot_write(flag, path, "a symbolic link to a file that does not exist");
    cannot_write(flag, path, std::strerror(errno));
  }
  if (S_ISDIR(target.st_mode)) cannot_write(flag, path, "it is a directory");
  if (const ReadFile* input = same_file_as_input(path, inputs)) {
    throw InputError(std::string(flag) + ": " + path + " is " + input->role +
                     " being read; choose another output");
  }
  return S_ISLNK(link.st_mode) || !S_ISREG(target.st_mode) ? OutputKind::in_place
                                                           : OutputKind::file;
}

AtomicOutput::AtomicOutput(std::string path, std::string_view flag,
                           const std::vector<ReadFile>& inputs)
    : path_(std::move(path)), flag_(flag), kind_(check_output(path_, flag, inputs)) {
  std::string pattern;
  if (kind_ == OutputKind::in_place) {
    // Beside a device (in /dev) is no place for a file: the text waits in the temporary
    // directory until it is complete.
    pattern = (std::filesystem::path(temporary_folder()) / "scaleopt-out-XXXXXX").string();
  } else {
    pattern = hidden_sibling_pattern(path_);  // mkstemp fills in the X's
  }
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(std::strerror(errno));
  temporary_ = name.data();
  // mkstemp creates the file 0600; an output file is readable by all, as with a shell
  // redirection under the usual umask 022.
  const bool readable = ::fchmod(fd, 0644) == 0;
  const int error = errno;
  if (::close(fd) != 0 || !readable) {
    // The destructor does not run for a constructor that throws.
    std::remove(temporary_.c_str());
    fail(std::strerror(readable ? errno : error));
  }
}

AtomicOutput::~AtomicOutput() {
  if (append_fd_ >= 0) ::close(append_fd_);
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

void AtomicOutput::fail(const std::string& why) const {
  cannot_write(flag_, path_, why);
}

void AtomicOutput::write(std::string_view text) {
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail(std::strerror(errno));
  if (const int error = write_all(fd, text)) {
    ::close(fd);
    fail(std::strerror(error));
  }
  const bool synced = ::fsync(fd) == 0;
  const std::string why = synced ? "" : std::strerror(errno);
  struct stat status {};
  const bool sized = ::fstat(fd, &status) == 0;
  if (::close(fd) != 0 && synced) fail(std::strerror(errno));
  if (!synced) fail(why);
  // Whole before it is named: every byte the disk took back.
  if (sized && static_cast<std::uint64_t>(status.st_size) != text.size()) {
    fail("the file holds " + std::to_string(status.st_size) + " of " + std::to_string(text.size()) +
         " bytes");
  }
}

void AtomicOutput::copy_in_place() const {
  // O_NONBLOCK: a FIFO that no process reads fails at once (ENXIO) instead of waiting for a
  // reader for ever. No O_TRUNC and no O_CREAT: a device or FIFO is written as it is; only a
  // regular file reached through a symbolic link is emptied first, once the text is complete.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENXIO) fail("a FIFO that no process is reading");
    fail(std::strerror(errno));
  }
  struct stat status {};
  const auto fail_closing = [&](int error) {
    ::close(fd);
    fail(std::strerror(error));
  };
  if (::fstat(fd, &status) != 0) fail_closing(errno);
  const bool regular = S_ISREG(status.st_mode);
  if (regular && ::ftruncate(fd, 0) != 0) fail_closing(errno);
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) fail_closing(errno);
  const int in = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) fail_closing(errno);
  int error = 0;
  {
    const SigpipeBlocked blocked;
    char buffer[1 << 16];
    for (;;) {
      const ssize_t n = ::read(in, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error = errno;
      if (n <= 0) break;
      error = write_all(fd, std::string_view(buffer, static_cast<std::size_t>(n)));
      if (error) break;
    }
  }
  ::close(in);
  if (!error && regular && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error == EPIPE) fail("the process reading the pipe has closed it");
  if (error) fail(std::strerror(error));
}

void AtomicOutput::append(std::string_view text) {
  constexpr std::size_t kBuffer = std::size_t{1} << 20;
  if (append_fd_ < 0) {
    append_fd_ = ::open(temporary_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (append_fd_ < 0) fail(std::strerror(errno));
    pending_.reserve(2 * kBuffer);  // once: the buffer is reused, never reallocated
  }
  pending_ += text;
  appended_bytes_ += text.size();
  if (pending_.size() >= kBuffer) {
    if (const int error = write_all(append_fd_, pending_)) {
      fail(std::strerror(error));
    }
    pending_.clear();
  }
}

void AtomicOutput::commit() {
  if (append_fd_ >= 0) {
    const int fd = std::exchange(append_fd_, -1);
    int error = write_all(fd, pending_);
    if (error == 0 && ::fsync(fd) != 0) error = errno;
    struct stat status {};
    const bool sized = error == 0 && ::fstat(fd, &status) == 0;
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error != 0) fail(std::strerror(error));
    pending_.clear();
    if (sized && static_cast<std::uint64_t>(status.st_size) != appended_bytes_) {
      fail("the file holds " + std::to_string(status.st_size) + " of " +
           std::to_string(appended_bytes_) + " bytes");
    }
  }
  if (kind_ == OutputKind::in_place) {
    copy_in_place();
    std::remove(temporary_.c_str());
    committed_ = true;
    return;
  }
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail(std::strerror(errno));
  committed_ = true;
  sync_folder(path_, flag_);
}

int write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

std::string refuse_empty_file_name(const std::string& name) {
  return name.empty() ? "empty file name" : "";
}

void write_file_atomically(const std::string& path, std::string_view text, std::string_view flag,
                           const std::vector<ReadFile>& inputs) {
  AtomicOutput output(path, flag, inputs);
  output.write(text);
  output.commit();
}

std::string hidden_sibling_pattern(const std::string& path) {
  constexpr std::size_t kDecoration = 1 + std::char_traits<char>::length(".tmp-XXXXXX");
  std::string name = std::filesystem::path(path).filename().string();
  if (name.size() + kDecoration > NAME_MAX) name.resize(NAME_MAX - kDecoration);
  return (std::filesystem::path(folder_of(path)) / ("." + name + ".tmp-XXXXXX")).string();
}

std::uint64_t free_disk_bytes(const std::string& path, std::string_view flag) {
  struct statvfs status {};
  if (::statvfs(folder_of(path).c_str(), &status) != 0) {
    cannot_write(flag, path,
                 "cannot ask its file system for free space: " + std::string(std::strerror(errno)));
  }
  return static_cast<std::uint64_t>(status.f_bavail) * status.f_frsize;
}

std::string temporary_folder() {
  std::error_code error;
  const std::filesystem::path folder = std::filesystem::temp_directory_path(error);
  if (error) throw InputError("the temporary directory (TMPDIR): " + error.message());
  return folder.string();
}

void rename_into_place(const std::string& from, const std::string& to, std::string_view flag) {
  if (std::rename(from.c_str(), to.c_str()) != 0) cannot_write(flag, to, std::strerror(errno));
  sync_folder(to, flag);
}

}  // namespace scaleopt
