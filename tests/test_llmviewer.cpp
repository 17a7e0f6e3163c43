// The roofline against LLM-Viewer (hahnyuan/LLM-Viewer at 472f71f, model_analyzer.py), which
// prices every operator of a layer on its own roofline and sums them: Llama-3-70B
// (config.json of meta-llama/Meta-Llama-3-70B) in bf16 (W16A16KV16), one device, no
// flash-attention path, decode and prefill. LLM-Viewer's times (ms, one step of the whole
// batch, 80 layers plus lm_head) are quoted below from its output; docs/validation.md has the
// table and the reason for every difference above 5%.
//
// Its hardware: nvidia_A100_80G 2.039 TB/s and 312 TFLOP/s (our a100-80g: the same figures);
// nvidia_H100 3.072 TB/s and 989.5 TFLOP/s (our h100-sxm: the datasheet's 3.35 TB/s and
// 989 TFLOP/s). The H100 cases are checked at both bandwidths.

#include <catch2/catch.hpp>

#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

using namespace scaleopt;

namespace {

struct LlmViewerCase {
  bool decode;
  double batch;
  double tokens;   // context (decode) or prompt length (prefill)
  double a100_ms;  // LLM-Viewer, nvidia_A100_80G
  double h100_ms;  // LLM-Viewer, nvidia_H100
};

// LLM-Viewer's totals (llmviewer_results, section "Results"): decode b x context, prefill b x
// prompt.
const LlmViewerCase kCases[] = {
    {true, 1, 1024, 68.38, 45.39},     {true, 1, 32768, 74.12, 49.19},
    {true, 8, 4096, 74.27, 49.29},     {true, 32, 4096, 92.54, 61.42},
    {true, 64, 1024, 81.37, 54.01},    {false, 1, 64, 69.58, 46.18},
    {false, 1, 2048, 1000.22, 350.77}, {false, 1, 8192, 5008.86, 2072.13},
    {false, 8, 2048, 7994.53, 2801.39}};

Roofline llama_on(const std::string& chip, double bandwidth = 0.0, double flops = 0.0) {
  ServingSetup setup;
  setup.chip = find_hardware(builtin_hardware(), chip);
  if (bandwidth > 0.0) setup.chip.hbm_bytes_per_second = bandwidth;
  if (flops > 0.0) setup.chip.bf16_flop_per_second = flops;
  setup.chips = 1;
  return make_roofline(architecture_preset("llama3-70b"), setup, "t");
}

double milliseconds(const Roofline& r, const LlmViewerCase& c) {
  if (c.decode) return decode_step(r, c.batch, c.tokens).seconds() * 1e3;
  return prefill_pass(r, c.batch, c.tokens).seconds() * 1e3;
}

}  // namespace

TEST_CASE("decode steps match LLM-Viewer within 5% at the same bandwidth", "[llmviewer]") {
  // Every decode case is bound by the weight read, 139.0 GB (70.55B parameters less the input
  // embedding's 1.05B, in bf16) plus the KV, 327,680 bytes per cached token: batch 1 at 1024 on
  // an A100 80GB, (139.0e9 + 0.34e9) / 2.039e12 = 68.34 ms against LLM-Viewer's 68.38.
  // LLM-Viewer also counts the activations each operator loads and stores (up to 3.6% at
  // batch 32 and 64), which the roofline leaves out.
  const Roofline a100 = llama_on("a100-80g");
  const Roofline h100_there = llama_on("h100-sxm", 3.072e12, 989.5e12);
  const Roofline h100_here = llama_on("h100-sxm");
  for (const LlmViewerCase& c : kCases) {
    if (!c.decode) continue;
    INFO("batch " << c.batch << ", context " << c.tokens);
    CHECK(milliseconds(a100, c) == Approx(c.a100_ms).epsilon(0.05));
    CHECK(milliseconds(h100_there, c) == Approx(c.h100_ms).epsilon(0.05));
    // With the datasheet's 3.35 TB/s every memory-bound step is 3.072 / 3.35 = 0.917 of that.
    CHECK(milliseconds(h100_here, c) ==
          Approx(milliseconds(h100_there, c) * 3.072 / 3.35).epsilon(1e-3));
  }
  const LlmViewerCase first = kCases[0];
  CHECK(
      milliseconds(a100, first) ==
      Approx(((70553706496.0 - 128256.0 * 8192) * 2 + 8192 * 2 + 1024 * 327680.0) / 2.039e12 * 1e3)
          .epsilon(1e-12));
}

TEST_CASE("a short prompt is priced by its weight read, as in LLM-Viewer", "[llmviewer]") {
  // 64 prompt tokens are far below the critical batch (312e12 / 2.039e12 = 153 on an A100):
  // the pass reads 139.0 GB of weights in 68.2 ms while its FLOPs take 28.1 ms. LLM-Viewer:
  // 69.58 ms. (Priced compute-bound, as before, it was 28.1 ms: -60%.)
  const Roofline a100 = llama_on("a100-80g");
  const LlmViewerCase prompt64 = kCases[5];
  const PrefillPass pass = prefill_pass(a100, 1, 64);
  CHECK(pass.memory_seconds > pass.compute_seconds);
  CHECK(milliseconds(a100, prompt64) == Approx(prompt64.a100_ms).epsilon(0.05));
  CHECK(milliseconds(llama_on("h100-sxm", 3.072e12, 989.5e12), prompt64) ==
        Approx(prompt64.h100_ms).epsilon(0.05));
  // The same per input token through prefill_token, on a 4-chip replica, the prompt alone in
  // its pass as LLM-Viewer prices it (a pass of 64 tokens): 17.05 ms for the pass
  // (LLM-Viewer's 69.58 / 4 = 17.4), not the 7.0 ms of FLOPs alone.
  ServingSetup four;
  four.chip = find_hardware(builtin_hardware(), "a100-80g");
  four.chips = 4;
  four.prefill_tokens_per_pass = 64;
  const Architecture llama = architecture_preset("llama3-70b");
  CHECK(prefill_token(make_roofline(llama, four, "t"), 64).seconds() * 64 * 1e3 ==
        Approx(69.58 / 4).epsilon(0.05));
  // By default prompts share a pass up to the ridge (docs/model.md, Prefill), which hides the
  // weight read: the 64 tokens cost their FLOPs, 64 (2 (N - 2E) + 2E / 64 + a 32) / F with
  // a = 2,621,440 attention FLOPs per context token and F = 4 x 312 TFLOP/s: 7.03 ms.
  four.prefill_tokens_per_pass.reset();
  const double n = 70553706496.0, e = 128256.0 * 8192;
  CHECK(prefill_token(make_roofline(llama, four, "t"), 64).seconds() * 64 ==
        Approx(64 * (2 * (n - 2 * e) + 2 * e / 64 + 2621440.0 * 32) / (4 * 312e12)).epsilon(1e-12));
}

TEST_CASE("long prompts: our FLOPs are LLM-Viewer's less its non-causal half", "[llmviewer]") {
  // Past the critical batch prefill is compute-bound and we price its FLOPs: per prompt token
  // 2 x 68.45B (parameters less both embedding matrices) plus causal attention (half the
  // prompt on average, 4 x 80 x 64 x 128 per attended token), plus the output head once.
  // LLM-Viewer charges the full S x S square (qk and sv, 4 S^2 x 8192 per layer), so it counts
  // half of its attention twice, and prices softmax, norms and activations separately at HBM
  // speed (no fusion): its times are 8% (2048) to 23% (8192) above ours on an A100, 18% to 41%
  // on an H100. Its OPs (LLM-Viewer's output): 2.915e14 at 2048, 1.299e15 at 8192.
  const Roofline a100 = llama_on("a100-80g");
  for (const auto& [prompt, their_ops] :
       {std::pair{2048.0, 2.915e14}, std::pair{8192.0, 1.299e15}}) {
    INFO("prompt " << prompt);
    const double non_causal_half = 80 * 2.0 * prompt * prompt * 128 * 64;
    // The rest of the difference: softmax (5 OPs per score), norms, activations, lm_head at
    // 1 OP per multiply-add there: under 2%.
    CHECK(prefill_pass(a100, 1, prompt).flops == Approx(their_ops - non_causal_half).epsilon(0.02));
    CHECK(prefill_pass(a100, 1, prompt).compute_seconds >
          prefill_pass(a100, 1, prompt).memory_seconds);
  }
}
