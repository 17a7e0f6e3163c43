#include "cli/temporary_directory.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "costmodel/input_error.hpp"

namespace scaleopt::cli {

std::string temporary_folder() {
  std::error_code error;
  const std::filesystem::path folder = std::filesystem::temp_directory_path(error);
  if (error) throw InputError("the temporary directory (TMPDIR): " + error.message());
  return folder.string();
}

TemporaryDirectory::TemporaryDirectory() {
  const std::string pattern =
      (std::filesystem::path(temporary_folder()) / "scaleopt-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (!::mkdtemp(name.data())) {
    throw InputError("cannot create a temporary directory from " + pattern + ": " +
                     std::strerror(errno));
  }
  path_ = name.data();
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace scaleopt::cli
