#include "scaleopt/analysis/sweep_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt {
namespace {

[[noreturn]] void bad_row(const std::string& path, std::size_t line, const std::string& what) {
  throw InputError(path + ":" + std::to_string(line) + ": " + what +
                   "; it was not written by this sweep (same scenario, --vary and --shard): "
                   "remove it, or rerun the command that wrote it");
}

// The cell after the first comma: "points" of a row.
std::size_t second_cell(const std::string& text, std::size_t begin, std::size_t end) {
  const std::size_t comma = text.find(',', begin);
  if (comma == std::string::npos || comma >= end) return std::string::npos;
  return row_point(text, comma + 1, end);
}

}  // namespace

std::string partial_path(const std::string& out) {
  return out + ".partial";
}

std::size_t row_point(const std::string& text, std::size_t begin, std::size_t end) {
  std::size_t point = 0;
  const auto [ptr, error] = std::from_chars(text.data() + begin, text.data() + end, point);
  if (error != std::errc() || ptr == text.data() + begin ||
      (ptr != text.data() + end && *ptr != ',')) {
    return std::string::npos;
  }
  return point;
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

PartialRows read_partial(const std::string& path, const Provenance& provenance,
                         const std::string& header, std::size_t grid_points,
                         const std::function<bool(std::size_t)>& accept,
                         const std::function<std::string(std::size_t)>& values_text) {
  std::string text = read_input_file(path, kPartialInput);
  // A kill during a write can leave a line without its newline: it is cut off.
  const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (complete < text.size()) {
    if (::truncate(path.c_str(), static_cast<off_t>(complete)) != 0) {
      throw InputError(path + ": cannot cut off its unfinished last line (" + std::strerror(errno) +
                       ")");
    }
    text.resize(complete);
  }
  Provenance found;
  const std::size_t header_begin = read_provenance(text, found);
  check_provenance(path, found, provenance);
  std::size_t line = 1 + found.fields.size();
  const std::size_t header_end = text.find('\n', header_begin);
  if (header_end == std::string::npos ||
      text.compare(header_begin, header_end - header_begin, header) != 0) {
    bad_row(path, line, "the header differs from this sweep's columns");
  }
  PartialRows rows;
  for (std::size_t begin = header_end + 1; begin < text.size();) {
    const std::size_t end = text.find('\n', begin);
    ++line;
    const std::size_t point = row_point(text, begin, end);
    if (point == std::string::npos || second_cell(text, begin, end) != grid_points) {
      bad_row(path, line, "expected point," + std::to_string(grid_points) + ",... ");
    }
    if (point >= grid_points || !accept(point)) {
      bad_row(path, line, "point " + std::to_string(point) + " is not in this sweep's shard");
    }
    const std::string values = values_text(point);
    const std::size_t after_points = text.find(',', text.find(',', begin) + 1);
    if (text.compare(after_points, values.size(), values) != 0) {
      bad_row(path, line, "point " + std::to_string(point) + " has other input values");
    }
    if (!rows.points.empty() && point <= rows.points.back()) rows.ordered = false;
    rows.points.push_back(point);
    begin = end + 1;
  }
  std::sort(rows.points.begin(), rows.points.end());
  if (std::adjacent_find(rows.points.begin(), rows.points.end()) != rows.points.end()) {
    bad_row(path, line, "a point appears twice");
  }
  return rows;
}

PartialFile::PartialFile(const std::string& path, const std::string& header, bool append)
    : path_(path), stream_(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc)) {
  if (!stream_) throw InputError(path + ": cannot write (" + std::strerror(errno) + ")");
  if (!append) this->append(header + "\n");
}

void PartialFile::append(const std::string& rows) {
  stream_.write(rows.data(), static_cast<std::streamsize>(rows.size()));
  stream_.flush();
  if (!stream_) throw InputError(path_ + ": cannot write (" + std::strerror(errno) + ")");
}

void finish_partial(const std::string& partial, const std::string& out, bool ordered,
                    const std::vector<ReadFile>& inputs) {
  if (ordered && check_output(out, "--out", inputs) != OutputKind::in_place) {
    rename_into_place(partial, out, "--out");
    return;
  }
  std::string text = read_input_file(partial, kPartialInput);
  if (!ordered) {
    Provenance provenance;
    const std::size_t header_end = text.find('\n', read_provenance(text, provenance)) + 1;
    std::vector<std::pair<std::size_t, std::pair<std::size_t, std::size_t>>> rows;
    for (std::size_t begin = header_end; begin < text.size();) {
      const std::size_t end = text.find('\n', begin) + 1;
      rows.push_back({row_point(text, begin, end - 1), {begin, end}});
      begin = end;
    }
    std::sort(rows.begin(), rows.end());
    std::string sorted = text.substr(0, header_end);
    sorted.reserve(text.size());
    for (const auto& [point, span] : rows)
      sorted.append(text, span.first, span.second - span.first);
    text = std::move(sorted);
  }
  write_file_atomically(out, text, "--out", inputs);
  std::error_code ignored;  // the rows are in OUT: a partial file left over is only untidy
  std::filesystem::remove(partial, ignored);
}

}  // namespace scaleopt
