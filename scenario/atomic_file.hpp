#pragma once
// Writing an output file without ever destroying what should not be destroyed. Outputs go into
// shared folders, so:
// - a file being read (the scenario, the runs, a shard: same device and inode, so through
//   symbolic links, hard links and "..") is refused as an output;
// - a new or regular file is written to a hidden temporary sibling, fsync'ed, renamed over the
//   target (atomic within one file system, POSIX rename(2)) and the folder fsync'ed, so readers
//   see the old file or the new one, and a crash or failure leaves the old one;
// - anything else that exists (a symbolic link, a device such as /dev/null or /dev/stdout, a
//   FIFO) is written in place once the text is complete, as a shell's ">" would: a rename would
//   replace the link or the device itself (we run as root, where that succeeds).
// Every failure is an InputError naming the flag and the path; nothing is left behind.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {

enum class OutputKind {
  absent,    // nothing there yet: created by rename
  file,      // a regular file: replaced by rename
  in_place,  // a symbolic link, device or FIFO: written through, never replaced
};

// What `path` is as an output. Throws InputError "FLAG: empty file name", "FLAG: cannot write
// PATH: reason" (a directory, a symbolic link to nothing, a name too long, a symbolic link
// loop, no permission to look it up) or "FLAG: PATH is ROLE being read; choose another output".
// Commands call it before long work, so that a mistake costs nothing; AtomicOutput calls it
// again when it writes.
OutputKind check_output(const std::string& path, std::string_view flag,
                        const std::vector<ReadFile>& inputs);

// A temporary file that another writer, such as gnuplot, may fill; commit() puts it in place
// (see above). For a rename it is a hidden sibling of `path` (".NAME.tmp-XXXXXX", mode 0644);
// for a target written in place it is in the system's temporary directory. Destroyed
// uncommitted, it removes the temporary file, so a failure leaves nothing behind.
class AtomicOutput {
 public:
  AtomicOutput(std::string path, std::string_view flag, const std::vector<ReadFile>& inputs);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::string& temporary_path() const { return temporary_; }
  // Replaces the temporary file's contents, then fsync; fails unless the file then holds all
  // of `text` (its size checked).
  void write(std::string_view text);
  // Appends to the temporary file through a 1 MiB buffer, for outputs too large to hold in
  // memory (a merged sweep); commit() writes the rest and fsyncs first. Not mixed with write().
  void append(std::string_view text);
  void commit();  // puts it in place; throws when that fails
  [[noreturn]] void fail(const std::string& why) const;

 private:
  void copy_in_place() const;

  std::string path_;
  std::string flag_;
  OutputKind kind_;
  std::string temporary_;
  bool committed_ = false;
  int append_fd_ = -1;                // open while append() streams
  std::string pending_;               // appended, not yet written
  std::uint64_t appended_bytes_ = 0;  // all that append() was given
};

// Writes all of `text` to `fd` (again after a short write or EINTR); returns 0, or the errno of
// the write that failed.
int write_all(int fd, std::string_view text);

// For CLI11's check() of an output flag: "empty file name" for "", else "". An empty value
// would otherwise read as the flag not given (no output at all) or, for a sweep, as a file
// named ".partial".
std::string refuse_empty_file_name(const std::string& name);

// Writes `text` to `path` as AtomicOutput does.
void write_file_atomically(const std::string& path, std::string_view text, std::string_view flag,
                           const std::vector<ReadFile>& inputs);

// Renames `from` over `to` (same folder) and fsyncs the folder, so the rename survives a
// crash. Throws InputError "FLAG: cannot write TO: reason".
void rename_into_place(const std::string& from, const std::string& to, std::string_view flag);

// The bytes an unprivileged user may still write on the file system holding the folder of
// `path` (statvfs: f_bavail * f_frsize). Throws InputError "FLAG: cannot write PATH: ..." when
// it cannot be asked.
std::uint64_t free_disk_bytes(const std::string& path, std::string_view flag);

// A pattern for mkstemp: a hidden sibling of `path`, ".NAME.tmp-XXXXXX", NAME cut so that the
// whole stays within NAME_MAX for any name `path` itself may have.
std::string hidden_sibling_pattern(const std::string& path);

// The system's temporary directory (TMPDIR, else /tmp), where the text of an output written in
// place waits until it is complete (and where report/temporary_directory.hpp makes its
// directories). Throws InputError when TMPDIR names something that is not a directory.
std::string temporary_folder();

}  // namespace scaleopt
