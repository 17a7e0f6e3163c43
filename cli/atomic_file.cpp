#include "cli/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <system_error>

#include "costmodel/input_error.hpp"

namespace scaleopt::cli {
namespace {

[[noreturn]] void cannot_write(const std::string& path, const std::string& reason) {
  throw InputError(path + ": cannot write (" + reason + ")");
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  if (target.filename().empty()) cannot_write(path, "not a file name");
  // Beside the target, so the rename stays within one file system; a random suffix keeps two
  // concurrent writers apart.
  std::random_device entropy;
  fs::path temporary = target;
  temporary += ".tmp" + std::to_string(entropy() % 1000000);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) cannot_write(path, std::strerror(errno));
    out << contents;
    out.flush();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      fs::remove(temporary, ignored);
      cannot_write(path, reason);
    }
  }
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    cannot_write(path, error.message());
  }
}

}  // namespace scaleopt::cli
