#include "scaleopt/analysis/sweep_merge.hpp"

#include <algorithm>

#include "scaleopt/analysis/sweep_file.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {
namespace {

struct Row {
  std::size_t point;
  std::size_t file;
  std::size_t line;
  std::size_t begin, end;  // in that file's text, newline included
};

}  // namespace

std::string merge_sweep_files(const std::vector<std::string>& paths) {
  if (paths.empty()) throw InputError("merge: give the shard files to merge");
  std::vector<std::string> texts;
  std::vector<Row> rows;
  std::string header;
  std::size_t points = std::string::npos;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    texts.push_back(read_input_file(paths[f], kSweepCsvInput));
    const std::string& text = texts.back();
    const std::size_t header_end = text.find('\n');
    if (header_end == std::string::npos || !text.starts_with("point,points,")) {
      throw InputError(paths[f] + ":1: not a sweep file (expected a header point,points,...)");
    }
    if (f == 0) {
      header = text.substr(0, header_end + 1);
    } else if (text.compare(0, header_end + 1, header) != 0) {
      throw InputError(paths[f] + ":1: the header differs from " + paths[0] +
                       "'s: the files come from different sweeps");
    }
    std::size_t line = 1;
    for (std::size_t begin = header_end + 1; begin < text.size();) {
      ++line;
      const std::size_t newline = text.find('\n', begin);
      if (newline == std::string::npos) {
        throw InputError(paths[f] + ":" + std::to_string(line) +
                         ": the last row is cut short (an interrupted write?)");
      }
      const std::size_t point = row_point(text, begin, newline);
      const std::size_t comma = text.find(',', begin);
      const std::size_t count = row_point(text, comma + 1, newline);
      if (point == std::string::npos || count == std::string::npos) {
        throw InputError(paths[f] + ":" + std::to_string(line) + ": expected point,points,...");
      }
      if (points == std::string::npos) points = count;
      if (count != points) {
        throw InputError(paths[f] + ":" + std::to_string(line) + ": a grid of " +
                         std::to_string(count) + " points, where the files before have " +
                         std::to_string(points) + ": the files come from different sweeps");
      }
      rows.push_back({point, f, line, begin, newline + 1});
      begin = newline + 1;
    }
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.point != b.point ? a.point < b.point : a.file < b.file;
  });
  auto where = [&](const Row& r) { return paths[r.file] + ":" + std::to_string(r.line); };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && rows[i].point == rows[i - 1].point) {
      throw InputError("merge: point " + std::to_string(rows[i].point) + " appears twice (" +
                       where(rows[i - 1]) + " and " + where(rows[i]) + ")");
    }
    if (rows[i].point != i) {
      throw InputError("merge: point " + std::to_string(i) + " of " + std::to_string(points) +
                       " is missing (is a shard file left out, or unfinished?)");
    }
  }
  if (points != std::string::npos && rows.size() != points) {
    throw InputError("merge: point " + std::to_string(rows.size()) + " of " +
                     std::to_string(points) +
                     " is missing (is a shard file left out, or unfinished?)");
  }
  std::size_t size = header.size();
  for (const Row& r : rows) size += r.end - r.begin;
  std::string merged;
  merged.reserve(size);
  merged += header;
  for (const Row& r : rows) merged.append(texts[r.file], r.begin, r.end - r.begin);
  return merged;
}

}  // namespace scaleopt
