// Quantities print as they parse: every default shown in --help and in docs/scenario.md reads
// back (costmodel/quantity.hpp) to the value the program uses. Token counts are decimal
// ("8K" is 8000); the binary multipliers are their own suffixes ("8Ki" is 8192).

#include <catch2/catch.hpp>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/serving_setup.hpp"
#include "scaleopt/scenario/scenario.hpp"
#include "scaleopt/scenario/scenario_keys.hpp"

using namespace scaleopt;
using namespace scaleopt::cli;

namespace {

// The first word of a default ("8K (assumed)" -> "8K"), or "" when it starts with a letter
// (text such as "none" or "the chip's catalog price").
std::string leading_quantity(std::string_view text) {
  const std::string word(text.substr(0, text.find(' ')));
  if (word.empty() || !(std::isdigit(static_cast<unsigned char>(word[0])) || word[0] == '$')) {
    return {};
  }
  return word;
}

}  // namespace

TEST_CASE("counts: decimal multipliers, and binary ones by their own suffix", "[quantity]") {
  CHECK(parse_quantity("8K", Unit::count) == 8000.0);
  CHECK(parse_quantity("8Ki", Unit::count) == 8192.0);
  CHECK(parse_quantity("1Mi", Unit::count) == 1048576.0);
  CHECK(parse_quantity("2Gi", Unit::count) == 2147483648.0);
  CHECK(parse_quantity("1Ti", Unit::count) == 1099511627776.0);
  CHECK_THROWS_AS(parse_quantity("8Ki", Unit::usd), InputError);  // counts only
  CHECK_THROWS_AS(parse_quantity("8ki", Unit::count), InputError);
  // Plain numbers may be fractions (problem.shares default to 1/3), divided exactly.
  CHECK(parse_quantity("1/3", Unit::number) == 1.0 / 3.0);
  CHECK(parse_quantity("2/3", Unit::number) == 2.0 / 3.0);
  for (const char* bad : {"1/0", "1/", "1/-3", "1/x", "1/3%"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_quantity(bad, Unit::number), InputError);
  }
  CHECK_THROWS_AS(parse_quantity("1/3", Unit::count), InputError);
  // Echoes read back exactly, in the shortest form.
  for (double value : {8000.0, 8192.0, 1e6, 1048576.0, 200e3, 1234567.0, 0.0, 7.0, 2.5e12, 131072.0,
                       1e-3, 123456789012.0}) {
    INFO(value);
    const std::string text = format_exact_count(value);
    CHECK(parse_quantity(text, Unit::count) == value);
  }
  CHECK(format_exact_count(8000) == "8K");
  CHECK(format_exact_count(8192) == "8Ki");
  CHECK(format_exact_count(1048576) == "1Mi");
  CHECK(format_exact_count(1e6) == "1M");
  CHECK(format_exact_count(1234567) == "1234567");
  CHECK(format_exact_count(200e3) == "200K");
  CHECK(format_exact_count(100e3) == "100K");
  CHECK(parse_quantity(format_exact_count(1.5e30), Unit::count) == 1.5e30);  // past every suffix
}

TEST_CASE("every default of docs/scenario.md parses back to the value used", "[scenario][docs]") {
  // The registry is what docs/scenario.md prints (test_scenario.cpp checks the table); a
  // scenario that sets nothing holds the defaults.
  const Scenario defaults = load_scenario_text(
      "[architecture]\ntotal_params = \"1B\"\nkv_bytes_per_token = 1000\n", "defaults.toml");
  int checked = 0;
  for (const ScenarioKey& key : scenario_keys()) {
    if (key.kind != KeyKind::number || !key.get) continue;
    const std::string text = leading_quantity(key.default_text);
    const std::optional<double> used = key.get(defaults);
    if (text.empty() || !used) continue;
    INFO(key.path << ": default shown as '" << key.default_text << "'");
    CHECK(parse_quantity(text, key.unit) == *used);
    ++checked;
  }
  // Those with a numeric default: training.mfu, inference.chips, inference.context, the
  // efficiencies, rl.trained_fraction, rl.extra_forward_passes, ...: enough that a wrong one
  // (inference.context shown as 8K while 8192 was used) is caught.
  CHECK(checked >= 8);
  CHECK(defaults.serving.context_tokens == 8000.0);
  CHECK(ServingSetup{}.context_tokens == parse_quantity("8K", Unit::count));
}

TEST_CASE("every default shown in --help parses, and the context defaults are the ones used",
          "[cli][docs]") {
  // "  --context COUNT=8K (assumed)": an option, its type and its default.
  const std::regex option(R"(--[a-z0-9-]+ (COUNT|NUMBER|DURATION|USD/H|RANGE)=([^\n]+))");
  const std::vector<std::vector<std::string>> commands{{"roofline"},
                                                       {"pricing", "curve"},
                                                       {"pricing", "ratio"},
                                                       {"pricing", "cache"},
                                                       {"pricing", "long-context"},
                                                       {"pricing", "infer-kv"},
                                                       {"cost"},
                                                       {"optimal"},
                                                       {"plot"}};
  int checked = 0;
  for (std::vector<std::string> command : commands) {
    command.push_back("--help");
    const CliRun help = run_cli(command);
    REQUIRE(help.status == 0);
    for (std::sregex_iterator it(help.out.begin(), help.out.end(), option), end; it != end; ++it) {
      const std::string type = (*it)[1], shown = (*it)[2];
      const std::string text = leading_quantity(shown);
      if (text.empty()) continue;
      INFO(command[0] << ": " << it->str());
      const Unit unit = type == "DURATION" ? Unit::seconds
                        : type == "USD/H"  ? Unit::usd_per_hour
                        : type == "NUMBER" ? Unit::number
                                           : Unit::count;
      if (type == "RANGE") {
        const std::size_t dots = text.find("..");
        REQUIRE(dots != std::string::npos);
        CHECK_NOTHROW(parse_quantity(text.substr(0, dots), unit));
        CHECK_NOTHROW(parse_quantity(text.substr(dots + 2), unit));
      } else if (text.back() == '%') {
        CHECK_NOTHROW(parse_quantity(text, Unit::number));
      } else {
        CHECK_NOTHROW(parse_quantity(text, unit));
      }
      ++checked;
    }
  }
  CHECK(checked >= 8);

  // An echo of input reads back: a context of 2^20 tokens is titled "1Mi", not "1.049M".
  const CliRun echo =
      run_cli({"roofline", "--hardware", "h200", "--model", "llama3-70b", "--context", "1Mi"});
  REQUIRE(echo.status == 0);
  CHECK_THAT(echo.out, Catch::Contains("context 1Mi tokens"));

  // The values used without the flag are the ones shown.
  const auto roofline =
      run_cli({"roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--json"}).json();
  CHECK(roofline["context"].get<double>() == parse_quantity("8K", Unit::count));
  const auto ratio =
      run_cli({"pricing", "ratio", "--hardware", "h100-sxm", "--model", "llama3-70b", "--json"})
          .json();
  CHECK(ratio["context"].get<double>() == parse_quantity("8K", Unit::count));
  const auto long_context = run_cli({"pricing", "long-context", "--json"}).json();
  CHECK(long_context["reference_context"].get<double>() == parse_quantity("8K", Unit::count));
  CHECK(long_context["long_context"].get<double>() == parse_quantity("1M", Unit::count));
  const auto curve =
      run_cli({"pricing", "curve", "--hardware", "h200", "--model", "deepseek-v3", "--json"})
          .json();
  CHECK(curve["points"].front()["context"].get<double>() == parse_quantity("1K", Unit::count));
  CHECK(curve["points"].back()["context"].get<double>() == parse_quantity("1M", Unit::count));
}
