// scaleopt pricing infer-kv: the talk's back-out (Pope on Dwarkesh 2026; docs/pricing.md). A
// price step at context S* says decode turns memory-bound there, so the KV bytes per token are
// kv = 2 N_active / ((F/W) S*); and the attention layouts that cache about that much.

#include <cmath>
#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/pricing_commands.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/kv_layouts.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/roofline.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct InferKvArgs {
  std::string scenario;
  std::vector<std::string> overrides;
  std::string breakpoint, active_params, flop_per_byte, hardware, precision, model_layers,
      tolerance;
  bool json = false;
};

// One input and where it came from ("--breakpoint", "pricing.tier[1].max_context", ...).
struct Sourced {
  double value = 0.0;
  std::string source;
};

Sourced breakpoint_of(const InferKvArgs& args, const std::optional<Scenario>& scenario) {
  if (!args.breakpoint.empty()) {
    return {parse_positive_flag("--breakpoint", args.breakpoint, Unit::count), "--breakpoint"};
  }
  if (scenario && scenario->prices && scenario->prices->tiers.size() > 1) {
    return {scenario->prices->tiers.front().max_context_tokens,
            scenario->file + ": pricing.tier[1].max_context"};
  }
  throw InputError(
      "--breakpoint: required (the context of a price step, e.g. 200K), or a scenario whose "
      "[pricing] has two tiers");
}

Sourced active_params_of(const InferKvArgs& args, const std::optional<Scenario>& scenario) {
  if (!args.active_params.empty()) {
    return {parse_positive_flag("--active-params", args.active_params, Unit::count),
            "--active-params"};
  }
  if (scenario) {
    return {scenario->architecture.active_param_count(),
            scenario->file + ": architecture (" + scenario->architecture.name + ")"};
  }
  throw InputError("--active-params: required (e.g. 100B), or a scenario with its architecture");
}

Sourced flop_per_byte_of(const InferKvArgs& args, const std::optional<Scenario>& scenario) {
  if (!args.flop_per_byte.empty()) {
    if (!args.hardware.empty()) {
      throw InputError("--flop-per-byte: give it or --hardware, not both");
    }
    if (!args.precision.empty()) {
      throw InputError(
          "--precision: picks the peak of --hardware's chip; --flop-per-byte gives "
          "F/W directly, so give one or the other");
    }
    return {parse_positive_flag("--flop-per-byte", args.flop_per_byte, Unit::number),
            "--flop-per-byte"};
  }
  ServingSetup setup;
  std::string from;
  if (!args.hardware.empty()) {
    try {
      setup.chip = find_hardware(builtin_hardware(), args.hardware);
    } catch (const InputError& e) {
      throw field_error("--hardware", e.what());
    }
    from = "--hardware " + args.hardware;
    if (scenario) setup.precision = scenario->serving.precision;
  } else if (scenario) {
    setup = scenario->serving;
    from = scenario->file + ": inference (" + setup.chip.id + ")";
  } else {
    throw InputError("--flop-per-byte: required (F/W, e.g. 600), or --hardware and --precision");
  }
  if (!args.precision.empty()) {
    try {
      setup.precision = parse_precision(args.precision);
    } catch (const InputError& e) {
      throw field_error("--precision", e.what());
    }
  }
  try {
    return {setup.flop_per_byte(), from + " at " + std::string(to_string(setup.precision))};
  } catch (const InputError& e) {
    throw field_error("--precision", e.what());
  }
}

double model_layers_of(const InferKvArgs& args, const std::optional<Scenario>& scenario) {
  if (!args.model_layers.empty()) {
    return static_cast<double>(
        parse_count_flag("--model-layers", args.model_layers, 1, kMaxShapeCount));
  }
  return scenario && scenario->architecture.has_shape() ? scenario->architecture.layers : 0.0;
}

int run_infer_kv(const InferKvArgs& args, std::ostream& out) {
  std::optional<Scenario> scenario;
  if (!args.scenario.empty()) scenario = load_scenario(args.scenario, args.overrides);
  const Sourced breakpoint = breakpoint_of(args, scenario);
  const Sourced active = active_params_of(args, scenario);
  const Sourced intensity = flop_per_byte_of(args, scenario);
  KvLayoutOptions options;
  options.model_layers = model_layers_of(args, scenario);
  if (!args.tolerance.empty()) {
    options.tolerance = parse_flag("--tolerance", args.tolerance, Unit::number);
  }
  const double kv = kv_bytes_for_crossover(active.value, intensity.value, breakpoint.value);
  refuse_non_finite(Json{{"kv_bytes_per_token", kv}},
                    extreme_flags({{breakpoint.source, breakpoint.value},
                                   {active.source, active.value},
                                   {intensity.source, intensity.value}}));
  const std::vector<KvLayout> layouts = kv_layouts_near(kv, options, "--");

  if (args.json) {
    out << infer_kv_answer(kv, {breakpoint.value, breakpoint.source}, {active.value, active.source},
                           {intensity.value, intensity.source}, options, layouts)
               .dump(2)
        << "\n";
    return kExitOk;
  }

  Table table(
      "KV bytes per token implied by a price step (kv = 2 N_active / ((F/W) S*): the talk's "
      "formula, without attention FLOPs)");
  table.row("price step S*", format_quantity(breakpoint.value, Unit::count, 4) + " tokens",
            breakpoint.source);
  table.row("active parameters", format_quantity(active.value, Unit::count, 4), active.source);
  table.row("F/W", format_quantity(intensity.value, Unit::number, 4) + " FLOP/byte",
            intensity.source);
  table.row("KV per token", format_quantity(kv, Unit::number, 6) + " bytes",
            format_quantity(kv, Unit::bytes, 3));
  table.print(out);
  out << "Layouts within " << format_quantity(options.tolerance * 100.0, Unit::number, 3)
      << "% (2 x cache layers x K/V heads x head dim x bytes; MLA: cache layers x 576 x bytes):\n";
  if (layouts.empty()) {
    out << "  none in the grid (K/V heads 1-16 of 64-256, MLA 512+64, fp8 or bf16)\n";
    return kExitOk;
  }
  Table list;
  std::vector<std::string> header{"layout", "bytes/token", "difference"};
  if (options.model_layers > 0.0) header.push_back("layers per cache");
  list.header(header);
  for (const KvLayout& layout : layouts) {
    std::vector<std::string> cells{
        layout.describe(), format_quantity(layout.kv_bytes_per_token, Unit::number, 6),
        format_quantity(layout.relative_difference * 100.0, Unit::number, 2) + "%"};
    if (options.model_layers > 0.0) {
      cells.push_back(format_quantity(options.model_layers / layout.cache_layers, Unit::number, 3));
    }
    list.cells(cells);
  }
  list.print(out);
  return kExitOk;
}

}  // namespace

void add_pricing_infer_kv_command(CLI::App& pricing, Action& chosen) {
  auto* command = pricing.add_subcommand(
      "infer-kv", "KV bytes per token implied by a price step, and layouts that cache that much");
  auto args = std::make_shared<InferKvArgs>();
  command
      ->add_option("scenario", args->scenario,
                   "Scenario file: breakpoint from [pricing], N_active and F/W from the model")
      ->type_name("SCENARIO.toml");
  command->add_option("--set", args->overrides, "Override a key of the scenario (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  command
      ->add_option("--breakpoint", args->breakpoint,
                   "Context of the price step in tokens, e.g. 200K")
      ->type_name("COUNT");
  command
      ->add_option("--active-params", args->active_params, "Active parameters per token, e.g. 100B")
      ->type_name("COUNT");
  command
      ->add_option("--flop-per-byte", args->flop_per_byte,
                   "F/W of the accelerator: peak FLOP/s per byte/s of HBM bandwidth, e.g. 600")
      ->type_name("NUMBER");
  command
      ->add_option("--hardware", args->hardware,
                   "Chip whose F/W to use (instead of --flop-per-byte)")
      ->type_name("ID");
  command->add_option("--precision", args->precision, "Precision of the chip's peak FLOP/s")
      ->type_name("PRECISION")
      ->default_str("bf16, or the scenario's");
  command
      ->add_option(
          "--model-layers", args->model_layers,
          "The model's layers, to show how many share each cache (default: the scenario's)")
      ->type_name("COUNT");
  command
      ->add_option("--tolerance", args->tolerance,
                   "Largest relative difference in KV bytes per token listed, e.g. 10%")
      ->type_name("NUMBER")
      ->default_str("10%");
  command->add_flag("--json", args->json, "Print one JSON object (key kv_bytes_per_token)");
  command->footer(
      "A price step at context S* marks where decode turns memory-bound at large batch:\n"
      "2 N_active / F = S* kv / W, so kv = 2 N_active / ((F/W) S*). 100B active, 600\n"
      "FLOP/byte and 200K give 1666.7 bytes (the talk's 'about 1.7 KB'). This keeps the\n"
      "talk's roofline: attention FLOPs, which `roofline` counts by default, are left out\n"
      "(with them a given kv crosses later; the back-out would need the model's shape).\n"
      "Examples:\n"
      "  scaleopt pricing infer-kv --breakpoint 200K --active-params 100B --flop-per-byte 600\n"
      "  scaleopt pricing infer-kv --breakpoint 200K --active-params 100B --hardware h100-sxm "
      "--precision fp8\n"
      "  scaleopt pricing infer-kv examples/gemini_200k.toml --json\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_infer_kv(*args, out); }; });
}

}  // namespace scaleopt::cli
