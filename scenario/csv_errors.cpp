#include "scaleopt/scenario/csv_errors.hpp"

#include <cstring>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/scenario/fccp.hpp"

namespace scaleopt {

void fail_at_line(const std::string& path, int line, const std::string& what) {
  throw InputError(path + ":" + std::to_string(line) + ": " + what);
}

// The parser's own messages quote the file name in the middle of the sentence.
void rethrow_csv_error(const std::string& path, const io::error::base& error,
                       const std::function<std::string(const std::string&)>& flag_of) {
  const auto* at_line = dynamic_cast<const io::error::with_file_line*>(&error);
  const int line = at_line ? at_line->file_line : 1;
  if (const auto* open_error = dynamic_cast<const io::error::can_not_open_file*>(&error)) {
    throw InputError(path + ": cannot open the file" +
                     (open_error->errno_value
                          ? std::string(" (") + std::strerror(open_error->errno_value) + ")"
                          : std::string()));
  }
  if (dynamic_cast<const io::error::header_missing*>(&error)) {
    fail_at_line(path, 1, "empty file: expected a header line naming the columns");
  }
  if (const auto* missing = dynamic_cast<const io::error::missing_column_in_header*>(&error)) {
    fail_at_line(path, 1,
                 "no column " + quoted_input(missing->column_name) + " (named by " +
                     flag_of(missing->column_name) + ") in the header");
  }
  if (const auto* duplicate = dynamic_cast<const io::error::duplicated_column_in_header*>(&error)) {
    fail_at_line(path, 1,
                 "column " + quoted_input(duplicate->column_name) + " appears twice in the header");
  }
  if (dynamic_cast<const io::error::too_few_columns*>(&error)) {
    fail_at_line(path, line, "ragged row: fewer cells than the header has columns");
  }
  if (dynamic_cast<const io::error::too_many_columns*>(&error)) {
    fail_at_line(path, line, "ragged row: more cells than the header has columns");
  }
  if (dynamic_cast<const io::error::escaped_string_not_closed*>(&error)) {
    fail_at_line(path, line, "a quoted cell is not closed");
  }
  if (dynamic_cast<const io::error::line_length_limit_exceeded*>(&error)) {
    fail_at_line(path, line, "line longer than 16 MB");
  }
  fail_at_line(path, line, error.what());
}

}  // namespace scaleopt
