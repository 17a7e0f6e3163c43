#include "scaleopt/analysis/sweep_merge.hpp"

#include <charconv>
#include <memory>
#include <queue>

#include "scaleopt/analysis/lifecycle_csv.hpp"
#include "scaleopt/analysis/sweep_provenance.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {
namespace {

// A sweep's row is a few hundred bytes; a longer line is not one.
constexpr std::size_t kMaxRowBytes = std::size_t{1} << 20;

// One shard file, read a row ahead.
struct Source {
  std::unique_ptr<InputLines> lines;
  Shard shard;
  std::string_view row;  // the current row, valid until the next read
  std::size_t point = 0;
  std::size_t line = 0;
  bool has_row = false;
};

std::string where(const Source& s) {
  return s.lines->path() + ":" + std::to_string(s.line);
}

// The grid's values for each point, as the rows print them (",v1,v2").
class GridValues {
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

// Reads the source's next row and checks it against the grid and its shard.
void advance(Source& s, GridValues& grid) {
  const std::size_t previous = s.point;
  const bool had_row = s.has_row;
  bool complete = true;
  s.has_row = s.lines->next(s.row, complete);
  if (!s.has_row) return;
  s.line = s.lines->line_number();
  if (!complete) {
    throw InputError(where(s) + ": the last row is cut short (an interrupted write?)");
  }
  // No allocation per row: the merge's memory stays flat (even under AddressSanitizer, whose
  // quarantine holds freed blocks).
  const std::string_view text = s.row;
  const std::size_t point = leading_count(text);
  const std::size_t comma = text.find(',');
  const std::size_t count =
      comma == std::string::npos ? std::string::npos : leading_count(text.substr(comma + 1));
  if (point == std::string::npos || count == std::string::npos) {
    throw InputError(where(s) + ": expected point,points,...");
  }
  if (count != grid.points()) {
    throw InputError(where(s) + ": a grid of " + std::to_string(count) +
                     " points, where its provenance (grid) gives " + std::to_string(grid.points()));
  }
  if (point >= grid.points()) {
    throw InputError(where(s) + ": point " + std::to_string(point) + " is outside the grid of " +
                     std::to_string(grid.points()) + " points");
  }
  if (!in_shard(point, s.shard)) {
    throw InputError(where(s) + ": point " + std::to_string(point) +
                     " is not in the file's shard (" + shard_text(s.shard) + ")");
  }
  if (had_row && point <= previous) {
    throw InputError(where(s) + ": point " + std::to_string(point) + " after point " +
                     std::to_string(previous) + ": the rows are not in point order");
  }
  const std::size_t values_begin = text.find(',', comma + 1);
  const std::string& values = grid.text(point);
  if (values_begin == std::string::npos || text.compare(values_begin, values.size(), values) != 0 ||
      text.size() <= values_begin + values.size() || text[values_begin + values.size()] != ',') {
    throw InputError(where(s) + ": point " + std::to_string(point) +
                     " has other values of the varied inputs than the grid gives (" +
                     values.substr(1) + ")");
  }
  s.point = point;
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
    s.lines = std::make_unique<InputLines>(paths[f], kMaxRowBytes);
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
                       ", this scaleopt reads " + std::to_string(kSweepFileSchema));
    }
    const std::string* shard = provenance.find("shard");
    s.shard = parse_shard_field(shard ? std::string_view(*shard) : "", paths[f]);
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
  const std::string* grid_field = first.find("grid");
  GridValues grid(parse_grid_spec(grid_field ? *grid_field : "", paths[0]));

  Provenance merged = first;
  merged.set("shard", "all");
  write(merged.text());
  write(header + "\n");

  // Smallest point first; ties (a point twice) by file, to name the first file in the message.
  using Entry = std::pair<std::size_t, std::size_t>;  // point, file
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t f = 0; f < sources.size(); ++f) {
    advance(sources[f], grid);
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
    if (point > expected) break;  // `expected` is missing
    write(s.row);
    write("\n");
    last_file = f;
    last_line = s.line;
    ++expected;
    advance(s, grid);
    if (s.has_row) heap.push({s.point, f});
  }
  if (expected != grid.points()) {
    throw InputError("merge: point " + std::to_string(expected) + " of " +
                     std::to_string(grid.points()) +
                     " is missing (is a shard file left out, or unfinished?)");
  }
  return expected;
}

}  // namespace scaleopt
