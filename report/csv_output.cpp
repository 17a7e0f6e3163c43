#include "scaleopt/report/csv_output.hpp"
#include "scaleopt/report/json.hpp"

#include <iomanip>
#include <sstream>

#include "scaleopt/costmodel/input_error.hpp"

namespace scaleopt::report {
namespace {

std::string field(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) {
    std::ostringstream text;
    text << std::setprecision(17) << value.get<double>();
    return text.str();
  }
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string csv_from_rows(const Json& rows) {
  if (!rows.is_array() || rows.empty() || !rows.front().is_object()) {
    throw InputError("CSV output needs an array of objects");
  }
  std::ostringstream out;
  std::vector<std::string> columns;
  for (const auto& [key, value] : rows.front().items()) columns.push_back(key);
  for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << field(columns[i]);
  out << "\n";
  for (const Json& row : rows) {
    if (!row.is_object() || row.size() != columns.size()) {
      throw InputError("CSV output needs rows with the same keys");
    }
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (!row.contains(columns[i])) throw InputError("CSV row without key " + columns[i]);
      out << (i ? "," : "") << field(row.at(columns[i]));
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace scaleopt::report
