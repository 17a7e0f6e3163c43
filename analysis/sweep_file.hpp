#pragma once
// The files of a sweep. Rows go to OUT.partial as chunks of points are solved (written each
// time), so an interrupted or killed sweep keeps what it has done; a finished sweep renames the
// partial file to OUT. Readers of OUT thus see a whole file or none (rename is atomic, POSIX).
//
// The layout (schema 2 of analysis/sweep_provenance.hpp): the provenance lines, the CSV header,
// then the rows in point order, the rows of each block of kShardBlock points (the blocks dealt
// to the shards) followed by their checksum line:
//
//   # scaleopt-checksum: points=64..127 crc32=1c291ca3
//
// The CRC-32 (zlib) of the provenance lines but `shard`, the header line and the block's rows:
// the same line in a shard and in the unsharded sweep, so a merge copies it and still equals
// the unsharded sweep byte for byte; and rows under another sweep's provenance lines do not
// match it. It guards against accidents (a cell edited, a row cut or lengthened, a file cut
// short, lines of two files mixed), not against forgery: anyone can recompute it. Readers that
// skip comment lines (pandas: read_csv(path, comment="#")) read the rows as before.
//
// A sweep stopped in an orderly way (Ctrl-C, SIGTERM, --stop-after) closes its unfinished block
// with the checksum line of the rows it has (points=64..90); --resume checks that line, removes
// it and continues the block. Rows after the last checksum line (left by kill -9) are dropped
// and solved again: at most a block's worth.
//
// One writer at a time: OUT.partial is created exclusively and already locked (flock), and the
// lock is held for the writer's life; the kernel drops it when the process ends, however it
// ends, so kill -9 and --resume keep working. OUT.partial.pid records the holder for the
// message that refuses a second writer at once.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/analysis/sweep_grid.hpp"
#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/analysis/sweep_runner.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {

// A line of a sweep file is at most this long (a row is a few hundred bytes): merge and
// --resume refuse a longer one, so memory stays bounded.
inline constexpr std::size_t kMaxSweepLineBytes = std::size_t{1} << 20;

inline constexpr std::string_view kChecksumPrefix = "# scaleopt-checksum: ";

// OUT + ".partial", and the file naming its writer, OUT + ".partial.pid".
std::string partial_path(const std::string& out);
std::string partial_owner_path(const std::string& out);

// What every block's CRC starts from: the CRC-32 of the provenance lines but `shard`, then the
// header line and its newline.
std::uint32_t checksum_seed(const Provenance& provenance, std::string_view header);

// "# scaleopt-checksum: points=FIRST..LAST crc32=HEX\n".
std::string checksum_line(std::size_t first, std::size_t last, std::uint32_t crc);

// The checksum lines of rows as they are written, in point order.
class SweepChecksums {
 public:
  SweepChecksums(std::uint32_t seed, std::size_t grid_points);

  // Continues an unfinished block of points `first_point` to `last_point` so far, whose rows
  // have `crc` (a resumed sweep: PartialRows).
  void resume_block(std::size_t first_point, std::size_t last_point, std::uint32_t crc);

  // `rows` holds one line per point of `points` (increasing, after those of earlier calls):
  // returns them with the checksum line of each block after the block's last row, as pieces to
  // write in order (PartialFile::append): slices of `rows` and lines held here until the next
  // call, so that the rows (~500 MB in a 10^6-point sweep) are not copied once more.
  std::span<const std::string_view> add(std::span<const SweepPoint> points, std::string_view rows);

  // The checksum line of the rows of an unfinished block, or "" when no block is open.
  std::string close_unfinished();

 private:
  std::uint32_t seed_;
  std::size_t grid_points_;
  bool open_ = false;
  std::size_t first_ = 0, last_ = 0;  // the open block's points so far
  std::uint32_t crc_ = 0;
  std::string lines_;  // the checksum lines of the last call, one after another
  std::vector<std::string_view> pieces_;
};

// What a line after the header is.
enum class SweepLine { row, checksum };

// The lines of one sweep file after its header, checked one at a time as merge and --resume
// read them: each row is a point of the file's grid and shard with the grid's values for that
// point and the header's number of cells; rows are in increasing point order, a block's points
// consecutive; each block is followed by its checksum line, which must match. Throws InputError
// "PATH:LINE: ..." naming what is wrong: a point swapped or out of order, a cell edited, a row
// short or long, another sweep's provenance lines.
class SweepFileCheck {
 public:
  // `provenance` and `header`: the file's own. Throws InputError "PATH: grid: ..." or
  // "PATH: shard: ..." when its fields are not a grid and a shard.
  SweepFileCheck(std::string path, const Provenance& provenance, std::string header);
  ~SweepFileCheck();
  SweepFileCheck(const SweepFileCheck&) = delete;
  SweepFileCheck& operator=(const SweepFileCheck&) = delete;

  SweepLine check(std::string_view line, std::size_t line_number);

  std::size_t grid_points() const;
  const Shard& shard() const { return shard_; }
  std::size_t point() const { return point_; }  // the last row's
  bool block_open() const { return open_; }     // rows since the last checksum line
  std::size_t block_first_point() const { return block_first_point_; }
  std::size_t block_first_line() const { return block_first_line_; }
  // The last checksum line closed a block before its end (an orderly stop); `last_crc` is its.
  bool unfinished() const { return unfinished_; }
  std::uint32_t last_crc() const { return last_crc_; }

 private:
  [[noreturn]] void fail(std::size_t line, const std::string& what) const;
  void check_checksum(std::string_view line, std::size_t line_number);

  class GridValues;
  std::string path_;
  std::unique_ptr<GridValues> grid_;
  Shard shard_;
  std::size_t cells_ = 0;  // the header's
  std::uint32_t seed_ = 0;
  bool any_row_ = false;
  std::size_t point_ = 0;
  bool open_ = false;
  bool unfinished_ = false;
  std::size_t block_first_point_ = 0, block_first_line_ = 0;
  std::uint32_t crc_ = 0, last_crc_ = 0;
};

// What --resume keeps of a partial file.
struct PartialRows {
  std::size_t points = 0;        // the shard's first `points` points are there
  std::uint64_t keep_bytes = 0;  // the file's first bytes that hold them (the rest is cut off)
  std::size_t dropped_rows = 0;  // rows after the last checksum line, solved again
  // The last block is unfinished (an orderly stop): it goes on after `block_last_point`, its
  // rows from `block_first_point` so far with `block_crc`.
  bool block_open = false;
  std::size_t block_first_point = 0, block_last_point = 0;
  std::uint32_t block_crc = 0;
};

// Reads a partial file for --resume, line by line. Its provenance lines must equal `provenance`
// (else an InputError naming the first field that differs: another scenario or --set, another
// grid, ...), then the header `header`, then rows as SweepFileCheck checks them, the first
// points of `shard` in order. Throws InputError "FILE:LINE: ..." for anything else.
PartialRows read_partial(const std::string& path, const Provenance& provenance,
                         const std::string& header);

// Throws InputError "out: OUT.partial is being written by another sweep (pid N on HOST): ..."
// when a process holds OUT.partial's lock; does nothing when none does (or it does not exist).
void refuse_if_being_written(const std::string& out);

// OUT.partial, held by this process alone (flock) from its creation or opening to the end.
class PartialFile {
 public:
  // Creates OUT.partial exclusively, already locked, holding `head` (the provenance lines and
  // the header line). Throws InputError when it exists (another sweep created it meanwhile:
  // naming its pid) or cannot be written.
  static PartialFile create(const std::string& out, std::string_view head,
                            const std::vector<ReadFile>& inputs);
  // Opens the existing OUT.partial, locked. Throws InputError "out: OUT.partial is being
  // written by another sweep (pid N on HOST): ..." at once when another process holds it.
  static PartialFile open_existing(const std::string& out, const std::vector<ReadFile>& inputs);

  PartialFile(PartialFile&& other) noexcept;
  PartialFile& operator=(PartialFile&&) = delete;
  PartialFile(const PartialFile&) = delete;
  ~PartialFile();  // removes OUT.partial.pid, then closes (which releases the lock)

  void keep(std::uint64_t bytes);      // cuts the file to its first `bytes` (read_partial's)
  void append(std::string_view text);  // throws InputError when the write fails
  void append(std::span<const std::string_view> pieces);  // the same, piece after piece

  // The sweep is complete: OUT.partial, synced and checked to hold every byte written, becomes
  // OUT, renamed when OUT is a regular file or new, else (a symbolic link) written through
  // scenario/atomic_file.hpp, which refuses `inputs`.
  void finish(const std::vector<ReadFile>& inputs);

 private:
  void start_writeback();
  PartialFile(std::string out, int fd, const std::vector<ReadFile>& inputs);
  std::string out_;
  std::string path_;
  int fd_ = -1;
  std::uint64_t bytes_ = 0;           // what the file holds: written, or kept of what was there
  std::uint64_t writeback_from_ = 0;  // the first byte not yet handed to start_writeback
};

// Throws InputError "PATH: provenance field 'F' differs from this sweep's (what F means): ..."
// when `found` differs from `expected`, or "PATH: no provenance lines" when it has none.
void check_provenance(const std::string& path, const Provenance& found, const Provenance& expected);

// Whether the free space of the folder `out` goes in (the file system's, for an unprivileged
// user) holds `needed_bytes`; throws InputError "out: OUT needs about X, more than the Y free
// ...: ... (--ignore-disk-space to write anyway)" when it does not. `free_bytes` is that free
// space (free_disk_bytes of scenario/atomic_file.hpp).
void check_disk_space(const std::string& out, double needed_bytes, std::uint64_t free_bytes);

}  // namespace scaleopt
