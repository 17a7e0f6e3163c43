#pragma once
// How a model is pretrained (and how RL trains on rollouts): which chip, at what precision
// and model-FLOPs utilization, on how many tokens and chips.

#include <optional>
#include <string_view>

#include "scaleopt/costmodel/hardware.hpp"
#include "scaleopt/costmodel/precision.hpp"

namespace scaleopt {

struct TrainingSetup {
  Hardware chip;                          // resolved from the catalog
  Precision precision = Precision::bf16;  // peak FLOP/s used with the MFU
  double tokens = 0.0;                    // pretraining tokens D (0: no pretraining counted)
  // Model-FLOPs utilization: model FLOPs / (chips * peak * time). 0.4 is an assumption in the
  // range Llama 3 reports for its 405B pretraining on H100s (38-43%, Dubey et al. 2024, Table 4).
  double mfu = 0.4;
  double cluster_chips = 0.0;  // chips training at once, for the wall-clock (0: not given)
  // The most chips the run may use (training.max_chips), when the count is chosen: the
  // deadline then constrains the model at this many chips. Not with cluster_chips.
  std::optional<double> max_chips;
  // The wall time the pretraining run must fit in (training.deadline); absent: none.
  std::optional<double> deadline_seconds;
  // Fraction of the paid wall time spent on useful steps (restarts, checkpoints and failures
  // take the rest): it divides the effective FLOP rate, raising the chip-hours paid and the
  // wall time alike. 1 is an assumption (Llama 3's 54-day 405B run kept >90% effective
  // training time through 466 interruptions, Dubey et al. 2024, section 3.3.4). An MFU
  // implied by published GPU-hours already contains the run's goodput losses.
  double goodput = 1.0;
  // Training sequence length; when given, adds the attention FLOPs (Kaplan et al. 2020).
  std::optional<double> context_tokens;
  // Price per chip-hour; when absent, the chip's catalog price (an assumption) is used.
  std::optional<double> usd_per_chip_hour;

  // Model FLOP/s of one chip while it is paid for: peak * mfu * goodput.
  double effective_flop_per_second() const;

  // usd_per_chip_hour, else the chip's price; throws InputError naming "<prefix>.usd_per_chip_hour"
  // when neither exists.
  double price_per_chip_hour(std::string_view prefix) const;

  // Throws InputError naming the first bad field.
  void validate(std::string_view prefix) const;
};

}  // namespace scaleopt
