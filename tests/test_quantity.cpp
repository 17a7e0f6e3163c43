// The quantity parser: every form the issue names, and a clear error for everything else.

#include <catch2/catch.hpp>
#include <cmath>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"

using namespace scaleopt;

namespace {

// Decimal literals like 1.7e3 are the nearest doubles to the exact values; parsing "1.7" and
// multiplying by 1e3 may differ from them by one rounding, hence 2 ulps of relative slack.
constexpr double kTwoUlps = 4.5e-16;

void check_parse(const char* text, Unit unit, double expected) {
  INFO(text);
  CHECK(parse_quantity(text, unit) == Approx(expected).epsilon(kTwoUlps));
}

}  // namespace

TEST_CASE("counts take decimal multipliers, B meaning billion", "[quantity]") {
  check_parse("70B", Unit::count, 70e9);
  check_parse("2T", Unit::count, 2e12);
  check_parse("1.5e12", Unit::count, 1.5e12);
  check_parse("200K", Unit::count, 200e3);
  check_parse("200k", Unit::count, 200e3);
  check_parse("50M", Unit::count, 50e6);
  check_parse("1G", Unit::count, 1e9);
  check_parse("3P", Unit::count, 3e15);
  check_parse(" 42 ", Unit::count, 42.0);
}

TEST_CASE("bytes, bandwidths and FLOP rates", "[quantity]") {
  check_parse("1.7KB", Unit::bytes, 1700.0);
  check_parse("80GB", Unit::bytes, 80e9);
  check_parse("1KiB", Unit::bytes, 1024.0);
  check_parse("1677", Unit::bytes, 1677.0);
  check_parse("3.35TB/s", Unit::bytes_per_second, 3.35e12);
  check_parse("900GB/s", Unit::bytes_per_second, 900e9);
  check_parse("989T", Unit::flop_per_second, 989e12);
  check_parse("989TFLOP/s", Unit::flop_per_second, 989e12);
  check_parse("1.979e15", Unit::flop_per_second, 1.979e15);
}

TEST_CASE("prices, rates and durations convert to per hour, per second and seconds", "[quantity]") {
  check_parse("$2/h", Unit::usd_per_hour, 2.0);
  check_parse("$1.40/hour", Unit::usd_per_hour, 1.4);
  check_parse("$48/d", Unit::usd_per_hour, 2.0);
  check_parse("$2/GPU-h", Unit::usd_per_hour, 2.0);
  check_parse("$100M", Unit::usd, 100e6);
  check_parse("50M/s", Unit::per_second, 50e6);
  check_parse("3.6B/h", Unit::per_second, 1e6);
  check_parse("60d", Unit::seconds, 60 * 86400.0);
  check_parse("5m", Unit::seconds, 300.0);
  check_parse("12h", Unit::seconds, 43200.0);
  check_parse("1y", Unit::seconds, 365.25 * 86400.0);
  check_parse("2mo", Unit::seconds, 2 * 365.25 * 86400.0 / 12.0);
  check_parse("40%", Unit::number, 0.4);
  check_parse("0.5", Unit::number, 0.5);
}

TEST_CASE("the talk's demand: 50M tokens/s for two months is ~2.6e14 tokens", "[quantity]") {
  const double tokens =
      parse_quantity("50M/s", Unit::per_second) * parse_quantity("2mo", Unit::seconds);
  // 5e7 * 2 * 365.25 * 86400 / 12 = 2.6298e14 exactly (the talk: "~2-2.6e14"; docs/model.md,
  // Lifecycle cost).
  CHECK(tokens == Approx(2.62980e14).epsilon(1e-15));
}

TEST_CASE("a bad token is quoted and the expected form is named", "[quantity]") {
  const auto message_of = [](const char* text, Unit unit) {
    try {
      parse_quantity(text, unit);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message_of("70X", Unit::count), Catch::Contains("'70X'") &&
                                                 Catch::Contains("unknown suffix 'X'") &&
                                                 Catch::Contains("e.g. 70B"));
  CHECK_THAT(message_of("", Unit::count), Catch::Contains("empty"));
  CHECK_THAT(message_of("nan", Unit::count), Catch::Contains("not a finite number"));
  CHECK_THAT(message_of("inf", Unit::count), Catch::Contains("not a finite number"));
  CHECK_THAT(message_of("1e999", Unit::count), Catch::Contains("out of range"));
  CHECK_THAT(message_of("1e300P", Unit::count), Catch::Contains("out of range"));
  CHECK_THAT(message_of("$5", Unit::count), Catch::Contains("'$' is for prices"));
  CHECK_THAT(message_of("abc", Unit::count), Catch::Contains("'abc'"));
  CHECK_THAT(message_of("3.35TB", Unit::bytes_per_second), Catch::Contains("3.35TB/s"));
  CHECK_THAT(message_of("2 fortnights", Unit::seconds), Catch::Contains("duration"));
  CHECK_THAT(message_of("5B", Unit::flop_per_second), Catch::Contains("FLOP rate"));
  CHECK_THAT(message_of("0x10", Unit::count), Catch::Contains("unknown suffix 'x10'"));
}

TEST_CASE("numbers print in both forms: 2.42e10 and 24.2B", "[quantity]") {
  CHECK(format_scientific(2.4179e10) == "2.42e10");
  CHECK(format_scientific(2.657e12, 4) == "2.657e12");
  CHECK(format_scientific(1.5e-7) == "1.5e-7");
  CHECK(format_scientific(12.345) == "12.3");
  CHECK(format_quantity(2.4179e10, Unit::count) == "24.2B");
  CHECK(format_quantity(2.6e14, Unit::count) == "260T");
  CHECK(format_quantity(1693.0, Unit::bytes) == "1.69KB");
  CHECK(format_quantity(3.35e12, Unit::bytes_per_second) == "3.35TB/s");
  CHECK(format_quantity(2.0, Unit::usd_per_hour) == "$2/h");
  CHECK(format_quantity(1.234e8, Unit::usd) == "$123M");
  CHECK(format_quantity(5e7, Unit::per_second) == "50M/s");
  CHECK(format_quantity(60 * 86400.0, Unit::seconds) == "60d");
  CHECK(format_quantity(999.96e9, Unit::count) == "1e12");  // rounding crosses a multiplier
}

TEST_CASE("what is printed parses back to the same value at the printed precision", "[quantity]") {
  const Unit units[] = {Unit::count,        Unit::bytes,      Unit::bytes_per_second, Unit::usd,
                        Unit::usd_per_hour, Unit::per_second, Unit::seconds,          Unit::watts};
  for (Unit unit : units) {
    for (double value : {3.0, 1234.5, 2.4179e10, 7.7e13, 4.2e16}) {
      const std::string text = format_quantity(value, unit, 6);
      INFO(text);
      // 6 significant digits: relative rounding error at most 5e-6.
      CHECK(parse_quantity(text, unit) == Approx(value).epsilon(5e-6));
    }
  }
}

TEST_CASE("power reads in watts with W, kW, MW and GW", "[quantity]") {
  // Decimal multipliers, as every other unit: 0.7 kW = 700 W, 100 MW = 1e8 W.
  CHECK(parse_quantity("700W", Unit::watts) == 700.0);
  CHECK(parse_quantity("700", Unit::watts) == 700.0);
  CHECK(parse_quantity("0.7kW", Unit::watts) == Approx(700.0).epsilon(1e-15));
  CHECK(parse_quantity("100MW", Unit::watts) == 1e8);
  CHECK(parse_quantity("1.5GW", Unit::watts) == 1.5e9);
  // A multiplier without W is refused: "100M" could mean megawatts or a hundred million watts.
  CHECK_THROWS_AS(parse_quantity("100M", Unit::watts), InputError);
  CHECK_THROWS_AS(parse_quantity("700 J", Unit::watts), InputError);
  CHECK(format_quantity(700.0, Unit::watts) == "700W");
  CHECK(format_quantity(1.2e8, Unit::watts) == "120MW");
}
