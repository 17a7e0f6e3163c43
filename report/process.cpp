#include "scaleopt/report/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <thread>

extern char** environ;

namespace scaleopt::report {
namespace {

// A file in the temporary directory that receives the program's output; removed when done.
class OutputFile {
 public:
  OutputFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "scaleopt-out-XXXXXX").string();
    fd_ = ::mkstemp(pattern.data());
    if (fd_ >= 0) path_ = pattern;
  }
  ~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  int fd() const { return fd_; }

  std::string read(std::size_t max_bytes) const {
    std::string text;
    if (fd_ < 0 || ::lseek(fd_, 0, SEEK_SET) < 0) return text;
    char buffer[4096];
    while (text.size() < max_bytes) {
      const ssize_t n = ::read(fd_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      text.append(buffer, static_cast<std::size_t>(n));
    }
    if (text.size() > max_bytes) text.resize(max_bytes);
    return text;
  }

 private:
  int fd_ = -1;
  std::string path_;
};

// Our environment with `overrides` ("NAME=VALUE") in place of the variables of those names.
std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::vector<std::string> entries;
  const auto name_of = [](std::string_view entry) { return entry.substr(0, entry.find('=')); };
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view inherited(*entry);
    const bool replaced = std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) {
      return name_of(o) == name_of(inherited);
    });
    if (!replaced) entries.emplace_back(inherited);
  }
  entries.insert(entries.end(), overrides.begin(), overrides.end());
  return entries;
}

}  // namespace

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string_view rest(path);
  while (true) {
    const auto colon = rest.find(':');
    const std::string_view directory = rest.substr(0, colon);
    const std::filesystem::path candidate =
        std::filesystem::path(directory.empty() ? std::string_view(".") : directory) / program;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) {
      return true;
    }
    if (colon == std::string_view::npos) return false;
    rest.remove_prefix(colon + 1);
  }
}

ProcessResult run_program(const std::string& program, const std::vector<std::string>& arguments,
                          const ProcessOptions& options) {
  ProcessResult result;
  OutputFile output;
  if (output.fd() < 0) {
    result.start_error = std::string("cannot create a temporary file: ") + std::strerror(errno);
    return result;
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> environment = environment_with(options.environment);
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, output.fd(), STDOUT_FILENO);
  if (options.keep_stderr) {
    posix_spawn_file_actions_adddup2(&actions, output.fd(), STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group, so that a timeout ends the program and the helpers it started.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int spawned =
      ::posix_spawnp(&pid, program.c_str(), &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    result.start_error = std::strerror(spawned);
    return result;
  }
  result.started = true;

  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(options.timeout_seconds);
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (options.timeout_seconds > 0.0 && std::chrono::steady_clock::now() > deadline) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // Helpers the program left behind in its group (the group id is the pid we started).
  ::kill(-pid, SIGKILL);
  if (!result.timed_out && WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  result.output = output.read(options.max_output_bytes);
  return result;
}

}  // namespace scaleopt::report
