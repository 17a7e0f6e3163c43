// scaleopt hardware: the built-in chip catalog, dense peaks with their sources, and the
// FLOP/byte ratio that sets the critical batch (docs/model.md, Hardware and Inference roofline).

#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/report/catalog_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

std::string rate(const std::optional<double>& value) {
  return value ? format_quantity(*value, Unit::count, 4) : "-";
}

// FLOP per byte of HBM traffic at the chip's highest-precision rate (bf16 where it has one):
// the dense critical batch of the roofline is this times bytes per parameter / 2.
double flop_per_byte(const Hardware& chip) {
  const auto& rate =
      chip.bf16_flop_per_second
          ? chip.bf16_flop_per_second
          : (chip.fp8_flop_per_second ? chip.fp8_flop_per_second : chip.int8_op_per_second);
  return *rate / chip.hbm_bytes_per_second;
}

int run_hardware(bool json, std::ostream& out) {
  const std::vector<Hardware> chips = builtin_hardware();
  if (json) {
    out << hardware_json(chips).dump(2) << "\n";
    return kExitOk;
  }
  Table table("Hardware catalog: dense peaks per chip (no 2:4 sparsity)");
  table.header({"id", "bf16 FLOP/s", "fp8 FLOP/s", "int8 OP/s", "HBM bandwidth", "HBM",
                "FLOP/byte (bf16)", "TDP", "price (assumed)"});
  for (const Hardware& chip : chips) {
    table.cells(
        {chip.id, rate(chip.bf16_flop_per_second), rate(chip.fp8_flop_per_second),
         rate(chip.int8_op_per_second),
         format_quantity(chip.hbm_bytes_per_second, Unit::bytes_per_second, 4),
         format_quantity(chip.hbm_bytes, Unit::bytes, 4),
         format_quantity(flop_per_byte(chip), Unit::number, 3),
         chip.tdp_watts ? format_quantity(*chip.tdp_watts, Unit::watts, 4) : "unknown",
         chip.usd_per_hour ? format_quantity(*chip.usd_per_hour, Unit::usd_per_hour) : "-"});
  }
  table.print(out);
  out << "Sources:\n";
  for (const Hardware& chip : chips) out << "  " << chip.id << ": " << chip.source << "\n";
  out << "Power (TDP of one chip; node and facility overheads are power.* keys):\n";
  for (const Hardware& chip : chips) {
    out << "  " << chip.id << ": "
        << (chip.tdp_watts ? chip.power_source
                           : "unknown: " + (chip.power_unknown.empty() ? std::string("no published "
                                                                                     "figure")
                                                                       : chip.power_unknown))
        << "\n";
  }
  out << "Prices are assumptions, not datasheet figures:\n";
  for (const Hardware& chip : chips) {
    if (chip.usd_per_hour) out << "  " << chip.id << ": " << chip.price_note << "\n";
  }
  out << "Scenario files add or override chips in [hardware.<id>] tables (docs/scenario.md).\n";
  return kExitOk;
}

}  // namespace

void add_hardware_command(CLI::App& app, Action& chosen) {
  auto* command =
      app.add_subcommand("hardware", "List the hardware catalog: dense peaks, HBM, sources");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print one JSON object instead of a table");
  command->footer(
      "Examples:\n"
      "  scaleopt hardware\n"
      "  scaleopt hardware --json\n");
  command->callback(
      [json, &chosen] { chosen = [json](std::ostream& out) { return run_hardware(*json, out); }; });
}

}  // namespace scaleopt::cli
