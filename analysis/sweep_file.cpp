#include "scaleopt/analysis/sweep_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <utility>

#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt {
namespace {

std::uint32_t crc_of(std::uint32_t crc, std::string_view text) {
  return static_cast<std::uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(text.data()), text.size()));
}

// The last point of the block holding `point`.
std::size_t block_last(std::size_t point, std::size_t grid_points) {
  return std::min(grid_points, (point / kShardBlock + 1) * kShardBlock) - 1;
}

// The number a cell starts with, up to a comma or the end; npos when there is none.
std::size_t leading_count(std::string_view text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data() ||
      (end != text.data() + text.size() && *end != ',')) {
    return std::string::npos;
  }
  return value;
}

// Cells of a CSV line; a comma inside double quotes is text.
std::size_t cell_count(std::string_view line) {
  std::size_t cells = 1;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) ++cells;
  }
  return cells;
}

[[noreturn]] void cannot_write(const std::string& path, int error) {
  throw InputError("out: cannot write " + path + ": " + std::strerror(error));
}

// "pid 1234 on node7", from OUT.partial.pid, or what is known without it.
std::string owner_of(const std::string& out) {
  std::string text;
  try {
    text = read_input_head(partial_owner_path(out), 256);
  } catch (const InputError&) {
    return "its pid is not recorded";
  }
  unsigned long pid = 0;
  char host[256] = {};
  if (std::sscanf(text.c_str(), "pid=%lu host=%255s", &pid, host) < 1) {
    return "its pid is not recorded";
  }
  return "pid " + std::to_string(pid) + (host[0] ? std::string(" on ") + host : std::string());
}

[[noreturn]] void refuse_second_writer(const std::string& out) {
  throw InputError("out: " + partial_path(out) + " is being written by another sweep (" +
                   owner_of(out) +
                   "): two sweeps on one --out would mix their rows; wait for it to end, or stop "
                   "it and continue with --resume");
}

// Locks `fd` for this process alone, at once or not at all.
bool lock_alone(int fd) {
  int result = 0;
  do {
    result = ::flock(fd, LOCK_EX | LOCK_NB);
  } while (result != 0 && errno == EINTR);
  return result == 0;
}

}  // namespace

// The grid's values for each point, as the rows print them (",v1,v2"), recomputed from the
// `grid` field.
class SweepFileCheck::GridValues {
 public:
  explicit GridValues(std::vector<GridSpecAxis> axes) : axes_(std::move(axes)) {
    for (const GridSpecAxis& axis : axes_) points_ *= axis.count;
  }
  std::size_t points() const { return points_; }
  const std::string& text(std::size_t point) {
    text_.clear();
    std::size_t index = point;
    values_.resize(axes_.size());
    for (std::size_t a = axes_.size(); a-- > 0;) {  // row-major, as analysis/sweep_grid.hpp
      const GridSpecAxis& axis = axes_[a];
      values_[a] = axis_value(axis.low, axis.high, axis.log_scale, axis.count, index % axis.count);
      index /= axis.count;
    }
    for (const double v : values_) {
      text_ += ',';
      append_number(text_, v);
    }
    return text_;
  }

 private:
  std::vector<GridSpecAxis> axes_;
  std::size_t points_ = 1;
  std::vector<double> values_;
  std::string text_;
};

std::string partial_path(const std::string& out) {
  return out + ".partial";
}

std::string partial_owner_path(const std::string& out) {
  return out + ".partial.pid";
}

std::uint32_t checksum_seed(const Provenance& provenance, std::string_view header) {
  Provenance bound = provenance;
  std::erase_if(bound.fields, [](const auto& field) { return field.first == "shard"; });
  std::uint32_t crc = crc_of(0, bound.text());
  crc = crc_of(crc, header);
  return crc_of(crc, "\n");
}

std::string checksum_line(std::size_t first, std::size_t last, std::uint32_t crc) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", crc);
  return std::string(kChecksumPrefix) + "points=" + std::to_string(first) + ".." +
         std::to_string(last) + " crc32=" + hex + "\n";
}

SweepChecksums::SweepChecksums(std::uint32_t seed, std::size_t grid_points)
    : seed_(seed), grid_points_(grid_points) {}

void SweepChecksums::resume_block(std::size_t first_point, std::size_t last_point,
                                  std::uint32_t crc) {
  open_ = true;
  first_ = first_point;
  last_ = last_point;
  crc_ = crc;
}

std::span<const std::string_view> SweepChecksums::add(std::span<const SweepPoint> points,
                                                      std::string_view rows) {
  // Where each finished block ends in `rows`, and its line's end in lines_: the views are made
  // once lines_ is whole (appending may move it).
  struct Cut {
    std::size_t rows_end, line_end;
  };
  std::vector<Cut> cuts;
  lines_.clear();
  std::size_t begin = 0;  // of the rows not yet in a block's CRC
  std::size_t end = 0;
  for (const SweepPoint& p : points) {
    end = rows.find('\n', end) + 1;
    if (!open_) {
      open_ = true;
      first_ = p.point;
      crc_ = seed_;
    }
    last_ = p.point;
    if (p.point == block_last(p.point, grid_points_)) {
      crc_ = crc_of(crc_, rows.substr(begin, end - begin));
      lines_ += checksum_line(first_, last_, crc_);
      cuts.push_back({end, lines_.size()});
      open_ = false;
      begin = end;
    }
  }
  crc_ = crc_of(crc_, rows.substr(begin));
  pieces_.clear();
  std::size_t rows_begin = 0, line_begin = 0;
  for (const Cut& cut : cuts) {
    pieces_.push_back(rows.substr(rows_begin, cut.rows_end - rows_begin));
    pieces_.push_back(std::string_view(lines_).substr(line_begin, cut.line_end - line_begin));
    rows_begin = cut.rows_end;
    line_begin = cut.line_end;
  }
  if (rows_begin < rows.size()) pieces_.push_back(rows.substr(rows_begin));
  return pieces_;
}

std::string SweepChecksums::close_unfinished() {
  if (!open_) return "";
  open_ = false;
  return checksum_line(first_, last_, crc_);
}

SweepFileCheck::SweepFileCheck(std::string path, const Provenance& provenance, std::string header)
    : path_(std::move(path)) {
  const std::string* grid = provenance.find("grid");
  grid_ = std::make_unique<GridValues>(parse_grid_spec(grid ? *grid : "", path_));
  const std::string* shard = provenance.find("shard");
  shard_ = parse_shard_field(shard ? std::string_view(*shard) : "", path_);
  cells_ = cell_count(header);
  seed_ = checksum_seed(provenance, header);
}

SweepFileCheck::~SweepFileCheck() = default;

std::size_t SweepFileCheck::grid_points() const {
  return grid_->points();
}

void SweepFileCheck::fail(std::size_t line, const std::string& what) const {
  throw InputError(path_ + ":" + std::to_string(line) + ": " + what);
}

SweepLine SweepFileCheck::check(std::string_view line, std::size_t line_number) {
  if (line.starts_with(kChecksumPrefix)) {
    check_checksum(line, line_number);
    return SweepLine::checksum;
  }
  if (line.starts_with("#")) fail(line_number, "a comment line among the rows");
  if (unfinished_) {
    fail(line_number, "a row after the checksum line of an unfinished block (of points " +
                          std::to_string(block_first_point_) + " to " + std::to_string(point_) +
                          "): the file was edited");
  }
  const std::size_t points = grid_->points();
  const std::size_t point = leading_count(line);
  const std::size_t comma = line.find(',');
  const std::size_t count =
      comma == std::string::npos ? std::string::npos : leading_count(line.substr(comma + 1));
  if (point == std::string::npos || count == std::string::npos) {
    fail(line_number, "expected point,points,...");
  }
  if (count != points) {
    fail(line_number, "a grid of " + std::to_string(count) +
                          " points, where its provenance (grid) gives " + std::to_string(points));
  }
  if (point >= points) {
    fail(line_number, "point " + std::to_string(point) + " is outside the grid of " +
                          std::to_string(points) + " points");
  }
  if (!in_shard(point, shard_)) {
    fail(line_number, "point " + std::to_string(point) + " is not in the file's shard (" +
                          shard_text(shard_) + ")");
  }
  if (any_row_ && point <= point_) {
    fail(line_number, "point " + std::to_string(point) + " after point " + std::to_string(point_) +
                          ": the rows are swapped or out of order");
  }
  if (open_ && point != point_ + 1) {
    fail(line_number, "point " + std::to_string(point) + " follows point " +
                          std::to_string(point_) + " where point " + std::to_string(point_ + 1) +
                          " should: the rows are swapped or out of order, or one is deleted");
  }
  if (open_ && point > block_last(block_first_point_, points)) {
    fail(line_number, "no checksum line after the rows of points " +
                          std::to_string(block_first_point_) + " to " + std::to_string(point_) +
                          ": the file was edited");
  }
  if (!open_ && point % kShardBlock != 0) {
    fail(line_number, "point " + std::to_string(point) + " begins a block of rows, which begins " +
                          "at a multiple of " + std::to_string(kShardBlock) +
                          ": rows are missing, swapped or out of order");
  }
  const std::size_t values_begin = line.find(',', comma + 1);
  const std::string& values = grid_->text(point);
  if (values_begin == std::string::npos || line.compare(values_begin, values.size(), values) != 0 ||
      line.size() <= values_begin + values.size() || line[values_begin + values.size()] != ',') {
    fail(line_number, "point " + std::to_string(point) +
                          " has other values of the varied inputs than the grid gives (" +
                          values.substr(1) + ")");
  }
  if (const std::size_t cells = cell_count(line); cells != cells_) {
    fail(line_number, std::to_string(cells) + " cells where the header has " +
                          std::to_string(cells_) + ": a row cut short, lengthened or edited");
  }
  if (!open_) {
    open_ = true;
    crc_ = seed_;
    block_first_point_ = point;
    block_first_line_ = line_number;
  }
  crc_ = crc_of(crc_of(crc_, line), "\n");
  any_row_ = true;
  point_ = point;
  return SweepLine::row;
}

void SweepFileCheck::check_checksum(std::string_view line, std::size_t line_number) {
  if (!open_) fail(line_number, "a checksum line with no rows before it: the file was edited");
  std::string_view fields = line.substr(kChecksumPrefix.size());
  std::size_t first = 0, last = 0;
  unsigned long crc = 0;
  bool ok = fields.starts_with("points=");
  if (ok) {
    fields.remove_prefix(7);
    auto [end, error] = std::from_chars(fields.data(), fields.data() + fields.size(), first);
    ok = error == std::errc() && std::string_view(end, 2) == "..";
    if (ok) {
      const char* rest = end + 2;
      auto [end2, error2] = std::from_chars(rest, fields.data() + fields.size(), last);
      const std::string_view tail(end2,
                                  static_cast<std::size_t>(fields.data() + fields.size() - end2));
      ok = error2 == std::errc() && tail.starts_with(" crc32=") && tail.size() == 7 + 8;
      if (ok) {
        const auto [end3, error3] =
            std::from_chars(tail.data() + 7, tail.data() + tail.size(), crc, 16);
        ok = error3 == std::errc() && end3 == tail.data() + tail.size();
      }
    }
  }
  if (!ok) {
    fail(line_number, "not a checksum line (expected " + std::string(kChecksumPrefix) +
                          "points=FIRST..LAST crc32=8 hex digits)");
  }
  if (first != block_first_point_ || last != point_) {
    fail(line_number, "the checksum line is for points " + std::to_string(first) + " to " +
                          std::to_string(last) + ", the rows before it are points " +
                          std::to_string(block_first_point_) + " to " + std::to_string(point_) +
                          ": the file was edited");
  }
  if (crc != crc_) {
    fail(line_number, "the rows of points " + std::to_string(first) + " to " +
                          std::to_string(last) + " (lines " + std::to_string(block_first_line_) +
                          " to " + std::to_string(line_number - 1) +
                          ") do not match their checksum: a cell was edited or damaged, or the "
                          "provenance lines are another sweep's");
  }
  open_ = false;
  unfinished_ = last != block_last(first, grid_->points());
  last_crc_ = crc_;
}

PartialRows read_partial(const std::string& path, const Provenance& provenance,
                         const std::string& header) {
  InputLines lines(path, kMaxSweepLineBytes);
  std::string_view line;
  bool complete = true;
  std::uint64_t bytes = 0;  // read so far, newlines included
  Provenance found;
  bool have_line = false;
  while ((have_line = lines.next(line, complete)) && complete &&
         read_provenance_line(line, found)) {
    bytes += line.size() + 1;
  }
  check_provenance(path, found, provenance);
  if (!have_line || !complete || line != header) {
    throw InputError(path + ":" + std::to_string(lines.line_number()) +
                     ": the header differs from this sweep's columns; it was not written by this "
                     "sweep (same scenario, --vary and --shard): remove it, or rerun the command "
                     "that wrote it");
  }
  bytes += line.size() + 1;
  SweepFileCheck check(path, provenance, header);
  std::vector<std::size_t> shard_points;
  PartialRows rows;
  rows.keep_bytes = bytes;
  std::size_t points = 0;     // rows read
  std::size_t tail_rows = 0;  // rows after the last checksum line
  while (lines.next(line, complete) && complete) {
    bytes += line.size() + 1;
    const SweepLine kind = check.check(line, lines.line_number());
    if (kind == SweepLine::row) {
      // The shard's points, in order from its first: what a sweep writes.
      const std::size_t expected = shard_point(points, check.grid_points(), check.shard());
      if (check.point() != expected) {
        throw InputError(path + ":" + std::to_string(lines.line_number()) + ": point " +
                         std::to_string(check.point()) + " where the shard's next point is " +
                         std::to_string(expected) + ": rows are missing or out of order");
      }
      ++points;
      ++tail_rows;
      continue;
    }
    rows.points = points;
    rows.dropped_rows = tail_rows = 0;
    if (check.unfinished()) {
      // An orderly stop closed the block early: the rows stay, the block goes on.
      rows.block_open = true;
      rows.block_first_point = check.block_first_point();
      rows.block_last_point = check.point();
      rows.block_crc = check.last_crc();
      rows.keep_bytes = bytes - line.size() - 1;
    } else {
      rows.block_open = false;
      rows.keep_bytes = bytes;
    }
  }
  rows.dropped_rows = tail_rows + (complete ? 0 : 1);
  return rows;
}

void refuse_if_being_written(const std::string& out) {
  const int fd = ::open(partial_path(out).c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  const bool held = !lock_alone(fd);
  ::close(fd);  // and with it the lock, when it was taken here
  if (held) refuse_second_writer(out);
}

PartialFile::PartialFile(std::string out, int fd, const std::vector<ReadFile>& inputs)
    : out_(std::move(out)), path_(partial_path(out_)), fd_(fd) {
  // Who holds the lock, for the message that refuses a second writer.
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  const std::string owner =
      "pid=" + std::to_string(::getpid()) + (host[0] ? std::string(" host=") + host : "") + "\n";
  try {
    if (check_output(partial_owner_path(out_), "out", inputs) == OutputKind::in_place) {
      throw InputError("out: " + partial_owner_path(out_) +
                       " is not a regular file (a symbolic link, device or FIFO): remove it");
    }
    write_file_atomically(partial_owner_path(out_), owner, "out", inputs);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

PartialFile::PartialFile(PartialFile&& other) noexcept
    : out_(std::move(other.out_)),
      path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      bytes_(other.bytes_),
      writeback_from_(other.writeback_from_) {}

PartialFile::~PartialFile() {
  if (fd_ < 0) return;
  // Still ours while the lock is held: nobody else writes the pid file meanwhile.
  std::remove(partial_owner_path(out_).c_str());
  ::close(fd_);
}

PartialFile PartialFile::create(const std::string& out, std::string_view head,
                                const std::vector<ReadFile>& inputs) {
  const std::string path = partial_path(out);
  // Written and locked under a temporary name, then linked to OUT.partial, which fails when
  // the name exists: the partial file appears only whole and locked, and only once.
  std::string name = hidden_sibling_pattern(path);
  const int fd = ::mkstemp(name.data());
  if (fd < 0) cannot_write(path, errno);
  const auto fail = [&](int error) {
    ::unlink(name.c_str());
    ::close(fd);
    cannot_write(path, error);
  };
  if (::fchmod(fd, 0644) != 0) fail(errno);
  if (!lock_alone(fd)) fail(errno);
  if (const int error = write_all(fd, head)) fail(error);
  if (::link(name.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(name.c_str());
    ::close(fd);
    if (error == EEXIST) {
      // Another sweep created it since we looked: say whose it is.
      refuse_if_being_written(out);
      throw InputError("out: " + path +
                       " appeared while this sweep started: is another sweep "
                       "writing the same --out? Add --resume to continue it once it has ended");
    }
    cannot_write(path, error);
  }
  ::unlink(name.c_str());
  try {
    PartialFile file(out, fd, inputs);
    file.bytes_ = head.size();
    return file;
  } catch (...) {
    ::unlink(path.c_str());  // created just now, and this sweep's alone: nothing is left
    throw;
  }
}

PartialFile PartialFile::open_existing(const std::string& out,
                                       const std::vector<ReadFile>& inputs) {
  const std::string path = partial_path(out);
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) cannot_write(path, errno);
  if (!lock_alone(fd)) {
    ::close(fd);
    refuse_second_writer(out);
  }
  struct stat status {};
  const bool sized = ::fstat(fd, &status) == 0;
  PartialFile file(out, fd, inputs);
  if (sized) file.bytes_ = static_cast<std::uint64_t>(status.st_size);
  return file;
}

void PartialFile::keep(std::uint64_t bytes) {
  struct stat status {};
  if (::fstat(fd_, &status) != 0) cannot_write(path_, errno);
  bytes_ = bytes;
  writeback_from_ = bytes;
  if (static_cast<std::uint64_t>(status.st_size) == bytes) return;
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
    throw InputError(path_ + ": cannot cut off its unfinished rows (" + std::strerror(errno) + ")");
  }
}

void PartialFile::append(std::string_view text) {
  append(std::span<const std::string_view>(&text, 1));
}

void PartialFile::append(std::span<const std::string_view> pieces) {
  // writev: one call for a block's rows and checksum lines, without joining them first.
  std::vector<iovec> vectors;
  vectors.reserve(pieces.size());
  for (const std::string_view piece : pieces) {
    if (!piece.empty()) vectors.push_back({const_cast<char*>(piece.data()), piece.size()});
  }
  std::size_t next = 0;
  while (next < vectors.size()) {
    const int count = static_cast<int>(std::min<std::size_t>(vectors.size() - next, IOV_MAX));
    const ssize_t n = ::writev(fd_, vectors.data() + next, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      cannot_write(path_, errno);
    }
    bytes_ += static_cast<std::uint64_t>(n);
    // Skip what was written; a short write leaves part of a vector for the next call.
    std::size_t written = static_cast<std::size_t>(n);
    while (next < vectors.size() && written >= vectors[next].iov_len) {
      written -= vectors[next].iov_len;
      ++next;
    }
    if (written > 0) {
      vectors[next].iov_base = static_cast<char*>(vectors[next].iov_base) + written;
      vectors[next].iov_len -= written;
    }
  }
  start_writeback();
}

void PartialFile::start_writeback() {
  // Linux: start writing back what is written, without waiting, every kWritebackBytes, so that
  // the fsync before the rename (finish) waits for the last stretch, not the whole file (a
  // second of a 10^6-point sweep's 500 MB); at 32 MiB that stretch still cost the sweep ~3% of
  // its wall-clock time, at 8 MiB ~1%. Only a hint: where it is not supported (EINVAL, ENOSYS
  // on some file systems) the fsync does it all.
  constexpr std::uint64_t kWritebackBytes = 8u << 20;
  if (bytes_ - writeback_from_ < kWritebackBytes) return;
  ::sync_file_range(fd_, static_cast<off_t>(writeback_from_),
                    static_cast<off_t>(bytes_ - writeback_from_), SYNC_FILE_RANGE_WRITE);
  writeback_from_ = bytes_;
}

void PartialFile::finish(const std::vector<ReadFile>& inputs) {
  // On disk before it is named (the rename is synced with its folder), and whole.
  if (::fsync(fd_) != 0) cannot_write(path_, errno);
  struct stat status {};
  if (::fstat(fd_, &status) != 0) cannot_write(path_, errno);
  if (static_cast<std::uint64_t>(status.st_size) != bytes_) {
    throw InputError("out: " + path_ + " holds " + std::to_string(status.st_size) +
                     " bytes where " + std::to_string(bytes_) +
                     " were written: did something else write to it? It is not renamed to " + out_);
  }
  if (check_output(out_, "out", inputs) != OutputKind::in_place) {
    rename_into_place(path_, out_, "out");
    return;
  }
  write_file_atomically(out_, read_input_file(path_, kPartialInput), "out", inputs);
  // The rows are in OUT: a partial file left over would only be untidy. Removed only while it
  // is still this sweep's file (the same inode as the locked descriptor).
  struct stat mine {
  }, named{};
  if (::fstat(fd_, &mine) == 0 && ::stat(path_.c_str(), &named) == 0 &&
      mine.st_ino == named.st_ino && mine.st_dev == named.st_dev) {
    ::unlink(path_.c_str());
  }
}

void check_provenance(const std::string& path, const Provenance& found,
                      const Provenance& expected) {
  if (found.fields.empty()) {
    throw InputError(path +
                     ": no provenance lines (written by an older scaleopt, or not by a sweep): "
                     "remove it, or rerun the command that wrote it");
  }
  const std::string field = provenance_mismatch(found, expected);
  if (!field.empty()) {
    throw InputError(path + ": provenance field '" + field + "' differs from this sweep's (" +
                     provenance_field_meaning(field) +
                     "): it answers another question; remove it, or rerun the command that "
                     "wrote it");
  }
}

void check_disk_space(const std::string& out, double needed_bytes, std::uint64_t free_bytes) {
  if (needed_bytes <= static_cast<double>(free_bytes)) return;
  throw InputError("out: " + out + " needs about " + format_quantity(needed_bytes, Unit::bytes, 3) +
                   ", more than the " +
                   format_quantity(static_cast<double>(free_bytes), Unit::bytes, 3) +
                   " free where it goes: free some space or choose another --out "
                   "(--ignore-disk-space writes anyway)");
}

}  // namespace scaleopt
