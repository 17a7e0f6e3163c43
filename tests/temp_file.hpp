#pragma once
// A file in the system's temporary directory for the length of a test.

#include <filesystem>
#include <fstream>
#include <string>

// A path in the system's temporary directory, for a file a command writes.
inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("scaleopt_test_" + name)).string();
}

// A fresh directory for one test's files, removed at the end.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("scaleopt_test_" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path / name).string(); }
};

class TempFile {
 public:
  TempFile(const std::string& name, const std::string& contents)
      : path_((std::filesystem::temp_directory_path() / ("scaleopt_test_" + name)).string()) {
    std::ofstream out(path_, std::ios::binary);
    out << contents;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};
