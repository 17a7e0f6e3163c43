#pragma once
// A fresh directory in the system's temporary directory, removed with everything in it when
// the object goes out of scope (where gnuplot and chromium do their work).

#include <string>

namespace scaleopt::cli {

// The system's temporary directory (TMPDIR, else /tmp). Throws InputError when TMPDIR names
// something that is not a directory.
std::string temporary_folder();

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

}  // namespace scaleopt::cli
