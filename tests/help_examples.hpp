#pragma once
// The example command lines of a command's --help ("Examples:" then one "  scaleopt ..." per
// line), as arguments to run: a help that teaches by example must show commands that work.
// Quotes are not needed by any example and are not parsed; a '#' starts a comment.

#include <sstream>
#include <string>
#include <vector>

#include "example_path.hpp"

// Each example's arguments after "scaleopt", with "examples/NAME" turned into the source
// tree's example and any output flag's file into `output_file` (an example writes where the
// reader runs it; a test writes into its own folder).
inline std::vector<std::vector<std::string>> help_examples(const std::string& help,
                                                           const std::string& output_file) {
  std::vector<std::vector<std::string>> examples;
  std::istringstream lines(help.substr(help.find("Examples:") + 1));
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t start = line.find("scaleopt ");
    if (start == std::string::npos || line.find_first_not_of(' ') != start) continue;
    std::istringstream words(line.substr(start + 9, line.find('#') - start - 9));
    std::vector<std::string> args;
    for (std::string word; words >> word;) {
      if (word.starts_with("examples/")) word = example(word.substr(9).c_str());
      const bool output = !args.empty() && (args.back() == "--out" || args.back() == "--script");
      args.push_back(output ? output_file : word);
    }
    if (!args.empty()) examples.push_back(args);
  }
  return examples;
}
