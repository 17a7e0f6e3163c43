// The hardware catalog (costmodel/data/hardware.toml, embedded): the datasheets'
// figures (docs/model.md, Hardware), dense (no 2:4 sparsity), a source for every chip, prices only
// as assumptions.

#include <catch2/catch.hpp>
#include <map>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/toml_reading.hpp"
#include "scaleopt/scenario/toml_tables.hpp"

using namespace scaleopt;
using namespace scaleopt::cli;

namespace {

// docs/model.md's Hardware table, typed in from the datasheets: bf16 and fp8 TFLOP/s (0: none), HBM
// TB/s, GB.
struct DesignRow {
  double bf16_tflops, fp8_tflops, hbm_tb_per_s, hbm_gb;
};
const std::map<std::string, DesignRow> kDesignTable{
    {"a100-80g", {312, 0, 2.039, 80}},  {"h100-sxm", {989, 1979, 3.35, 80}},
    {"h800", {989, 1979, 3.35, 80}},  // secondary sources: the H100 SXM's compute and memory
    {"h200", {989, 1979, 4.8, 141}},    {"b200", {2250, 4500, 8.0, 180}},
    {"mi300x", {1307, 2615, 5.3, 192}}, {"tpu-v5e", {197, 0, 0.819, 16}},
    {"tpu-v5p", {459, 0, 2.765, 95}},
};
// int8 where the datasheet lists it for chips without fp8.
const std::map<std::string, double> kDesignInt8Tops{
    {"a100-80g", 624}, {"tpu-v5e", 394}, {"tpu-v5p", 918}};

}  // namespace

TEST_CASE("the catalog holds every datasheet chip with its dense peaks", "[hardware]") {
  const auto chips = builtin_hardware();
  for (const auto& [id, row] : kDesignTable) {
    INFO(id);
    const Hardware& chip = find_hardware(chips, id);
    // The catalog stores the datasheets' figures (mi300x's datasheet 1,307.4 and 2,614.9 rounded
    // as there), so peaks and capacities agree to the last bit.
    CHECK(chip.bf16_flop_per_second == row.bf16_tflops * 1e12);
    CHECK(chip.hbm_bytes_per_second == Approx(row.hbm_tb_per_s * 1e12).epsilon(1e-15));
    CHECK(chip.hbm_bytes == row.hbm_gb * 1e9);
    if (row.fp8_tflops > 0) {
      REQUIRE(chip.fp8_flop_per_second);
      CHECK(*chip.fp8_flop_per_second == row.fp8_tflops * 1e12);
    } else {
      CHECK_FALSE(chip.fp8_flop_per_second);
      CHECK_FALSE(chip.supports(Precision::fp8));
    }
    if (kDesignInt8Tops.count(id)) CHECK(*chip.int8_op_per_second == kDesignInt8Tops.at(id) * 1e12);
  }
}

TEST_CASE("no catalog figure is a sparse one: fp8 and int8 are at most twice bf16", "[hardware]") {
  // Dense fp8/int8 are 2x dense bf16 on every chip here; a "with sparsity" figure would make one
  // of them 4x bf16, or make bf16 equal to the dense fp8.
  for (const Hardware& chip : builtin_hardware()) {
    INFO(chip.id);
    REQUIRE(chip.bf16_flop_per_second);
    for (const auto& rate : {chip.fp8_flop_per_second, chip.int8_op_per_second}) {
      if (rate) CHECK(*rate / *chip.bf16_flop_per_second == Approx(2.0).epsilon(1e-3));
    }
  }
}

TEST_CASE("every catalog entry has a source with a URL, prices come with a note", "[hardware]") {
  const auto chips = builtin_hardware();
  CHECK(chips.size() == 9);  // the nine of docs/model.md's Hardware table
  for (const Hardware& chip : chips) {
    INFO(chip.id);
    CHECK_THAT(chip.source, Catch::Contains("https://"));
    CHECK_FALSE(chip.name.empty());
    if (chip.usd_per_hour) CHECK_THAT(chip.price_note, Catch::StartsWith("assumption"));
  }
  CHECK(*find_hardware(chips, "h100-sxm").usd_per_hour ==
        2.0);  // docs/model.md, Default prices: $2/GPU-hour
}

TEST_CASE("a chip without a format says which it has", "[hardware]") {
  // A copy: a reference would dangle once the temporary catalog is gone (AddressSanitizer
  // found that: heap-use-after-free).
  const Hardware v5e = find_hardware(builtin_hardware(), "tpu-v5e");
  CHECK_THROWS_WITH(v5e.peak_flop_per_second(Precision::fp8),
                    "tpu-v5e has no fp8 figure (it has bf16, int8)");
  CHECK_THROWS_WITH(find_hardware(builtin_hardware(), "h300"),
                    Catch::StartsWith("unknown hardware 'h300': expected one of a100-80g"));
}

TEST_CASE("a [hardware.<id>] table overrides a chip or defines a new one", "[hardware]") {
  const auto chips = builtin_hardware();
  const TomlDocument doc = parse_toml_text(
      "[hardware.h100-sxm]\nusd_per_hour = \"$3/h\"\n"
      "[hardware.my-chip]\nbf16 = \"1P\"\nhbm_bandwidth = \"4TB/s\"\nhbm = \"100GB\"\n",
      "s.toml");
  const toml::table& tables = *doc.table["hardware"].as_table();
  const Hardware h100 =
      read_hardware_table("s.toml", *tables["h100-sxm"].as_table(), "hardware.h100-sxm", "h100-sxm",
                          find_hardware(chips, "h100-sxm"));
  CHECK(*h100.usd_per_hour == 3.0);
  CHECK(*h100.bf16_flop_per_second == 989e12);
  CHECK(h100.price_note == "assumption from s.toml");
  const Hardware mine = read_hardware_table("s.toml", *tables["my-chip"].as_table(),
                                            "hardware.my-chip", "my-chip", std::nullopt);
  CHECK(*mine.bf16_flop_per_second == 1e15);
  CHECK(mine.source == "defined in s.toml");

  const TomlDocument bad = parse_toml_text("[hardware.x]\nbf16 = \"1P\"\nhbm = -1\n", "b.toml");
  CHECK_THROWS_WITH(read_hardware_table("b.toml", *bad.table["hardware"]["x"].as_table(),
                                        "hardware.x", "x", std::nullopt),
                    "b.toml:3: hardware.x.hbm: must be > 0, got -1");
}

TEST_CASE("scaleopt hardware lists the catalog as a table and as JSON", "[hardware][cli]") {
  const CliRun table = run_cli({"hardware"});
  REQUIRE(table.status == 0);
  CHECK_THAT(table.out, Catch::Contains("h100-sxm") && Catch::Contains("989T") &&
                            Catch::Contains("price (assumed)") && Catch::Contains("Sources:"));
  const CliRun json = run_cli({"hardware", "--json"});
  REQUIRE(json.status == 0);
  const auto list = json.json()["hardware"];
  REQUIRE(list.size() == 9);
  CHECK(list[2]["id"] == "h100-sxm");
  CHECK(list[2]["fp8_flop_per_second"].get<double>() == 1979e12);
  CHECK(list[2]["price_is_assumption"] == true);
  CHECK(list[0]["fp8_flop_per_second"].is_null());
}
