#include "scaleopt/scenario/toml_reading.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "scaleopt/scenario/input_file.hpp"
#include "scaleopt/scenario/toml_nesting.hpp"

namespace scaleopt {
namespace {

std::string describe_type(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date or time";
  }
}

// Levenshtein distance, for "did you mean".
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The dotted key a TOML line sets ("problem.budget_usd" for "budget_usd = 1e400" under
// [problem]), so that a value the parser rejects names its field; empty where the line holds no
// plain "key = value" (the text is a stranger's: only bare keys are named, at most 200 bytes).
std::string key_at_line(std::string_view text, std::size_t line) {
  const auto bare = [](std::string_view key) {
    return !key.empty() && key.size() <= 200 && std::all_of(key.begin(), key.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
  };
  const auto trimmed = [](std::string_view s) {
    const std::size_t first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return std::string_view();
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
  };
  std::string table;
  std::size_t number = 1;
  for (std::size_t start = 0; start <= text.size() && number <= line; ++number) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view content = trimmed(text.substr(start, end - start));
    start = end + 1;
    if (content.starts_with('[')) {
      // "[a.b]" or "[[a.b]]"; an unclosed or empty header names no table.
      const std::size_t open = content.find_first_not_of('[');
      const std::size_t close = content.find(']');
      const std::string_view header =
          open != std::string_view::npos && close != std::string_view::npos && close > open
              ? trimmed(content.substr(open, close - open))
              : std::string_view();
      table = bare(header) ? std::string(header) : std::string();
      continue;
    }
    if (number != line) continue;
    const std::size_t equals = content.find('=');
    if (equals == std::string_view::npos) return {};
    const std::string_view key = trimmed(content.substr(0, equals));
    if (!bare(key)) return {};
    return table.empty() ? std::string(key) : table + "." + std::string(key);
  }
  return {};
}

TomlDocument parse(std::string_view text, const std::string& name) {
  // toml++ recurses once per part of a dotted key: bounded first, or a deep key overflows the
  // stack.
  check_toml_nesting(text, name);
  try {
    return {toml::parse(text, name), name};
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << name << ":" << e.source().begin.line << ":" << e.source().begin.column << ": ";
    const std::string key = key_at_line(text, e.source().begin.line);
    if (!key.empty()) message << key << ": ";
    message << e.description();
    throw InputError(message.str());
  }
}

}  // namespace

TomlDocument parse_toml_file(const std::string& path, std::string_view flag) {
  return parse(read_input_file(path, kTomlInput, flag), path);
}

TomlDocument parse_toml_text(std::string_view text, const std::string& name) {
  return parse(text, name);
}

std::string_view closest_key(std::string_view name,
                             const std::vector<std::string_view>& candidates) {
  std::string_view closest;
  std::size_t best = 3;  // suggest only near misses
  for (std::string_view candidate : candidates) {
    // The distance is at least the difference in length: a name of megabytes is compared with
    // nothing (the distance costs the product of the lengths).
    const std::size_t longer = std::max(name.size(), candidate.size());
    if (longer - std::min(name.size(), candidate.size()) >= best) continue;
    const std::size_t d = edit_distance(name, candidate);
    if (d < best) {
      best = d;
      closest = candidate;
    }
  }
  return closest;
}

std::vector<std::pair<std::string, const toml::node*>> entries_in_file_order(
    const toml::table& table) {
  std::vector<std::pair<std::string, const toml::node*>> entries;
  for (const auto& [key, node] : table) entries.emplace_back(std::string(key.str()), &node);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.second->source().begin.line < b.second->source().begin.line;
  });
  return entries;
}

std::string join_key(std::string_view prefix, std::string_view key) {
  if (prefix.empty()) return std::string(key);
  return std::string(prefix) + "." + std::string(key);
}

std::string location(const std::string& file, const toml::node& node) {
  const auto& source = node.source();
  const auto line = source.begin.line;
  // A value parsed from another document, e.g. a --set override: name that document. Those
  // named after a parameter ("set") are one line long, so no line number is given.
  if (source.path && !source.path->empty() && *source.path != file) {
    if (*source.path == "set" || line == 0) return *source.path;
    return *source.path + ":" + std::to_string(line);
  }
  if (line == 0) return file;
  return file + ":" + std::to_string(line);
}

void fail_at(const std::string& file, const toml::node& node, std::string_view key,
             std::string_view what) {
  throw InputError(location(file, node) + ": " + std::string(key) + ": " + std::string(what));
}

double read_quantity(const std::string& file, const toml::node& node, std::string_view key,
                     Unit unit) {
  if (const auto* integer = node.as_integer()) return static_cast<double>(integer->get());
  if (const auto* floating = node.as_floating_point()) {
    const double value = floating->get();
    if (!std::isfinite(value)) fail_at(file, node, key, "must be a finite number");
    return value;
  }
  if (const auto* text = node.as_string()) {
    try {
      return parse_quantity(text->get(), unit);
    } catch (const InputError& e) {
      fail_at(file, node, key, e.what());
    }
  }
  fail_at(file, node, key,
          "expected " + std::string(unit_expectation(unit)) + ", got " + describe_type(node));
}

std::string read_string(const std::string& file, const toml::node& node, std::string_view key) {
  if (const auto* text = node.as_string()) return text->get();
  fail_at(file, node, key, "expected a string, got " + describe_type(node));
}

bool read_bool(const std::string& file, const toml::node& node, std::string_view key) {
  if (const auto* flag = node.as_boolean()) return flag->get();
  fail_at(file, node, key, "expected true or false, got " + describe_type(node));
}

const toml::table& read_table(const std::string& file, const toml::node& node,
                              std::string_view key) {
  if (const auto* table = node.as_table()) return *table;
  fail_at(file, node, key, "expected a table, got " + describe_type(node));
}

void reject_unknown_keys(const std::string& file, const toml::table& table, std::string_view prefix,
                         std::initializer_list<std::string_view> known) {
  reject_unknown_keys(file, table, prefix, std::vector<std::string_view>(known));
}

void reject_unknown_keys(const std::string& file, const toml::table& table, std::string_view prefix,
                         const std::vector<std::string_view>& known) {
  for (const auto& [key, node] : table) {
    const std::string_view name = key.str();
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string message = "unknown key";
    const std::string_view closest = closest_key(name, known);
    if (!closest.empty()) message += " (did you mean '" + std::string(closest) + "'?)";
    std::string list;
    for (std::string_view candidate : known) {
      list += (list.empty() ? "" : ", ") + std::string(candidate);
    }
    message += "; known keys: " + list;
    fail_at(file, node, input_excerpt(join_key(prefix, name)), message);
  }
}

}  // namespace scaleopt
