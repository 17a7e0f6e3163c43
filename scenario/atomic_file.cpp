#include "scaleopt/scenario/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt {

AtomicOutput::AtomicOutput(std::string path, std::string_view flag)
    : path_(std::move(path)), flag_(flag) {
  if (path_.empty()) fail("empty file name");
  const std::filesystem::path target(path_);
  if (std::filesystem::is_directory(target)) fail("it is a directory");
  const std::filesystem::path directory =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  // A hidden sibling of the target: ".NAME.tmp-XXXXXX" (mkstemp fills in the X's).
  std::string hidden(".");
  hidden.append(target.filename().string()).append(".tmp-XXXXXX");
  const std::string pattern = (directory / hidden).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(std::strerror(errno));
  temporary_ = name.data();
  // mkstemp creates the file 0600; an output file is readable by all, as with a shell
  // redirection under the usual umask 022.
  if (::fchmod(fd, 0644) != 0 || ::close(fd) != 0) fail(std::strerror(errno));
}

AtomicOutput::~AtomicOutput() {
  if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
}

void AtomicOutput::fail(const std::string& why) const {
  throw InputError(flag_ + ": cannot write " + path_ + ": " + why);
}

void AtomicOutput::write(std::string_view text) {
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_TRUNC);
  if (fd < 0) fail(std::strerror(errno));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      fail(why);
    }
    written += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  const std::string why = synced ? "" : std::strerror(errno);
  if (::close(fd) != 0 && synced) fail(std::strerror(errno));
  if (!synced) fail(why);
}

void AtomicOutput::commit() {
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail(std::strerror(errno));
  committed_ = true;
}

void write_file_atomically(const std::string& path, std::string_view text, std::string_view flag) {
  AtomicOutput output(path, flag);
  output.write(text);
  output.commit();
}

}  // namespace scaleopt
