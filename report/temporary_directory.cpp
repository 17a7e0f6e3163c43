#include "scaleopt/report/temporary_directory.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/atomic_file.hpp"  // temporary_folder

namespace scaleopt::report {

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

}  // namespace scaleopt::report
