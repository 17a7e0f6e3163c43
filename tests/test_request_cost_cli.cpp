// The cost of one request (roofline and pricing curve, --input-tokens and --output-tokens)
// against hand arithmetic: a dense 100B model decoding one sequence at a time on 8 H100s, where
// every step is memory-bound and its time is linear in the context.

#include <catch2/catch.hpp>
#include <cmath>

#include "cli_runner.hpp"
#include "example_path.hpp"

namespace {

// The datasheet numbers (costmodel/data/hardware.toml; NVIDIA's H100 SXM datasheet) and the
// preset's (frontier-100b: 100B dense parameters, 1.7 KB of KV per token).
constexpr double kChips = 8;
constexpr double kFlopPerSecond = kChips * 989e12;     // bf16 dense
constexpr double kBytesPerSecond = kChips * 3.35e12;   // HBM3
constexpr double kUsdPerSecond = kChips * 2.0 / 3600;  // $2 per chip-hour
constexpr double kParams = 100e9;
constexpr double kWeightBytes = 2 * kParams;  // bf16
constexpr double kKvBytesPerToken = 1.7e3;

// A batch of one without attention FLOPs: each decode step reads the weights and the context's
// KV; the prompt is prefilled in one compute-bound pass of 2 N FLOPs per token.
const std::vector<std::string> kReplica = {"--hardware",    "h100-sxm", "--model",
                                           "frontier-100b", "--chips",  "8",
                                           "--batch",       "1",        "--no-attention-flops"};

// sum_{k=0}^{O-1} (weights + kv (I + k)) / W x price: O weight reads and the KV of contexts
// I .. I + O - 1, an arithmetic series.
double hand_decode_usd(double input, double output) {
  const double kv_tokens = output * input + output * (output - 1) / 2;
  return (output * kWeightBytes + kKvBytesPerToken * kv_tokens) / kBytesPerSecond * kUsdPerSecond;
}

double hand_prefill_usd(double input) {
  // compute 2 N I / F = 25.3 ms against memory (weights + 2 KV I) / W = 7.5 ms: compute-bound.
  return 2 * kParams * input / kFlopPerSecond * kUsdPerSecond;
}

}  // namespace

TEST_CASE("roofline --input-tokens --output-tokens: one request against hand arithmetic",
          "[roofline][request]") {
  // 500 output tokens are summed token by token; 100,000 are integrated over the context, which
  // is exact for a cost linear in the context up to rounding (1e-12 of the integral's estimate).
  for (const double output : {500.0, 100000.0}) {
    const CliRun json = run_cli(
        with(with({"roofline"}, kReplica), {"--input-tokens", "1000", "--output-tokens",
                                            std::to_string(static_cast<long>(output)), "--json"}));
    INFO(json.err);
    REQUIRE(json.status == 0);
    const auto j = json.json();
    const double decode = hand_decode_usd(1000, output);
    const double prefill = hand_prefill_usd(1000);
    // Summed in double: 1e-12 for 500 terms; the integral's own tolerance is 1e-12 as well.
    CHECK(j["request"]["decode_usd"].get<double>() == Approx(decode).epsilon(1e-11));
    CHECK(j["request"]["prefill_usd"].get<double>() == Approx(prefill).epsilon(1e-12));
    CHECK(j["request_usd"].get<double>() == Approx(decode + prefill).epsilon(1e-11));
    CHECK(j["request"]["first_output_token_usd"].get<double>() ==
          Approx(hand_decode_usd(1000, 1)).epsilon(1e-12));
    CHECK(j["request"]["last_output_token_usd"].get<double>() ==
          Approx(hand_decode_usd(1000 + output - 1, 1)).epsilon(1e-12));
    CHECK(j["request"]["method"] ==
          (output == 500 ? "every output token"
                         : "Gauss-Kronrod over the context (midpoint rule of the sum)"));
  }
  const CliRun text = run_cli(
      with(with({"roofline"}, kReplica), {"--input-tokens", "1000", "--output-tokens", "500"}));
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("One request of 1K input and 500 output tokens: ") &&
                           Catch::Contains("output tokens at contexts 1K to 1.499K"));
}

TEST_CASE("one request at the best batch: each output token at its own context",
          "[roofline][request]") {
  // At the best batch the cost per output token is the roofline's at that context: three output
  // tokens cost what three roofline runs at contexts 2000, 2001 and 2002 say.
  const std::vector<std::string> replica = {"roofline", "--hardware", "h100-sxm", "--model",
                                            "llama3-70b"};
  const CliRun run =
      run_cli(with(replica, {"--input-tokens", "2000", "--output-tokens", "3", "--json"}));
  INFO(run.err);
  REQUIRE(run.status == 0);
  double sum = 0.0;
  for (const char* context : {"2000", "2001", "2002"}) {
    const CliRun at = run_cli(with(replica, {"--context", context, "--json"}));
    REQUIRE(at.status == 0);
    sum += at.json()["usd_per_mtok_output"].get<double>() / 1e6;
  }
  const CliRun prompt = run_cli(with(replica, {"--context", "2000", "--json"}));
  const double prefill = 2000 * prompt.json()["usd_per_mtok_input"].get<double>() / 1e6;
  const auto j = run.json();
  CHECK(j["request"]["decode_usd"].get<double>() == Approx(sum).epsilon(1e-14));
  CHECK(j["request_usd"].get<double>() == Approx(sum + prefill).epsilon(1e-14));
}

TEST_CASE("pricing curve prices one request as roofline does", "[pricing][request]") {
  const std::vector<std::string> request = {"--input-tokens", "1000", "--output-tokens", "500",
                                            "--json"};
  const CliRun curve =
      run_cli(with(with(with({"pricing", "curve"}, kReplica), {"--context", "8K"}), request));
  INFO(curve.err);
  REQUIRE(curve.status == 0);
  CHECK(curve.json()["request_usd"].get<double>() ==
        Approx(hand_decode_usd(1000, 500) + hand_prefill_usd(1000)).epsilon(1e-11));
  // From a scenario: its replica and prices (the text form names the request).
  const CliRun scenario = run_cli({"pricing", "curve", example("gemini_200k.toml"),
                                   "--input-tokens", "150K", "--output-tokens", "2K"});
  INFO(scenario.err);
  REQUIRE(scenario.status == 0);
  CHECK_THAT(scenario.out, Catch::Contains("One request of 150K input and 2K output tokens"));
}

TEST_CASE("a request the flags do not describe is refused in one line", "[roofline][request]") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--input-tokens", "1000"}, "--input-tokens: give --input-tokens and --output-tokens"},
      {{"--output-tokens", "10"}, "--output-tokens: give --input-tokens and --output-tokens"},
      {{"--input-tokens", "0", "--output-tokens", "10"}, "--input-tokens: a whole number"},
      {{"--input-tokens", "10", "--output-tokens", "2.5"}, "--output-tokens: a whole number"},
      // 440 GB free after the weights hold 259M tokens of one sequence at 1.7 KB each.
      {{"--input-tokens", "1000", "--output-tokens", "300M"},
       "--output-tokens: the request reaches a context of"},
  };
  for (const auto& [flags, expected] : cases) {
    const CliRun run = run_cli(with(with({"roofline"}, kReplica), flags));
    INFO(run.err);
    CHECK(is_one_line_error(run));
    CHECK_THAT(run.err, Catch::Contains(expected));
  }
}
