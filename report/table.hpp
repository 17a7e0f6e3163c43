#pragma once
// A plain, aligned text table: a title, then rows of label, value and an optional note.

#include <ostream>
#include <string>
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

}  // namespace scaleopt::report
