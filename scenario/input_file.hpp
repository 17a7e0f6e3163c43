#pragma once
// Reading a file someone else may have written. Scenario files and run CSVs travel between
// people, so every input is read here, with a size limit per kind of file: a wrong path (a
// disk image, /dev/zero, a log) is refused with the limit in the message instead of being read
// into memory. Regular files are sized before reading; pipes and devices are read up to the
// limit and never waited on for ever (a FIFO nobody writes to reads as empty; a writer silent
// for `kInputSilence` is an error). A directory is refused as one.
//
// Also here: whether an output names a file being read (same device and inode, so through
// symbolic links, hard links and ".."), which scenario/atomic_file.hpp refuses.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace scaleopt {

// A kind of input and its size limit. The limits are far above any real file of the kind (a
// scenario is a few KB; a 10^6-point sweep ~500 MB) and far below what would exhaust memory.
struct InputKind {
  std::string_view name;  // "a scenario or law file (TOML)", for messages
  std::size_t max_bytes;
};

inline constexpr InputKind kTomlInput{"a scenario or law file (TOML)", std::size_t{4} << 20};
inline constexpr InputKind kRunsCsvInput{"a file of training runs (CSV)", std::size_t{256} << 20};
inline constexpr InputKind kSweepCsvInput{"a sweep file (CSV)", std::size_t{4} << 30};
// A sweep's own OUT.partial, read to resume: it must be a regular file, so its size is known
// before anything is read; the limit only keeps every read bounded.
inline constexpr InputKind kPartialInput{"a sweep's partial file", std::size_t{64} << 30};
// The SVG gnuplot drew for the HTML report.
inline constexpr InputKind kFigureInput{"a figure drawn by gnuplot", std::size_t{64} << 20};

// How long a pipe or device may stay silent before the read gives up (a terminal left as
// input, a writer that hangs).
inline constexpr std::chrono::milliseconds kInputSilence{60'000};

// The whole text of `path`. Throws InputError, naming `flag` first when one is given
// ("law_file: PATH: ..."), else "PATH: ...": "cannot open the file (reason)", "is a
// directory, not a file", "larger than 4 MiB, the limit for a scenario or law file (TOML)",
// "no data for 60 s", "cannot read (reason)".
std::string read_input_file(const std::string& path, const InputKind& kind,
                            std::string_view flag = {},
                            std::chrono::milliseconds silence = kInputSilence);

// At most the first `bytes` bytes of `path` (e.g. a header line), with the same errors but no
// size limit.
std::string read_input_head(const std::string& path, std::size_t bytes, std::string_view flag = {});

// A file read line by line, 1 MiB at a time, with read_input_file's errors (cannot open, a
// directory, a silent pipe): memory is bounded by the longest line whatever the file's size
// (scaleopt merge streams shards of gigabytes through it).
class InputLines {
 public:
  // Throws InputError as read_input_file does; `max_line_bytes` bounds a line.
  InputLines(std::string path, std::size_t max_line_bytes, std::string_view flag = {});
  ~InputLines();
  InputLines(const InputLines&) = delete;
  InputLines& operator=(const InputLines&) = delete;

  // The next line, without its newline, valid until the next call; false at the end of the
  // file. `complete` is false for a last line the file ends without a newline after (a write
  // cut short). Throws InputError "PATH:LINE: longer than N bytes" past the bound.
  bool next(std::string_view& line, bool& complete);
  std::size_t line_number() const { return line_number_; }  // of the line last returned
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string flag_;
  std::size_t max_line_bytes_;
  int fd_ = -1;
  std::string buffer_;
  std::size_t begin_ = 0;  // the next line's start in buffer_
  bool at_end_ = false;    // everything is in buffer_
  std::size_t line_number_ = 0;
};

// A file a command reads, and what it is to the command, for messages: {"s.toml", "the
// scenario file"}.
struct ReadFile {
  std::string path;
  std::string role;
};

// The first of `inputs` that is the same file as `output` (same st_dev and st_ino), or null.
// Paths that do not exist are no file: an output that does not exist yet is never an input.
const ReadFile* same_file_as_input(const std::string& output, const std::vector<ReadFile>& inputs);

// "1 KiB", "4 MiB", "4 GiB": a limit as the messages print it.
std::string bytes_text(std::size_t bytes);

}  // namespace scaleopt
