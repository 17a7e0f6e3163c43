#pragma once
// A published pretraining run (the catalog costmodel/data/training_runs.toml) and the
// efficiency its published GPU-hours imply: the MFU that, at the chip's dense peak, turns the
// run's model FLOPs into those hours (docs/validation.md, Training efficiency of published
// runs). Published GPU-hours are paid hours, so an implied MFU already holds the run's goodput
// losses (restarts, failures, checkpoints): it is meant for training.mfu with goodput 1.

#include <optional>
#include <string>
#include <vector>

#include "scaleopt/costmodel/architecture.hpp"
#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/precision.hpp"

namespace scaleopt {

struct PublishedRun {
  std::string id;      // catalog key, e.g. "llama-65b"
  std::string name;    // e.g. "LLaMA 65B"
  std::string source;  // where every figure below is printed
  std::string note;    // what the figures include or leave out ("" when nothing to say)
  std::string hardware_id;
  Precision precision = Precision::bf16;  // what the run trained in
  double active_params = 0.0;             // N in 6ND
  double total_params = 0.0;              // as published (= active for a dense model)
  double tokens = 0.0;                    // pretraining tokens D
  double gpu_hours = 0.0;                 // published, paid
  // The pretraining sequence length and the attention shape (a preset's, or layers, heads and
  // head_dim), for the attention FLOPs; absent when the run does not publish them.
  std::optional<double> sequence_tokens;
  std::optional<Architecture> attention_shape;

  // Throws InputError naming the first bad field ("training_runs.llama-65b.tokens: ...").
  void validate(const std::string& prefix) const;
};

// An implied MFU against one precision's peak.
struct ImpliedMfu {
  Precision precision = Precision::bf16;
  double peak_flop_per_second = 0.0;
  double matmul_only = 0.0;              // 6 N D / (hours * 3600 * peak)
  std::optional<double> with_attention;  // (6 N D + attention) / (...); absent: no shape
};

struct RunEfficiency {
  double matmul_flops = 0.0;              // 6 N_active D
  std::optional<double> attention_flops;  // 3 x forward attention over D tokens
  // Against the peak of the precision the run trained in, first; then bf16's when the run
  // trained in another precision (the bf16 figure is what the default training setup uses).
  std::vector<ImpliedMfu> implied;
  const ImpliedMfu& at(Precision precision) const;  // throws std::out_of_range when absent
};

// The run's FLOPs and implied MFUs on `chip` (the catalog's `run.hardware_id`). Throws
// InputError when the chip has no peak for the run's precision.
RunEfficiency run_efficiency(const PublishedRun& run, const Hardware& chip);

// The chip-hours `flops` take at `mfu` of `peak_flop_per_second` (goodput 1).
double predicted_gpu_hours(double flops, double peak_flop_per_second, double mfu);

}  // namespace scaleopt
