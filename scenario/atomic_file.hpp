#pragma once
// Writing an output file so that readers never see half of it: the text goes to a temporary
// file in the same directory, which is then renamed over the target (rename is atomic within
// one file system, POSIX rename(2)).

#include <string>
#include <string_view>

namespace scaleopt {

// A hidden temporary sibling of `path` (".NAME.tmp-XXXXXX", mode 0644) that another writer,
// such as gnuplot, fills; commit() renames it over `path`. Destroyed uncommitted, it removes
// the temporary file, so a failure leaves nothing behind. Errors are InputError
// "FLAG: cannot write PATH: reason".
class AtomicOutput {
 public:
  AtomicOutput(std::string path, std::string_view flag);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::string& temporary_path() const { return temporary_; }
  void write(std::string_view text);  // replaces the temporary file's contents, then fsync
  void commit();                      // rename over the target; throws when that fails
  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::string path_;
  std::string flag_;
  std::string temporary_;
  bool committed_ = false;
};

// Throws InputError "FLAG: cannot write PATH: reason" (nothing is left behind on failure).
void write_file_atomically(const std::string& path, std::string_view text, std::string_view flag);

}  // namespace scaleopt
