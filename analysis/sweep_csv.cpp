#include "scaleopt/analysis/sweep_csv.hpp"

#include <algorithm>
#include <cmath>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/scenario/csv_errors.hpp"
#include "scaleopt/scenario/fccp.hpp"
#include "scaleopt/scenario/input_file.hpp"

namespace scaleopt {
namespace {

template <unsigned N>
using Reader = io::CSVReader<N, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::single_and_empty_line_comment<'#'>>;

double read_number(const std::string& path, int line, const std::string& column,
                   const std::string& flag, const char* cell) {
  if (!cell || *cell == '\0') return NAN;
  char* end = nullptr;
  const double value = std::strtod(cell, &end);
  if (end == cell || *end != '\0') {
    fail_at_line(
        path, line,
        "column " + quoted_input(column) + " (" + flag + "): not a number: " + quoted_input(cell));
  }
  return value;
}

}  // namespace

std::string read_sweep_file(const std::string& path) {
  return read_input_file(path, kSweepCsvInput);
}

SweepHeader read_sweep_header(const std::string& text, const std::string& path) {
  // The provenance lines (analysis/sweep_provenance.hpp) and any other comment come first.
  std::size_t begin = 0;
  int number = 1;
  while (begin < text.size() && text[begin] == '#') {
    const std::size_t newline = text.find('\n', begin);
    if (newline == std::string::npos) break;
    begin = newline + 1;
    ++number;
  }
  std::string line = text.substr(begin, text.find('\n', begin) - begin);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  SweepHeader header;
  for (std::size_t start = 0;;) {
    const auto comma = line.find(',', start);
    header.columns.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  const auto params = std::find(header.columns.begin(), header.columns.end(), "params");
  if (header.columns.size() < 4 || header.columns[0] != "point" || header.columns[1] != "points" ||
      params == header.columns.end() || params - header.columns.begin() < 3) {
    fail_at_line(path, number,
                 "not a sweep file: expected the header of 'scaleopt sweep --out' (point, "
                 "points, the varied inputs, params, ...)");
  }
  header.inputs.assign(header.columns.begin() + 2, params);
  return header;
}

std::vector<SweepRow> read_sweep_rows(const std::string& text, const std::string& path,
                                      const std::string& x, const std::string& y,
                                      const std::optional<std::string>& series) {
  auto flag_of = [&](const std::string& column) {
    return column == x ? std::string("x") : column == y ? std::string("y") : std::string("series");
  };
  std::vector<SweepRow> rows;
  // An empty string may hold a null pointer, which the parser would pass to memcpy.
  const char* begin = text.empty() ? "" : text.data();
  const char* end = begin + text.size();
  try {
    if (series) {
      Reader<4> reader(path, begin, end);
      reader.read_header(io::ignore_extra_column, x, y, *series, "status");
      char *cx = nullptr, *cy = nullptr, *cs = nullptr, *status = nullptr;
      while (reader.read_row(cx, cy, cs, status)) {
        const int line = static_cast<int>(reader.get_file_line());
        rows.push_back({read_number(path, line, x, "x", cx), read_number(path, line, y, "y", cy),
                        read_number(path, line, *series, "series", cs), status});
      }
    } else {
      Reader<3> reader(path, begin, end);
      reader.read_header(io::ignore_extra_column, x, y, "status");
      char *cx = nullptr, *cy = nullptr, *status = nullptr;
      while (reader.read_row(cx, cy, status)) {
        const int line = static_cast<int>(reader.get_file_line());
        rows.push_back({read_number(path, line, x, "x", cx), read_number(path, line, y, "y", cy),
                        NAN, status});
      }
    }
  } catch (const io::error::base& error) {
    rethrow_csv_error(path, error, flag_of);
  }
  return rows;
}

}  // namespace scaleopt
