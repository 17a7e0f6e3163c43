#pragma once
// Files and CSV lines as text, for the tests that write inputs and read what a command wrote.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

inline std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
}

// The cells of one CSV line (no quoting in what the tests split); a trailing separator is an
// empty last cell, as in the file.
inline std::vector<std::string> split(const std::string& line, char sep = ',') {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  for (std::string cell; std::getline(stream, cell, sep);) cells.push_back(cell);
  if (!line.empty() && line.back() == sep) cells.push_back("");
  return cells;
}
