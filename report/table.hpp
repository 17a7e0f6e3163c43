#pragma once
// A plain, aligned text table: a title, then rows of label, value and an optional note.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace scaleopt::report {

class Table {
 public:
  explicit Table(std::string title = {}) : title_(std::move(title)) {}
  Table& row(std::string label, std::string value, std::string note = {});
  Table& header(std::vector<std::string> columns);  // switches to a multi-column table
  Table& cells(std::vector<std::string> values);
  void print(std::ostream& out) const;

  // What the table holds, for other renderings (the HTML report): with a header, it is the
  // first row.
  const std::string& title() const { return title_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  bool has_header() const { return has_header_; }

 private:
  std::string title_;
  std::vector<std::vector<std::string>> rows_;
  bool has_header_ = false;
};

// `text` as lines of at most `width` characters, broken between words: the first starts with
// `indent`, the others with `continuation`; each ends with a line break. A word longer than the
// width keeps its own line. For the notes under a table, which may be long (a solver's message).
std::string wrap_words(std::string_view text, std::size_t width = 100,
                       std::string_view indent = "  ", std::string_view continuation = "    ");

}  // namespace scaleopt::report
