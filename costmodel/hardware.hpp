#pragma once
// One accelerator chip: dense peak rates, HBM bandwidth and capacity, where the figures come
// from, and an optional hourly price that is always an assumption (docs/model.md, Hardware).
// The built-in catalog is costmodel/data/hardware.toml (text in hardware_catalog_text.hpp,
// parsed by the CLI); scenarios add or override chips.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/precision.hpp"

namespace scaleopt {

struct Hardware {
  std::string id;      // catalog key, e.g. "h100-sxm"
  std::string name;    // e.g. "NVIDIA H100 SXM5 80GB"
  std::string source;  // datasheet name and URL, quoting the printed figures
  // Dense peak rates (no 2:4 sparsity), per chip; absent when the chip lacks the format.
  std::optional<double> bf16_flop_per_second;
  std::optional<double> fp8_flop_per_second;
  std::optional<double> int8_op_per_second;
  double hbm_bytes_per_second = 0.0;   // peak HBM bandwidth
  double hbm_bytes = 0.0;              // HBM capacity
  std::optional<double> usd_per_hour;  // rental price per chip-hour: an assumption
  std::string price_note;              // whose assumption the price is
  // Chips in one node (a server board: DGX/HGX 8 GPUs, an 8-GPU MI300X platform): default
  // replicas are whole nodes.
  double node_chips = 8.0;
  // Thermal design power of one chip (the board's maximum sustained power, as the vendor
  // sheet prints it), with where the figure comes from; absent where no figure is published,
  // and then `power_unknown` says why (TPUs: Google publishes no per-chip power).
  std::optional<double> tdp_watts;
  std::string power_source;
  std::string power_unknown;

  // tdp_watts; throws InputError naming "<prefix>.tdp" with the reason when the power is
  // unknown, for a figure or a constraint that needs it.
  double power_watts(std::string_view prefix) const;

  // The dense peak at `precision`; throws InputError naming the chip and the formats it has
  // ("tpu-v5e has no fp8 figure (it has bf16, int8)").
  double peak_flop_per_second(Precision precision) const;
  bool supports(Precision precision) const;

  // Throws InputError naming the first bad field, e.g. "hardware.x.hbm: must be positive".
  // `prefix` is how the chip is named in messages ("hardware.h100-sxm").
  void validate(std::string_view prefix) const;
};

// The price of a chip-hour: `given` when set, else the chip's catalog price (an assumption);
// throws InputError naming "<prefix>.usd_per_chip_hour" when neither exists.
double chip_hour_price(const std::optional<double>& given, const Hardware& chip,
                       std::string_view prefix);

// The chip with `id`; throws InputError listing the known ids otherwise.
const Hardware& find_hardware(const std::vector<Hardware>& chips, std::string_view id);

}  // namespace scaleopt
