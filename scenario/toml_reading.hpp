#pragma once
// Reading TOML (toml++) with errors a user can act on: every message names the file and line
// and the dotted key ("scenario.toml:12: training.mfu: must be in (0, 1], got 1.4"). Values may
// be TOML numbers or strings in the quantity syntax ("70B", "$2/h", "2mo").

#include <toml++/toml.h>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/quantity.hpp"

namespace scaleopt {

// A parsed document and the name it is reported under (its path, or "set" for overrides).
struct TomlDocument {
  toml::table table;
  std::string file;
};

// Reads `path` through scenario/input_file.hpp (the TOML size limit; its errors name `flag` when
// given). Throws InputError "FILE: cannot open the file (reason)" or
// "FILE:LINE:COLUMN: <toml++ description>".
TomlDocument parse_toml_file(const std::string& path, std::string_view flag = {});
TomlDocument parse_toml_text(std::string_view text, const std::string& name);

// "FILE:LINE" of a node (just FILE when the node has no position). A node parsed from another
// document (a --set override) is located in that one.
std::string location(const std::string& file, const toml::node& node);

// Throws InputError "FILE:LINE: KEY: WHAT".
[[noreturn]] void fail_at(const std::string& file, const toml::node& node, std::string_view key,
                          std::string_view what);

// A TOML number, or a string parsed as `unit`; errors name file, line and key.
double read_quantity(const std::string& file, const toml::node& node, std::string_view key,
                     Unit unit);
std::string read_string(const std::string& file, const toml::node& node, std::string_view key);
bool read_bool(const std::string& file, const toml::node& node, std::string_view key);
const toml::table& read_table(const std::string& file, const toml::node& node,
                              std::string_view key);

// Every key of `table` must be in `known`; otherwise "FILE:LINE: PREFIX.KEY: unknown key
// (did you mean 'X'?; known: a, b, c)".
void reject_unknown_keys(const std::string& file, const toml::table& table, std::string_view prefix,
                         std::initializer_list<std::string_view> known);
void reject_unknown_keys(const std::string& file, const toml::table& table, std::string_view prefix,
                         const std::vector<std::string_view>& known);

// Closest of `candidates` to `name` within an edit distance of 2, or empty ("did you mean").
std::string_view closest_key(std::string_view name,
                             const std::vector<std::string_view>& candidates);

// The entries of `table` in the order the file has them (toml++ keeps keys sorted), for
// catalogs listed as written.
std::vector<std::pair<std::string, const toml::node*>> entries_in_file_order(
    const toml::table& table);

// "prefix.key" or "key" when the prefix is empty.
std::string join_key(std::string_view prefix, std::string_view key);

}  // namespace scaleopt
