// The nesting bound of TOML documents (scenario/toml_nesting.hpp): keys of tens of thousands of
// parts overflowed toml++'s stack; every front end now refuses them in one line naming the file
// and line, and the scan counts only TOML's real nesting (never dots or brackets in strings,
// quoted keys or comments).

#include <catch2/catch.hpp>
#include <string>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/law_file.hpp"
#include "scaleopt/scenario/toml_nesting.hpp"
#include "scenario_error.hpp"
#include "temp_file.hpp"

using scaleopt::check_toml_nesting;
using scaleopt::kMaxTomlDepth;

namespace {

// "a.a.a...", `parts` parts.
std::string dotted(std::size_t parts, const std::string& part = "a") {
  std::string key = part;
  for (std::size_t i = 1; i < parts; ++i) key += "." + part;
  return key;
}

std::string repeated(const std::string& text, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += text;
  return out;
}

// The message check_toml_nesting refuses `text` with, or "ok".
std::string nesting_error(const std::string& text) {
  try {
    check_toml_nesting(text, "d.toml");
  } catch (const scaleopt::InputError& e) {
    return e.what();
  }
  return "ok";
}

bool refused_at(const std::string& text, int line) {
  const std::string message = nesting_error(text);
  INFO(message);
  return message.starts_with("d.toml:" + std::to_string(line) + ": nested more than 64 levels");
}

// 35,000 parts: the 70 KB files that killed every front end.
const std::string kDeepHeader = "[" + dotted(35'000) + "]\nx = 1\n";
const std::string kDeepKey = "# a comment\n" + dotted(35'000) + " = 1\n";

}  // namespace

TEST_CASE("nesting: 64 levels pass, 65 are refused with the file and line", "[toml][hostile]") {
  CHECK(kMaxTomlDepth == 64);
  CHECK(nesting_error("[" + dotted(64) + "]\n") == "ok");
  CHECK(refused_at("[" + dotted(65) + "]\n", 1));
  CHECK(nesting_error(dotted(64) + " = 1\n") == "ok");
  CHECK(refused_at("\n\n" + dotted(65) + " = 1\n", 3));
  // A header's parts and its keys' count together.
  CHECK(nesting_error("[" + dotted(32) + "]\n" + dotted(32) + " = 1\n") == "ok");
  CHECK(refused_at("[" + dotted(32) + "]\n" + dotted(33) + " = 1\n", 2));
  CHECK(refused_at("[[" + dotted(65) + "]]\n", 1));
  CHECK(refused_at(kDeepHeader, 1));
  CHECK(refused_at(kDeepKey, 2));
}

TEST_CASE("nesting: inline tables and arrays count as levels", "[toml][hostile]") {
  // x = {a = {a = ... {a = 1}}}: the key x and 63 inline tables' keys.
  CHECK(nesting_error("x = " + repeated("{a = ", 63) + "1" + repeated("}", 63) + "\n") == "ok");
  CHECK(refused_at("x = " + repeated("{a = ", 64) + "1" + repeated("}", 64) + "\n", 1));
  // Dotted keys inside an inline table add their parts.
  CHECK(refused_at("x = {" + dotted(64) + " = 1}\n", 1));
  CHECK(nesting_error("x = " + repeated("[", 63) + "1" + repeated("]", 63) + "\n") == "ok");
  CHECK(refused_at("x = " + repeated("[", 64) + "1" + repeated("]", 64) + "\n", 1));
  // 10^5 nested arrays (toml++ refuses those itself, but the scan must not recurse on them).
  CHECK(refused_at("x = " + repeated("[", 100'000) + "\n", 1));
  // Arrays over lines, with comments, and arrays of inline tables.
  CHECK(refused_at("x = [\n  # [[[[\n  1,\n" + repeated("[", 64) + "\n", 4));
  CHECK(nesting_error("x = [ {a.b = [1, 2]}, {c = 'd'} ]\n") == "ok");
}

TEST_CASE("nesting: dots and brackets in strings, quoted keys and comments do not count",
          "[toml][hostile]") {
  const std::string many_dots = dotted(5'000);
  // Quoted keys are one part each, whatever they hold.
  CHECK(nesting_error("\"" + many_dots + "\" = 1\n") == "ok");
  CHECK(nesting_error("'" + many_dots + "' = 1\n") == "ok");
  CHECK(nesting_error("[\"" + many_dots + "\".b]\nc = 1\n") == "ok");
  CHECK(nesting_error("[a . \"b.c\" . 'd.e']\nf = 1\n") == "ok");
  // Escapes in quoted keys: \" does not end the key.
  CHECK(nesting_error("\"a\\\".b" + many_dots + "\" = 1\n") == "ok");
  // Strings of every kind, holding dots, brackets, braces, quotes and '#'.
  CHECK(nesting_error("a = \"" + many_dots + " [[[ {{{ # \"\n") == "ok");
  CHECK(nesting_error("a = '" + many_dots + " [[[ '\n") == "ok");
  CHECK(nesting_error("a = \"\"\"\n" + many_dots + "\n[[[[ {{ \"\" \\\"\"\" \n\"\"\"\nb = 1\n") ==
        "ok");
  CHECK(nesting_error("a = '''\n" + many_dots + "\n[[[ '' \n'''\nb = 1\n") == "ok");
  // Up to two quotes after the closing ones belong to the string.
  CHECK(nesting_error("a = \"\"\"x\"\"\"\"\"\nb = 1\n") == "ok");
  CHECK(nesting_error("# " + many_dots + " [[[[\nb = 1 # " + many_dots + "\n") == "ok");
  CHECK(nesting_error("a = [\"" + many_dots + "\", '" + many_dots + "']\n") == "ok");
  // Numbers and dates with dots.
  CHECK(nesting_error("a = 3.14\nb = 1979-05-27 07:32:00.999\nc = -1.5e-3\n") == "ok");
  // A deep key after such a string is still found, on its own line.
  CHECK(refused_at("a = \"\"\"\n" + many_dots + "\n\"\"\"\n" + dotted(65) + " = 1\n", 4));
  CHECK(refused_at("x = 'a.b' # c.d\n[" + dotted(65) + "]\n", 2));
}

TEST_CASE("nesting: text that is not TOML is left to toml++'s own message", "[toml][hostile]") {
  CHECK(nesting_error("[a.b\n") == "ok");
  CHECK(nesting_error("a = \"unclosed\n") == "ok");
  CHECK(nesting_error("= 1\n") == "ok");
  CHECK(nesting_error("") == "ok");
  CHECK(nesting_error("\xEF\xBB\xBF"
                      "a = 1\n") == "ok");
  // What toml++ then says, through the loader: the file and line of its own error.
  CHECK_THAT(error_of("[a.b\nc = 1\n"), Catch::StartsWith("s.toml:1:"));
}

TEST_CASE("nesting: every reader of TOML refuses a deep key in one line, never crashes",
          "[toml][hostile][cli]") {
  // A scenario (cost, solve), a law file, and --set.
  CHECK_THAT(error_of(kDeepHeader), Catch::StartsWith("s.toml:1: nested more than 64 levels"));
  CHECK_THAT(error_of(kDeepKey), Catch::StartsWith("s.toml:2: nested more than 64 levels"));
  const TempFile scenario("deep_header.toml", kDeepHeader);
  for (const char* command : {"cost", "solve"}) {
    const CliRun run = run_cli({command, scenario.path()});
    INFO(command << ": " << run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(scenario.path() + ":1: nested more than 64 levels"));
    CHECK(run.err.size() < 300);
  }
  const TempFile law("deep_law.toml", "[law]\n" + dotted(35'000) + " = 1\n");
  const CliRun optimal = run_cli({"optimal", "--compute", "1e24", "--law-file", law.path()});
  INFO(optimal.err);
  CHECK(is_one_line_error(optimal));
  CHECK_THAT(optimal.err, Catch::Contains(law.path() + ":2: nested more than 64 levels"));
}
