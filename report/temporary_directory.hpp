#pragma once
// A fresh directory in the system's temporary directory, removed with everything in it when
// the object goes out of scope (where gnuplot and chromium do their work). The system's
// temporary directory is temporary_folder() of scenario/atomic_file.hpp.

#include <string>

namespace scaleopt::report {

class TemporaryDirectory {
 public:
  // Throws InputError when the directory cannot be created.
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace scaleopt::report
