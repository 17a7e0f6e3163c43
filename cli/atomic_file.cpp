#include "cli/atomic_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "costmodel/input_error.hpp"

namespace scaleopt::cli {

void write_file_atomically(const std::string& path, std::string_view text, std::string_view flag) {
  auto fail = [&](const std::string& why) {
    throw InputError(std::string(flag) + ": cannot write " + path + ": " + why);
  };
  if (path.empty()) fail("empty file name");
  const std::filesystem::path target(path);
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
  const std::string temporary(name.data());
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      std::remove(temporary.c_str());
      fail(why);
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp creates the file 0600; an output file is readable by all, as with a shell
  // redirection under the usual umask 022.
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    fail(why);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    fail(why);
  }
}

}  // namespace scaleopt::cli
