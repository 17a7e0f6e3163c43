#include "cli/runs_csv.hpp"

// The parser's background reader thread only pays off for files of tens of megabytes.
#define CSV_IO_NO_THREAD
// The parser copies file names with strncpy into a fixed buffer and terminates them itself;
// GCC's inlined-code check flags that copy even in a system header (clang has no such check).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <csv.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "costmodel/input_error.hpp"
#include "costmodel/quantity.hpp"

namespace scaleopt::cli {
namespace {

// Cells may be quoted ("1,000" is one cell); spaces and tabs around a cell are trimmed;
// blank lines are skipped (counted in line numbers all the same).
using Reader = io::CSVReader<3, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::empty_line_comment>;

struct Column {
  const std::string* name;
  const char* flag;
  Unit unit;
};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw InputError(path + ":" + std::to_string(line) + ": " + what);
}

// The parser's error, reworded with our FILE:LINE prefix (its own messages quote the file
// name in the middle of the sentence).
[[noreturn]] void translate(const std::string& path, const io::error::base& error,
                            const Column* columns) {
  const auto* at_line = dynamic_cast<const io::error::with_file_line*>(&error);
  const int line = at_line ? at_line->file_line : 1;
  if (dynamic_cast<const io::error::can_not_open_file*>(&error)) {
    const auto& open_error = dynamic_cast<const io::error::can_not_open_file&>(error);
    throw InputError(path + ": cannot open the file" +
                     (open_error.errno_value
                          ? std::string(" (") + std::strerror(open_error.errno_value) + ")"
                          : std::string()));
  }
  if (dynamic_cast<const io::error::header_missing*>(&error)) {
    fail(path, 1, "empty file: expected a header line naming the columns");
  }
  if (const auto* missing = dynamic_cast<const io::error::missing_column_in_header*>(&error)) {
    std::string flag;
    for (int c = 0; c < 3; ++c) {
      if (*columns[c].name == missing->column_name) flag = columns[c].flag;
    }
    fail(path, 1,
         std::string("no column '") + missing->column_name + "' (named by " + flag +
             ") in the header");
  }
  if (const auto* duplicate = dynamic_cast<const io::error::duplicated_column_in_header*>(&error)) {
    fail(path, 1,
         std::string("column '") + duplicate->column_name + "' appears twice in the header");
  }
  if (dynamic_cast<const io::error::too_few_columns*>(&error)) {
    fail(path, line, "ragged row: fewer cells than the header has columns");
  }
  if (dynamic_cast<const io::error::too_many_columns*>(&error)) {
    fail(path, line, "ragged row: more cells than the header has columns");
  }
  if (dynamic_cast<const io::error::escaped_string_not_closed*>(&error)) {
    fail(path, line, "a quoted cell is not closed");
  }
  if (dynamic_cast<const io::error::line_length_limit_exceeded*>(&error)) {
    fail(path, line, "line longer than 16 MB");
  }
  fail(path, line, error.what());
}

double read_cell(const std::string& path, int line, const Column& column, const char* cell) {
  const std::string prefix = "column '" + *column.name + "' (" + column.flag + "): ";
  double value = 0.0;
  try {
    value = parse_quantity(cell, column.unit);
  } catch (const InputError& e) {
    fail(path, line, prefix + e.what());
  }
  if (!(value > 0.0)) {
    std::ostringstream message;
    message << prefix << "must be positive, got " << value;
    fail(path, line, message.str());
  }
  return value;
}

}  // namespace

void RunsCsvColumns::validate() const {
  if (params.empty()) throw InputError("--params-col: required (the column of model sizes N)");
  if (loss.empty()) throw InputError("--loss-col: required (the column of final losses)");
  if (tokens.empty() == flops.empty()) {
    throw InputError(
        "give exactly one of --tokens-col (training tokens D) and --flops-col (training compute "
        "C = 6 N D)");
  }
  const std::string& data = tokens.empty() ? flops : tokens;
  const char* data_flag = tokens.empty() ? "--flops-col" : "--tokens-col";
  if (params == loss) throw InputError("--loss-col: same column as --params-col ('" + loss + "')");
  if (data == params) {
    throw InputError(std::string(data_flag) + ": same column as --params-col ('" + data + "')");
  }
  if (data == loss) {
    throw InputError(std::string(data_flag) + ": same column as --loss-col ('" + data + "')");
  }
}

namespace {

// The rows of the CSV behind `open()` (which makes the reader: from a file or from memory),
// with every parser error reworded under `name`.
template <class OpenReader>
RunsCsv read_runs(const std::string& name, const RunsCsvColumns& columns, OpenReader open) {
  columns.validate();
  const bool from_flops = columns.tokens.empty();
  const Column wanted[3] = {{&columns.params, "--params-col", Unit::count},
                            {from_flops ? &columns.flops : &columns.tokens,
                             from_flops ? "--flops-col" : "--tokens-col", Unit::count},
                            {&columns.loss, "--loss-col", Unit::number}};
  RunsCsv result;
  try {
    const std::unique_ptr<Reader> reader = open();
    reader->read_header(io::ignore_extra_column, columns.params,
                        from_flops ? columns.flops : columns.tokens, columns.loss);
    char* cells[3] = {nullptr, nullptr, nullptr};
    while (reader->read_row(cells[0], cells[1], cells[2])) {
      const int line = static_cast<int>(reader->get_file_line());
      const double params = read_cell(name, line, wanted[0], cells[0]);
      const double data = read_cell(name, line, wanted[1], cells[1]);
      const double loss = read_cell(name, line, wanted[2], cells[2]);
      const double tokens = from_flops ? data / (6.0 * params) : data;
      if (!(std::isfinite(tokens) && tokens > 0.0)) {
        std::ostringstream message;
        message << "D = C / (6 N) = " << data << " / (6 x " << params
                << ") is not a finite positive number of tokens";
        fail(name, line, message.str());
      }
      result.runs.push_back({params, tokens, loss});
      result.last_line = line;
    }
    result.last_line = std::max(result.last_line, static_cast<int>(reader->get_file_line()));
  } catch (const io::error::base& error) {
    translate(name, error, wanted);
  }
  if (result.runs.empty())
    fail(name, std::max(result.last_line, 1), "no data rows after the header");
  return result;
}

}  // namespace

RunsCsv read_runs_csv(const std::string& path, const RunsCsvColumns& columns) {
  return read_runs(path, columns, [&] { return std::make_unique<Reader>(path); });
}

RunsCsv read_runs_csv_text(std::string_view text, const std::string& name,
                           const RunsCsvColumns& columns) {
  // An empty view may hold a null pointer, which the parser would pass to memcpy.
  const char* begin = text.empty() ? "" : text.data();
  return read_runs(name, columns,
                   [&] { return std::make_unique<Reader>(name, begin, begin + text.size()); });
}

}  // namespace scaleopt::cli
