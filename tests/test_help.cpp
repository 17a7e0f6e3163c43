// Help that teaches: `--help` of every command and subcommand (and of each plot kind) exits 0,
// shows no CLI11 leftovers such as "--no-polish{false}", and names in its examples only files
// that exist in the repository or that an example before it writes.

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;

// The names listed under "Subcommands:" in a help text.
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream lines(help);
  bool in_list = false;
  for (std::string line; std::getline(lines, line);) {
    if (line == "Subcommands:") {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (line.empty()) break;
    std::istringstream words(line);
    std::string name;
    words >> name;
    names.push_back(name);
  }
  return names;
}

// The example command lines of a help text: lines starting "  scaleopt ", joined with their
// continuation lines (a trailing backslash), split into words as a shell would (quotes
// removed).
std::vector<std::vector<std::string>> example_commands(const std::string& help) {
  std::vector<std::vector<std::string>> commands;
  std::istringstream lines(help);
  std::string command;
  for (std::string line; std::getline(lines, line);) {
    if (command.empty() && !line.starts_with("  scaleopt ")) continue;
    const bool continued = !line.empty() && line.back() == '\\';
    command += continued ? line.substr(0, line.size() - 1) : line;
    if (continued) continue;
    std::vector<std::string> words;
    std::string word;
    char quote = 0;
    bool in_word = false;
    for (const char c : command) {
      if (quote) {
        if (c == quote) {
          quote = 0;
        } else {
          word += c;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        in_word = true;
      } else if (c == ' ') {
        if (in_word) words.push_back(word);
        word.clear();
        in_word = false;
      } else {
        word += c;
        in_word = true;
      }
    }
    if (in_word) words.push_back(word);
    commands.push_back(words);
    command.clear();
  }
  return commands;
}

bool names_a_file(const std::string& word) {
  for (const char* extension : {".toml", ".csv", ".svg", ".png", ".html", ".json", ".gp"}) {
    if (word.ends_with(extension)) return true;
  }
  return false;
}

// Flags whose value a command writes (so an example may name a file that does not exist yet).
bool writes(const std::string& flag) {
  return flag == "--out" || flag == "-o" || flag == "--emit-law" || flag == "--script";
}

struct Help {
  std::string command;  // "pricing curve", "plot tornado"
  CliRun run;
};

std::vector<Help> every_help() {
  std::vector<Help> helps;
  std::vector<std::vector<std::string>> todo{{}};
  while (!todo.empty()) {
    const std::vector<std::string> path = todo.back();
    todo.pop_back();
    std::vector<std::string> args = path;
    args.push_back("--help");
    std::string name;
    for (const std::string& word : path) name += (name.empty() ? "" : " ") + word;
    Help help{name, run_cli(args)};
    for (const std::string& sub : subcommands(help.run.out)) {
      std::vector<std::string> deeper = path;
      deeper.push_back(sub);
      todo.push_back(deeper);
    }
    helps.push_back(std::move(help));
  }
  for (const std::string kind : {"isoloss", "cost-vs-context", "cost-vs-context-models", "phases",
                                 "sweep", "tornado", "uncertainty", "rl-shares"}) {
    helps.push_back({"plot " + kind, run_cli({"plot", kind, "--help"})});
  }
  return helps;
}

}  // namespace

TEST_CASE("--help of every command teaches: exit 0, no leftovers, examples name real files",
          "[cli][help]") {
  const std::vector<Help> helps = every_help();
  std::set<std::string> seen;
  for (const Help& help : helps) seen.insert(help.command);
  // The walk found every command and pricing subcommand.
  for (const char* command : {"",
                              "laws",
                              "optimal",
                              "loss",
                              "hardware",
                              "models",
                              "roofline",
                              "cost",
                              "solve",
                              "fit",
                              "pricing",
                              "pricing curve",
                              "pricing infer-kv",
                              "pricing ratio",
                              "pricing cache",
                              "pricing long-context",
                              "sweep",
                              "merge",
                              "sensitivity",
                              "uncertainty",
                              "plot",
                              "report",
                              "selftest"}) {
    CHECK(seen.count(command) == 1);
  }
  for (const Help& help : helps) {
    INFO("scaleopt " << help.command << " --help\n" << help.run.out);
    CHECK(help.run.status == 0);
    CHECK(help.run.err.empty());
    CHECK_FALSE(help.run.out.empty());
    CHECK_THAT(help.run.out, !Catch::Contains("{false}") && !Catch::Contains("{true}"));
    CHECK_THAT(help.run.out, !Catch::Contains("DESIGN"
                                              ".md"));
    // Files the examples read exist in the repository, or an example before writes them.
    std::set<std::string> written;
    for (const std::vector<std::string>& words : example_commands(help.run.out)) {
      for (std::size_t i = 1; i < words.size(); ++i) {
        if (!names_a_file(words[i])) continue;
        if (writes(words[i - 1])) {
          written.insert(words[i]);
          continue;
        }
        INFO("example file " << words[i]);
        CHECK(
            (written.count(words[i]) == 1 || fs::exists(fs::path(SCALEOPT_SOURCE_DIR) / words[i])));
      }
    }
  }
}

TEST_CASE("plot KIND --help shows that kind's help", "[cli][help][plot]") {
  const CliRun tornado = run_cli({"plot", "tornado", "--help"});
  REQUIRE(tornado.status == 0);
  CHECK_THAT(tornado.out, Catch::Contains("plot tornado: ") && Catch::Contains("--rank-by"));
  CHECK_THAT(tornado.out, !Catch::Contains("--samples") && !Catch::Contains("--series"));
  const CliRun uncertainty = run_cli({"plot", "uncertainty", "--help"});
  CHECK_THAT(uncertainty.out, Catch::Contains("plot uncertainty: ") &&
                                  Catch::Contains("--samples") && !Catch::Contains("--rank-by"));
  // Without a kind, every kind and every option.
  const CliRun all = run_cli({"plot", "--help"});
  CHECK_THAT(all.out, Catch::Contains("--rank-by") && Catch::Contains("--samples") &&
                          Catch::Contains("--series"));
}

TEST_CASE("help gives units and marks what is required", "[cli][help]") {
  const CliRun optimal = run_cli({"optimal", "--help"});
  CHECK_THAT(optimal.out, Catch::Contains("Target loss in nats per token"));
  CHECK_THAT(optimal.out, Catch::Contains("--starts COUNT:1 to 100"));
  const CliRun fit = run_cli({"fit", "--help"});
  CHECK_THAT(fit.out, Catch::Contains("--params-col NAME REQUIRED") &&
                          Catch::Contains("--loss-col NAME REQUIRED") &&
                          Catch::Contains("(nats per token)"));
  const CliRun roofline = run_cli({"roofline", "--help"});
  CHECK_THAT(roofline.out,
             Catch::Contains("--hardware ID REQUIRED") && Catch::Contains("USD per chip-hour"));
  const CliRun sweep = run_cli({"sweep", "--help"});
  CHECK_THAT(sweep.out, Catch::Contains("--vary PATH=LO..HI ... REQUIRED"));
}
