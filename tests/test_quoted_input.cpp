// Errors quote at most a few dozen characters of an input (costmodel/input_excerpt.hpp): a 2 MB
// CSV cell was quoted whole (a 2,000,227-byte line on stderr), a --set key of 60,000 parts gave a
// 120 KB line. Every kind of quoted input: CSV cells of runs and of sweep files, --set keys and
// values, scenario keys, law, chip and model names.

#include <catch2/catch.hpp>
#include <string>

#include "cli_runner.hpp"
#include "example_path.hpp"
#include "file_text.hpp"
#include "scaleopt/costmodel/input_excerpt.hpp"
#include "temp_file.hpp"

using scaleopt::input_excerpt;
using scaleopt::kMaxQuotedChars;
using scaleopt::quoted_input;

namespace {

// Longer than any message with a quoted excerpt (the longest fixed text is a list of presets).
constexpr std::size_t kLongestMessage = 600;

std::string parts(std::size_t count) {
  std::string key = "a";
  for (std::size_t i = 1; i < count; ++i) key += ".a";
  return key;
}

// A one-line error of bounded length, quoting the input's excerpt.
void check_short(const CliRun& run, const std::string& excerpt_of) {
  INFO(run.err.substr(0, 1000));
  CHECK(is_one_line_error(run));
  CHECK(run.err.size() < kLongestMessage);
  CHECK_THAT(run.err, Catch::Contains(input_excerpt(excerpt_of)));
}

}  // namespace

TEST_CASE("input_excerpt: short text whole, long text's ends around its length", "[messages]") {
  CHECK(kMaxQuotedChars == 48);
  CHECK(input_excerpt("inference.rate") == "inference.rate");
  const std::string limit(48, 'x');
  CHECK(input_excerpt(limit) == limit);
  const std::string cell = std::string(1'000'000, '1') + std::string(1'000'000, '2');
  const std::string excerpt = input_excerpt(cell);
  CHECK(excerpt == std::string(24, '1') + "..." + std::string(24, '2') + " (2000000 bytes)");
  CHECK(quoted_input(cell) == "'" + excerpt + "'");
  // A cut never splits a UTF-8 character: a two-byte character at every offset.
  for (std::size_t shift = 0; shift < 2; ++shift) {
    std::string text(shift, 'a');
    for (int i = 0; i < 100; ++i) text += "\xC3\xA9";  // é
    const std::string e = input_excerpt(text);
    const std::size_t dots = e.find("...");
    REQUIRE(dots != std::string::npos);
    // Before the dots and after them (up to " (N bytes)"): whole characters only.
    for (const std::string& piece :
         {e.substr(0, dots), e.substr(dots + 3, e.find(" (") - dots - 3)}) {
      INFO(piece);
      CHECK((piece.empty() || (static_cast<unsigned char>(piece.front()) & 0xC0) != 0x80));
      CHECK((piece.empty() || static_cast<unsigned char>(piece.back()) != 0xC3));
    }
  }
}

TEST_CASE("messages: a 2 MB cell of a runs file or a sweep file is quoted in a few dozen bytes",
          "[messages][hostile]") {
  const std::string cell = std::string(2'000'000, '7') + "x";
  const TempFile runs("quoted_runs.csv", "N,D,loss\n1e9,2e10," + cell + "\n");
  check_short(
      run_cli({"fit", runs.path(), "--params-col", "N", "--tokens-col", "D", "--loss-col", "loss"}),
      cell);
  // A sweep file for `plot sweep` whose y cell is not a number.
  const TempDir dir("quoted_sweep");
  REQUIRE(run_cli({"sweep", example("sardana_cost.toml"), "--vary",
                   "inference.requests=1e8..1e12:log:3", "--out", dir.file("s.csv")})
              .status == 0);
  std::string text = read_file(dir.file("s.csv"));
  const std::size_t row = text.find("\n1,3,");
  REQUIRE(row != std::string::npos);
  // "\n1,3,REQUESTS,PARAMS,...": the params cell.
  const std::size_t params = text.find(',', row + 5) + 1;
  text.replace(params, text.find(',', params) - params, cell);
  write_text(dir.file("s.csv"), text);
  check_short(run_cli({"plot", "sweep", dir.file("s.csv"), "--x", "inference.requests", "--y",
                       "params", "--out", dir.file("p.svg")}),
              cell);
}

TEST_CASE("messages: a --set key of 60,000 parts, and long values, keys and names",
          "[messages][hostile]") {
  const std::string scenario = example("frontier_100x.toml");
  const std::string key = parts(60'000);
  check_short(run_cli({"cost", scenario, "--set", key + "=1"}), key);
  const std::string value(100'000, 'q');
  check_short(run_cli({"cost", scenario, "--set", "inference.rate=" + value}), value);
  check_short(run_cli({"cost", scenario, "--set", "problem.min_params" + value}),
              "problem.min_params" + value);
  // Names: a law, a chip, a model, in a scenario file; and a key of one long part.
  const std::string name(200'000, 'n');
  const std::string text = read_file(scenario);
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"preset = \"epoch2024\"", "preset = \"" + name + "\""},
        {"hardware = \"h100-sxm\"", "hardware = \"" + name + "\""},
        {"preset = \"frontier-100b\"", "preset = \"" + name + "\""},
        {"mfu = 0.4 ", "\"" + name + "\" = 0.4 "}}) {
    std::string changed = text;
    REQUIRE(changed.find(from) != std::string::npos);
    changed.replace(changed.find(from), from.size(), to);
    const TempFile file("quoted_names.toml", changed);
    INFO(from);
    // An unknown key is quoted with its table: training.nnn...
    check_short(run_cli({"cost", file.path()}),
                from.starts_with("mfu") ? "training." + name : name);
  }
  check_short(run_cli({"optimal", "--compute", "1e24", "--law", name}), name);
}
