#include "scaleopt/analysis/sweep_merge.hpp"

#include <memory>
#include <queue>

#include "scaleopt/analysis/sweep_file.hpp"
#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {
namespace {

// One shard file, read a row ahead.
struct Source {
  std::unique_ptr<InputLines> lines;
  std::unique_ptr<SweepFileCheck> check;
  std::string_view row;  // the current row, valid until the next read
  std::size_t point = 0;
  std::size_t line = 0;
  bool has_row = false;
};

std::string where(const Source& s) {
  return s.lines->path() + ":" + std::to_string(s.line);
}

// Reads the source's next row (checked by SweepFileCheck). A checksum line on the way closes
// the block of the row just written, so it goes to `write` at once: the merged file has it
// where the unsharded sweep has it.
void advance(Source& s, const std::function<void(std::string_view)>& write) {
  // No allocation per row: the merge's memory stays flat (even under AddressSanitizer, whose
  // quarantine holds freed blocks).
  for (;;) {
    bool complete = true;
    s.has_row = s.lines->next(s.row, complete);
    if (!s.has_row) {
      if (s.check->block_open()) {
        throw InputError(s.lines->path() + ":" + std::to_string(s.check->block_first_line()) +
                         ": the rows from here on (points " +
                         std::to_string(s.check->block_first_point()) + " to " +
                         std::to_string(s.check->point()) +
                         ") have no checksum line: the file is cut short (an interrupted "
                         "write?)");
      }
      return;
    }
    s.line = s.lines->line_number();
    if (!complete) {
      throw InputError(where(s) + ": the last row is cut short (an interrupted write?)");
    }
    if (s.check->check(s.row, s.line) == SweepLine::row) break;
    if (s.check->unfinished()) {
      throw InputError(where(s) + ": the block of points " +
                       std::to_string(s.check->block_first_point()) + " to " +
                       std::to_string(s.check->point()) +
                       " is unfinished: is it an interrupted sweep's partial file? Finish the "
                       "sweep with --resume");
    }
    write(s.row);
    write("\n");
  }
  s.point = s.check->point();
}

}  // namespace

std::size_t merge_sweep_files(const std::vector<std::string>& paths,
                              const std::function<void(std::string_view)>& write) {
  if (paths.empty()) throw InputError("merge: give the shard files to merge");
  std::vector<Source> sources(paths.size());
  Provenance first;
  std::string header;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    Source& s = sources[f];
    s.lines = std::make_unique<InputLines>(paths[f], kMaxSweepLineBytes);
    Provenance provenance;
    std::string_view line;
    bool complete = true;
    bool have_line = false;
    while ((have_line = s.lines->next(line, complete)) && complete &&
           read_provenance_line(line, provenance)) {
    }
    const std::size_t header_line = s.lines->line_number();
    if (provenance.fields.empty()) {
      throw InputError(paths[f] +
                       ": no provenance lines (written by an older scaleopt, or not by a "
                       "sweep): rerun its sweep");
    }
    if (const std::string* command = provenance.find("command"); !command || *command != "sweep") {
      throw InputError(paths[f] + ": command: not a sweep file (command=" +
                       (command ? *command : std::string("none")) + ")");
    }
    if (!have_line || !complete || !line.starts_with("point,points,")) {
      throw InputError(paths[f] + ":" + std::to_string(header_line) +
                       ": not a sweep file (expected a header point,points,...)");
    }
    if (const std::string* schema = provenance.find("schema");
        !schema || *schema != std::to_string(kSweepFileSchema)) {
      throw InputError(paths[f] + ": schema: file layout " + (schema ? *schema : "none") +
                       ", this scaleopt reads " + std::to_string(kSweepFileSchema) +
                       " (with a checksum line per block of rows): rerun its sweep");
    }
    s.check = std::make_unique<SweepFileCheck>(paths[f], provenance, std::string(line));
    if (f == 0) {
      first = provenance;
      header = std::string(line);
    } else {
      const std::string field = provenance_mismatch(provenance, first, "shard");
      if (!field.empty()) {
        throw InputError("merge: " + paths[f] + ": provenance field '" + field + "' differs from " +
                         paths[0] + "'s (" + provenance_field_meaning(field) +
                         "): the files answer different questions");
      }
      if (line != header) {
        throw InputError(paths[f] + ":" + std::to_string(header_line) +
                         ": the header differs from " + paths[0] +
                         "'s: the files come from different sweeps");
      }
    }
  }
  const std::size_t grid_points = sources.front().check->grid_points();

  Provenance merged = first;
  merged.set("shard", "all");
  write(merged.text());
  write(header + "\n");

  // Smallest point first; ties (a point twice) by file, to name the first file in the message.
  using Entry = std::pair<std::size_t, std::size_t>;  // point, file
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t f = 0; f < sources.size(); ++f) {
    advance(sources[f], write);
    if (sources[f].has_row) heap.push({sources[f].point, f});
  }
  std::size_t expected = 0;
  std::size_t last_file = 0, last_line = 0;
  while (!heap.empty()) {
    const auto [point, f] = heap.top();
    heap.pop();
    Source& s = sources[f];
    if (point < expected) {
      throw InputError("merge: point " + std::to_string(point) + " appears twice (" +
                       paths[last_file] + ":" + std::to_string(last_line) + " and " + where(s) +
                       ")");
    }
    if (point > expected) {
      // `expected` is missing, unless a file has it further on, out of order: reading each
      // file's next row says so (SweepFileCheck refuses a row out of order).
      std::string_view ignored;
      for (Source& other : sources) {
        if (other.has_row) advance(other, [&ignored](std::string_view text) { ignored = text; });
      }
      break;
    }
    write(s.row);
    write("\n");
    last_file = f;
    last_line = s.line;
    ++expected;
    advance(s, write);
    if (s.has_row) heap.push({s.point, f});
  }
  if (expected != grid_points) {
    throw InputError("merge: point " + std::to_string(expected) + " of " +
                     std::to_string(grid_points) +
                     " is missing (is a shard file left out, or unfinished?)");
  }
  return expected;
}

}  // namespace scaleopt
