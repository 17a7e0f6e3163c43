// A model is served as it ships unless a precision is given (costmodel/shipped_formats.hpp):
// DeepSeek-V3/V3.2 FP8 weights (config.json quantization_config) with the BF16 MLA cache of
// their inference code, DeepSeek-V4 FP8 weights with FP4 routed experts and 576-byte KV rows
// (its report, section 2.3.4), Llama BF16 (config.json torch_dtype). One definition of KV bytes
// per token: K/V rows plus the indexer's keys, in every command.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"

using namespace scaleopt;

namespace {

ServingSetup on_h100(double chips) {
  ServingSetup setup;
  setup.chip = find_hardware(builtin_hardware(), "h100-sxm");
  setup.chips = chips;
  return setup;
}

nlohmann::json json_of(const std::vector<std::string>& args) {
  const CliRun run = run_cli(args);
  REQUIRE(run.status == 0);
  return nlohmann::json::parse(run.out);
}

}  // namespace

TEST_CASE("presets ship their formats: DeepSeek FP8, V4 FP4 experts, Llama BF16", "[shipped]") {
  for (const char* name : {"llama3-70b", "llama3-405b"}) {
    const Architecture a = architecture_preset(name);
    REQUIRE(a.shipped);
    CHECK(a.shipped->weights == Precision::bf16);
    CHECK(a.shipped->kv == Precision::bf16);
    CHECK_THAT(a.shipped->weights_source, Catch::Contains("torch_dtype bfloat16"));
  }
  for (const char* name : {"deepseek-v3", "deepseek-v3.2"}) {
    const Architecture a = architecture_preset(name);
    REQUIRE(a.shipped);
    CHECK(a.shipped->weights == Precision::fp8);
    CHECK_FALSE(a.shipped->routed_expert_bytes_per_param);
    CHECK(a.shipped->kv == Precision::bf16);
    CHECK_THAT(a.shipped->weights_source, Catch::Contains("fmt e4m3"));
  }
  for (const char* name : {"deepseek-v4-pro", "deepseek-v4-flash"}) {
    const Architecture a = architecture_preset(name);
    REQUIRE(a.shipped);
    CHECK(a.shipped->weights == Precision::fp8);
    CHECK(a.shipped->routed_expert_bytes_per_param == 0.5);
    CHECK(a.shipped->kv == Precision::fp8);
    CHECK(a.shipped->kv_rope == Precision::bf16);
    CHECK_THAT(a.shipped->kv_source, Catch::Contains("2.3.4"));
  }
  CHECK_FALSE(architecture_preset("frontier-100b").shipped);
}

TEST_CASE("V4-Pro as shipped: FP4 routed experts and 576-byte rows, by hand", "[shipped]") {
  const Architecture pro = architecture_preset("deepseek-v4-pro");
  ServingSetup setup = on_h100(8);
  const ShippedChoice choice = apply_shipped_formats(pro, setup, false, false);
  CHECK(setup.precision == Precision::fp8);
  CHECK(setup.kv_precision == Precision::fp8);
  CHECK_THAT(choice.weights, Catch::Contains("0.5 bytes per parameter"));
  const Roofline r = make_roofline(pro, setup, "t");
  // Routed experts: 61 MoE layers x 384 experts x 3 matrices x 7,168 x 3,072 =
  // 1,547,396,186,112 parameters, at half a byte instead of one.
  const double routed = 61.0 * 384 * 3 * 7168 * 3072;
  CHECK(pro.routed_expert_param_count() == routed);
  CHECK(r.weight_bytes == Approx(pro.total_param_count() - 0.5 * routed).epsilon(1e-15));
  // A row of 512 elements: 448 FP8 + 64 BF16 = 576 bytes; per token as the context grows: 30
  // CSA layers 576 / 4 + their FP4 indexer keys 64 / 4, 31 HCA layers 576 / 128.
  CHECK(pro.kv_row_bytes(1.0, 2.0) == 576.0);
  CHECK(r.kv_bytes_per_token == Approx(30 * (576.0 + 64.0) / 4 + 31 * 576.0 / 128).epsilon(1e-15));
  // Given precisions are one format for everything: bf16 everywhere, no mixed part left.
  setup.precision = Precision::bf16;
  setup.kv_precision = Precision::bf16;
  apply_shipped_formats(pro, setup, true, true);
  CHECK_FALSE(setup.routed_expert_bytes_per_param);
  CHECK_FALSE(setup.kv_rope_precision);
  CHECK(make_roofline(pro, setup, "t").weight_bytes == 2.0 * pro.total_param_count());
}

TEST_CASE("V3.2's indexer keys carry their FP32 scale: 132 bytes per token and layer",
          "[shipped]") {
  const Architecture v32 = architecture_preset("deepseek-v3.2");
  ServingSetup setup = on_h100(16);
  apply_shipped_formats(v32, setup, false, false);
  const Roofline r = make_roofline(v32, setup, "t");
  // inference/model.py: (512 + 64) BF16 latent = 1,152 bytes and 128 FP8 + 4 bytes of scale.
  CHECK(r.kv_bytes_per_token == 61.0 * (1152 + 132));
  CHECK(r.weight_bytes == v32.total_param_count());  // FP8: one byte per parameter
}

TEST_CASE("roofline and pricing curve print the same KV bytes per token", "[shipped]") {
  // Both count the indexer keys; V3.2 as shipped: 61 x (1,152 + 132) = 78,324 bytes.
  const auto roofline = json_of({"roofline", "--hardware", "h100-sxm", "--model", "deepseek-v3.2",
                                 "--chips", "16", "--json"});
  const auto curve = json_of({"pricing", "curve", "--hardware", "h100-sxm", "--model",
                              "deepseek-v3.2", "--chips", "16", "--json"});
  CHECK(roofline["kv_bytes_per_token"].get<double>() == 78324.0);
  CHECK(curve["kv_bytes_per_token"].get<double>() == 78324.0);
  CHECK(roofline["precision"] == "fp8");
}

TEST_CASE("without a precision, the commands and scenarios list the shipped format", "[shipped]") {
  const CliRun run = run_cli(
      {"roofline", "--hardware", "h100-sxm", "--model", "deepseek-v4-pro", "--context", "1M"});
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("--precision fp8, routed experts 0.5 bytes per parameter") &&
                          Catch::Contains("as deepseek-v4-pro ships"));
  const CliRun given = run_cli({"roofline", "--hardware", "h100-sxm", "--model", "deepseek-v4-pro",
                                "--context", "1M", "--precision", "bf16"});
  REQUIRE(given.status == 0);
  CHECK_THAT(given.out, !Catch::Contains("--precision fp8"));

  const Scenario s = load_scenario_text(
      "[architecture]\npreset = \"deepseek-v3\"\n[inference]\nhardware = \"h100-sxm\"\n", "t");
  CHECK(s.serving.precision == Precision::fp8);
  bool listed = false;
  for (const std::string& line : s.assumptions) {
    listed = listed || line.starts_with("inference.precision = fp8, as deepseek-v3 ships");
  }
  CHECK(listed);
  const Scenario bf16 = load_scenario_text(
      "[architecture]\npreset = \"deepseek-v3\"\n[inference]\nhardware = \"h100-sxm\"\n"
      "precision = \"bf16\"\n",
      "t");
  CHECK(bf16.serving.precision == Precision::bf16);
}
