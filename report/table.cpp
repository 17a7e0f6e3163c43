#include "scaleopt/report/table.hpp"

#include <algorithm>
#include <iomanip>

namespace scaleopt::report {

Table& Table::row(std::string label, std::string value, std::string note) {
  rows_.push_back({std::move(label), std::move(value), std::move(note)});
  return *this;
}

Table& Table::header(std::vector<std::string> columns) {
  has_header_ = true;
  rows_.insert(rows_.begin(), std::move(columns));
  return *this;
}

Table& Table::cells(std::vector<std::string> values) {
  rows_.push_back(std::move(values));
  return *this;
}

void Table::print(std::ostream& out) const {
  if (!title_.empty()) out << title_ << "\n";
  std::vector<std::size_t> widths;
  for (const auto& row : rows_) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const auto& row = rows_[r];
    std::string line = "  ";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      line += row[c];
      if (!last) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
    if (has_header_ && r == 0) {
      std::string rule = "  ";
      for (std::size_t c = 0; c < widths.size(); ++c) {
        rule += std::string(widths[c], '-') + (c + 1 == widths.size() ? "" : "  ");
      }
      out << rule << "\n";
    }
  }
}

std::string wrap_words(std::string_view text, std::size_t width, std::string_view indent,
                       std::string_view continuation) {
  std::string wrapped;
  std::string line(indent);
  bool first_word = true;
  while (!text.empty()) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text.remove_prefix(space == std::string_view::npos ? text.size() : space + 1);
    if (word.empty()) continue;
    if (!first_word && line.size() + 1 + word.size() > width) {
      wrapped.append(line).append("\n");
      line.assign(continuation);
      first_word = true;
    }
    if (!first_word) line += ' ';
    line += word;
    first_word = false;
  }
  return wrapped + line + "\n";
}

}  // namespace scaleopt::report
