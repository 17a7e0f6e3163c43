// Sweep files that were damaged, edited, mixed or written by two sweeps at once are refused by
// merge and --resume in one line naming the file and line (analysis/sweep_file.hpp): a checksum
// line per block of 64 points binds the rows to the header and the provenance lines; one writer
// holds OUT.partial's lock; a sweep larger than the disk does not start.

#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/analysis/sweep_file.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "temp_file.hpp"

namespace {

namespace fs = std::filesystem;
using scaleopt::InputError;

// 3 x 40 = 120 points: blocks 0-63 and 64-119.
const std::vector<std::string> kGrid = {"sweep",  example("sardana_cost.toml"),
                                        "--vary", "inference.decode_mfu=0.1..0.3:3",
                                        "--vary", "inference.requests=1e8..1e12:log:40"};

std::vector<std::string> file_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The index in `lines` of the row of `point`.
std::size_t row_of(const std::vector<std::string>& lines, std::size_t point) {
  const std::string prefix = std::to_string(point) + ",120,";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with(prefix)) return i;
  }
  FAIL("no row of point " << point);
  return 0;
}

// Merge's one-line refusal of `files`, and no output left.
std::string merge_error(const TempDir& dir, const std::vector<std::string>& files) {
  std::vector<std::string> args{"merge"};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"-o", dir.file("merged.csv")});
  const CliRun run = run_cli(args);
  INFO(run.err);
  CHECK(is_one_line_error(run));
  CHECK_FALSE(fs::exists(dir.file("merged.csv")));
  CHECK(run.err.size() < 400);
  return run.err;
}

// A whole shard 2/2 (points 64 to 119) and the same shard stopped after 20 points, its partial
// file's lines (points 64 to 83, closed by the checksum line of an unfinished block).
struct Shards {
  TempDir dir;  // one per test: ctest runs them at once
  std::string a = dir.file("a.csv"), b = dir.file("b.csv");
  explicit Shards(const std::string& name) : dir(name) {
    REQUIRE(run_cli(with(kGrid, {"--shard", "1/2", "--out", a})).status == 0);
    REQUIRE(run_cli(with(kGrid, {"--shard", "2/2", "--out", b})).status == 0);
  }
};

}  // namespace

TEST_CASE(
    "sweep file: a checksum line closes each block of 64 points, pandas' comment rule and "
    "the merge's byte-for-byte equality still hold",
    "[sweep][integrity]") {
  const Shards s("integrity_layout");
  REQUIRE(run_cli(with(kGrid, {"--out", s.dir.file("all.csv")})).status == 0);
  const auto lines = file_lines(read_file(s.dir.file("all.csv")));
  std::vector<std::string> checksums;
  for (const std::string& line : lines) {
    if (line.starts_with("# scaleopt-checksum: ")) checksums.push_back(line);
  }
  REQUIRE(checksums.size() == 2);
  CHECK_THAT(checksums[0],
             Catch::Matches("# scaleopt-checksum: points=0\\.\\.63 crc32=[0-9a-f]{8}"));
  CHECK_THAT(checksums[1],
             Catch::Matches("# scaleopt-checksum: points=64\\.\\.119 crc32=[0-9a-f]{8}"));
  CHECK(lines[row_of(lines, 63) + 1] == checksums[0]);
  CHECK(lines.back() == checksums[1]);
  // The same lines in the shards, so the merge equals the unsharded sweep.
  CHECK_THAT(read_file(s.a), Catch::Contains(checksums[0] + "\n"));
  CHECK_THAT(read_file(s.b), Catch::Contains(checksums[1] + "\n"));
  REQUIRE(run_cli({"merge", s.b, s.a, "-o", s.dir.file("m.csv")}).status == 0);
  CHECK(read_file(s.dir.file("m.csv")) == read_file(s.dir.file("all.csv")));
  // The CRC-32 of the provenance lines but shard, the header and the rows, by zlib's own
  // crc32 recomputed here from the text (zlib is the reference; the file names its value).
  std::string bound;
  std::size_t header = 0;
  for (; lines[header].starts_with("#"); ++header) {
    if (!lines[header].ends_with("shard=all")) bound += lines[header] + "\n";
  }
  bound += lines[header] + "\n";
  for (std::size_t i = header + 1; i < header + 65; ++i) bound += lines[i] + "\n";
  char expected[9];
  std::snprintf(expected, sizeof expected, "%08lx",
                crc32(0, reinterpret_cast<const unsigned char*>(bound.data()),
                      static_cast<unsigned>(bound.size())));
  CHECK(checksums[0].ends_with(std::string("crc32=") + expected));
}

TEST_CASE("merge: an edited cell, a short or long row and a 2 MB cell are refused at their line",
          "[sweep][integrity]") {
  const Shards s("integrity_edited");
  auto lines = file_lines(read_file(s.b));
  const std::size_t row = row_of(lines, 70);
  const std::string line_name = s.b + ":" + std::to_string(row + 1);
  const auto edited = [&](const std::string& row_text) {
    auto copy = lines;
    copy[row] = row_text;
    write_text(s.b, joined(copy));
    return merge_error(s.dir, {s.a, s.b});
  };
  // params (the first answer column, after point, points and the two inputs): a digit changed.
  auto cells = split(lines[row]);
  REQUIRE(split(lines[row_of(lines, 64) - 1])[4] == "params");
  cells[4][0] = cells[4][0] == '1' ? '2' : '1';
  std::string params = cells[0];
  for (std::size_t c = 1; c < cells.size(); ++c) params += "," + cells[c];
  // Named at the block's checksum line, after point 119's row.
  CHECK_THAT(edited(params), Catch::Contains(s.b + ":" + std::to_string(row_of(lines, 119) + 2) +
                                             ": the rows of points 64 to 119") &&
                                 Catch::Contains("do not match their checksum"));
  // status: "converged" -> "infeasible".
  std::string status = lines[row];
  REQUIRE(status.find(",converged,") != std::string::npos);
  status.replace(status.find(",converged,"), 11, ",infeasible,");
  CHECK_THAT(edited(status), Catch::Contains("do not match their checksum"));
  // One cell short, one long.
  CHECK_THAT(edited(lines[row].substr(0, lines[row].rfind(','))),
             Catch::Contains(line_name + ": ") && Catch::Contains("cells where the header has"));
  CHECK_THAT(edited(lines[row] + ",1"),
             Catch::Contains(line_name + ": ") && Catch::Contains("cells where the header has"));
  // A 2 MB cell: past the 1 MiB line limit.
  CHECK_THAT(edited(lines[row] + std::string(2'000'000, '7')),
             Catch::Contains(line_name + ": a line longer than 1 MiB"));
}

TEST_CASE("merge: swapped rows are refused as swapped or out of order, naming the line",
          "[sweep][integrity]") {
  const Shards s("integrity_swapped");
  auto lines = file_lines(read_file(s.b));
  // Within a block.
  auto swapped = lines;
  std::swap(swapped[row_of(lines, 70)], swapped[row_of(lines, 71)]);
  write_text(s.b, joined(swapped));
  CHECK_THAT(merge_error(s.dir, {s.a, s.b}),
             Catch::Contains(s.b + ":" + std::to_string(row_of(lines, 70) + 1) + ": point 71") &&
                 Catch::Contains("swapped or out of order"));
  // The last row of a block with the first of the next (one file holding both).
  REQUIRE(run_cli(with(kGrid, {"--out", s.dir.file("all.csv")})).status == 0);
  auto all = file_lines(read_file(s.dir.file("all.csv")));
  std::swap(all[row_of(all, 63)], all[row_of(all, 64)]);
  write_text(s.dir.file("all.csv"), joined(all));
  const std::string message = merge_error(s.dir, {s.dir.file("all.csv")});
  CHECK_THAT(message, Catch::Contains("swapped or out of order"));
  CHECK_THAT(message, !Catch::Contains("point 63 of 120 is missing"));
}

TEST_CASE("merge: a shard cut short, or holding another sweep's provenance lines, is refused",
          "[sweep][integrity]") {
  const Shards s("integrity_forged");
  const std::string b = read_file(s.b);
  const auto lines = file_lines(b);
  // Cut at the end of a row, before the block's checksum line.
  write_text(s.b,
             joined({lines.begin(), lines.begin() + static_cast<long>(row_of(lines, 90)) + 1}));
  CHECK_THAT(merge_error(s.dir, {s.a, s.b}),
             Catch::Contains(s.b + ":" + std::to_string(row_of(lines, 64) + 1) +
                             ": the rows from here on (points 64 to 90) have no checksum line"));
  // Cut in the middle of a row.
  write_text(s.b, b.substr(0, b.size() / 2));
  CHECK_THAT(merge_error(s.dir, {s.a, s.b}), Catch::Contains("cut short"));
  // Rows of a sweep under another --set, with a.csv's provenance lines copied over its own: the
  // provenance, header and grid agree, only the checksum can tell.
  REQUIRE(run_cli(with(kGrid, {"--shard", "2/2", "--set", "training.mfu=0.45", "--out",
                               s.dir.file("other.csv")}))
              .status == 0);
  auto other = file_lines(read_file(s.dir.file("other.csv")));
  const auto a = file_lines(read_file(s.a));
  for (std::size_t i = 0; other[i].starts_with("# scaleopt-provenance: "); ++i) {
    other[i] = a[i].ends_with("shard=1/2") ? "# scaleopt-provenance: shard=2/2" : a[i];
  }
  write_text(s.b, joined(other));
  CHECK_THAT(merge_error(s.dir, {s.a, s.b}),
             Catch::Contains("do not match their checksum") &&
                 Catch::Contains("the provenance lines are another sweep's"));
  // A file of the layout before checksum lines (schema 1) is refused as such.
  std::string old = b;
  old.replace(old.find("schema=2"), 8, "schema=1");
  write_text(s.b, old);
  CHECK_THAT(merge_error(s.dir, {s.a, s.b}),
             Catch::Contains("schema: file layout 1, this scaleopt reads 2"));
}

TEST_CASE(
    "sweep --resume: an edited or swapped partial file is refused, one stopped in order goes on",
    "[sweep][integrity]") {
  const TempDir dir("resume_integrity");
  const std::string out = dir.file("s.csv");
  REQUIRE(run_cli(with(kGrid, {"--out", dir.file("whole.csv")})).status == 0);
  REQUIRE(run_cli(with(kGrid, {"--out", out, "--stop-after", "90"})).status == 0);
  const std::string partial = read_file(out + ".partial");
  const auto lines = file_lines(partial);
  // The orderly stop closed the unfinished block with its own checksum line.
  CHECK_THAT(lines.back(), Catch::StartsWith("# scaleopt-checksum: points=64..89 crc32="));
  const auto resume = [&](const std::string& text) {
    write_text(out + ".partial", text);
    return run_cli(with(kGrid, {"--out", out, "--resume"}));
  };
  auto edited = lines;
  const std::size_t row = row_of(lines, 10);
  edited[row].replace(edited[row].find(",converged,"), 11, ",infeasible,");
  CliRun run = resume(joined(edited));
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err,
             Catch::Contains(out + ".partial:") && Catch::Contains("do not match their checksum"));
  auto swapped = lines;
  std::swap(swapped[row_of(lines, 70)], swapped[row_of(lines, 71)]);
  run = resume(joined(swapped));
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("swapped or out of order"));
  run = resume(joined(lines) + lines[row] + std::string(2'000'000, '7') + "\n");
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("a line longer than 1 MiB"));
  // An unfinished block's rows edited before its checksum line: refused too.
  auto tail = lines;
  const std::size_t last = row_of(lines, 89);
  tail[last] = tail[last].substr(0, tail[last].rfind(','));
  run = resume(joined(tail));
  CHECK(is_one_line_error(run));
  CHECK_THAT(run.err, Catch::Contains("cells where the header has"));
  // Untouched, it continues: the rows kept, the block reopened, the file equal to the whole.
  run = resume(partial);
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("90 were already in"));
  CHECK(read_file(out) == read_file(dir.file("whole.csv")));
}

TEST_CASE("sweep --resume after kill -9: rows after the last checksum line are solved again",
          "[sweep][integrity]") {
  const TempDir dir("resume_killed");
  const std::string out = dir.file("s.csv");
  REQUIRE(run_cli(with(kGrid, {"--out", dir.file("whole.csv")})).status == 0);
  REQUIRE(run_cli(with(kGrid, {"--out", out, "--stop-after", "100"})).status == 0);
  // What kill -9 leaves: no checksum line after the last rows, the last row cut.
  auto lines = file_lines(read_file(out + ".partial"));
  lines.pop_back();
  std::string text = joined(lines);
  text.resize(text.size() - 10);
  write_text(out + ".partial", text);
  const CliRun run = run_cli(with(kGrid, {"--out", out, "--resume"}));
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("64 were already in"));
  CHECK(read_file(out) == read_file(dir.file("whole.csv")));
}

TEST_CASE("sweep: a second writer of one --out is refused at once, naming the holder's pid",
          "[sweep][integrity]") {
  const TempDir dir("sweep_lock");
  const std::string out = dir.file("s.csv");
  REQUIRE(run_cli(with(kGrid, {"--out", out, "--stop-after", "10"})).status == 0);
  const std::string partial = read_file(out + ".partial");
  const std::string holder = "pid " + std::to_string(::getpid());
  {
    // This process holds OUT.partial's lock, as a running sweep would.
    const scaleopt::PartialFile held = scaleopt::PartialFile::open_existing(out, {});
    CHECK(fs::exists(out + ".partial.pid"));
    for (const auto& more : {std::vector<std::string>{"--resume"}, std::vector<std::string>{}}) {
      const CliRun second = run_cli(with(kGrid, with({"--out", out}, more)));
      INFO(second.err);
      CHECK(is_one_line_error(second));
      CHECK_THAT(second.err, Catch::Contains("--out: " + out +
                                             ".partial is being written by "
                                             "another sweep (" +
                                             holder));
    }
    // Another grid on the same --out: refused the same way, nothing mixed in.
    const CliRun other = run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                                  "inference.requests=1e8..1e12:log:7", "--out", out});
    CHECK_THAT(other.err, Catch::Contains("is being written by another sweep (" + holder));
    CHECK(read_file(out + ".partial") == partial);
    // Creating it again is refused too (two sweeps started at once: one creates it first).
    CHECK_THROWS_WITH(scaleopt::PartialFile::create(out, "x\n", {}),
                      Catch::Contains("is being written by another sweep (" + holder));
  }
  // The lock and the pid file go with their holder; the sweep goes on.
  CHECK_FALSE(fs::exists(out + ".partial.pid"));
  REQUIRE(run_cli(with(kGrid, {"--out", out, "--resume"})).status == 0);
  CHECK_FALSE(fs::exists(out + ".partial.pid"));
}

TEST_CASE("sweep: larger than the free disk, refused before a byte is written", "[sweep][disk]") {
  // The library's check, with an injected free space: both figures in the message.
  CHECK_NOTHROW(scaleopt::check_disk_space("s.csv", 1e6, 2'000'000));
  CHECK_THROWS_WITH(scaleopt::check_disk_space("s.csv", 5.18e11, 12'300'000'000),
                    Catch::Contains("out: s.csv needs about 518GB, more than the 12.3GB free") &&
                        Catch::Contains("--ignore-disk-space"));
  // A grid of 10^12 points (~500 TB) on this machine's disk.
  const TempDir dir("sweep_disk");
  const std::string out = dir.file("big.csv");
  const std::vector<std::string> big = {"sweep",  example("sardana_cost.toml"),
                                        "--vary", "inference.requests=1e8..1e12:log:1000000",
                                        "--vary", "training.mfu=0.3..0.5:1000000",
                                        "--out",  out};
  const CliRun run = run_cli(big);
  INFO(run.err);
  REQUIRE(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("will hold 1000000000000 rows") &&
                          Catch::Contains("--out: " + out + " needs about ") &&
                          Catch::Contains("free where it goes"));
  CHECK(fs::is_empty(dir.path));
}
