// scaleopt roofline: the inference roofline of one model on one chip (DESIGN.md section 4):
// critical batch B*, context crossover S*, the best batch at a context, cost per million input
// and output tokens and their ratio.

#include <cmath>
#include <limits>
#include <memory>

#include "cli/allocation_output.hpp"
#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/hardware_catalog.hpp"
#include "cli/table.hpp"
#include "costmodel/architecture_presets.hpp"
#include "costmodel/input_error.hpp"
#include "costmodel/quantity.hpp"
#include "problems/serving_plan.hpp"

namespace scaleopt::cli {
namespace {

constexpr double kDefaultContextTokens = 8192.0;
constexpr double kTokensPerMillion = 1e6;

struct RooflineArgs {
  std::string hardware, model, context, chips, precision = "bf16", kv_precision = "bf16", batch,
                                               latency, price, compute_efficiency,
                                               bandwidth_efficiency;
  bool attention_flops = false;
  bool json = false;
};

// The smallest replica whose HBM holds the weights twice over, leaving half for KV caches.
double default_chips(const Architecture& model, const ServingSetup& setup) {
  const double weight_bytes = model.total_param_count() * setup.weight_bytes_per_param();
  return std::max(1.0, std::ceil(2.0 * weight_bytes / setup.chip.hbm_bytes));
}

Json finite_or_null(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

std::string milliseconds(double seconds) {
  return format_scientific(seconds * 1e3, 3) + "ms";
}

int run_roofline(const RooflineArgs& args, std::ostream& out) {
  if (args.hardware.empty()) throw InputError("--hardware: required (see 'scaleopt hardware')");
  if (args.model.empty()) throw InputError("--model: required (see 'scaleopt models')");
  const std::vector<Hardware> chips = builtin_hardware();
  ServingSetup setup;
  try {
    setup.chip = find_hardware(chips, args.hardware);
  } catch (const InputError& e) {
    throw field_error("--hardware", e.what());
  }
  Architecture model;
  try {
    model = architecture_preset(args.model);
  } catch (const InputError& e) {
    throw field_error("--model", e.what());
  }
  try {
    setup.precision = parse_precision(args.precision);
  } catch (const InputError& e) {
    throw field_error("--precision", e.what());
  }
  try {
    setup.kv_precision = parse_precision(args.kv_precision);
  } catch (const InputError& e) {
    throw field_error("--kv-precision", e.what());
  }
  if (!setup.chip.supports(setup.precision)) {
    try {
      setup.chip.peak_flop_per_second(setup.precision);
    } catch (const InputError& e) {
      throw field_error("--precision", e.what());
    }
  }
  std::vector<std::string> assumptions;
  if (args.context.empty()) {
    setup.context_tokens = kDefaultContextTokens;
    assumptions.push_back("--context 8K");
  } else {
    setup.context_tokens = parse_flag("--context", args.context, Unit::count);
  }
  if (args.chips.empty()) {
    setup.chips = default_chips(model, setup);
    assumptions.push_back("--chips " + format_quantity(setup.chips, Unit::number, 6) +
                          ": the smallest replica whose HBM holds the weights twice");
  } else {
    setup.chips = parse_flag("--chips", args.chips, Unit::count);
  }
  if (!args.batch.empty()) setup.batch = parse_flag("--batch", args.batch, Unit::count);
  if (!args.latency.empty()) {
    setup.latency_per_token_seconds =
        parse_flag("--latency-per-token", args.latency, Unit::seconds);
  }
  if (!args.price.empty()) {
    setup.usd_per_chip_hour = parse_flag("--price", args.price, Unit::usd_per_hour);
  } else if (setup.chip.usd_per_hour) {
    assumptions.push_back("--price " +
                          format_quantity(*setup.chip.usd_per_hour, Unit::usd_per_hour) +
                          " per chip: " + setup.chip.price_note);
  } else {
    throw InputError("--price: required: " + setup.chip.id +
                     " has no price in the catalog (e.g. --price '$3/h')");
  }
  if (!args.compute_efficiency.empty()) {
    setup.compute_efficiency =
        parse_flag("--compute-efficiency", args.compute_efficiency, Unit::number);
  }
  if (!args.bandwidth_efficiency.empty()) {
    setup.bandwidth_efficiency =
        parse_flag("--bandwidth-efficiency", args.bandwidth_efficiency, Unit::number);
  }
  setup.attention_flops = args.attention_flops;

  const Roofline roofline = make_roofline(model, setup, "--");
  const ServingPlan plan = plan_serving(roofline, setup, setup.context_tokens, "--");
  const double b_star = critical_batch(roofline);
  const double s_star = crossover_context(roofline);
  const double input_per_mtok = plan.input_token.usd * kTokensPerMillion;
  const double output_per_mtok = plan.output_token.usd * kTokensPerMillion;
  const bool converged = plan.status == Status::converged;

  if (args.json) {
    Json json{{"critical_batch", b_star},
              {"crossover_context", finite_or_null(s_star)},
              {"usd_per_mtok_input", input_per_mtok},
              {"usd_per_mtok_output", output_per_mtok},
              {"output_input_ratio", plan.output_input_ratio()},
              {"status", std::string(to_string(plan.status))},
              {"message", plan.message},
              {"hardware", setup.chip.id},
              {"model", model.name},
              {"context", setup.context_tokens},
              {"chips", setup.chips},
              {"precision", std::string(to_string(setup.precision))},
              {"kv_precision", std::string(to_string(setup.kv_precision))},
              {"batch", plan.batch},
              {"batch_bound", std::string(to_string(plan.bound))},
              {"decode_step_seconds", plan.step.seconds()},
              {"decode_memory_bound", plan.step.memory_bound()},
              {"total_params", roofline.total_params},
              {"active_params", roofline.active_params},
              {"kv_bytes_per_token", roofline.kv_bytes_per_token},
              {"hbm_bytes_needed", plan.hbm_bytes_needed},
              {"hbm_bytes", roofline.hbm_bytes},
              {"flop_per_second", roofline.flop_per_second},
              {"bytes_per_second", roofline.bytes_per_second},
              {"usd_per_chip_hour", roofline.usd_per_chip_hour},
              {"attention_flops", setup.attention_flops},
              {"assumptions", assumptions}};
    out << json.dump(2) << "\n";
    return converged ? kExitOk : kExitNotConverged;
  }

  if (!converged) {
    out << "STATUS: " << to_string(plan.status) << ": " << plan.message << "\n"
        << "The batch and costs below are not an optimum.\n";
  }
  Table table("Roofline of " + model.name + " on " + setup.chip.id + " (" +
              std::string(to_string(setup.precision)) + " weights, " +
              std::string(to_string(setup.kv_precision)) + " KV), context " +
              format_quantity(setup.context_tokens, Unit::count, 4) + " tokens");
  table.row("critical batch B*", format_quantity(b_star, Unit::number, 4),
            "F * bytes/param * N_total / (2 W N_active): weights amortised above it");
  table.row("crossover context S*",
            std::isfinite(s_star) ? format_quantity(s_star, Unit::count, 4) + " tokens" : "none",
            "above it decode is memory-bound at any batch");
  table.row("model",
            format_quantity(roofline.total_params, Unit::count, 4) + " total, " +
                format_quantity(roofline.active_params, Unit::count, 4) + " active",
            format_quantity(roofline.kv_bytes_per_token, Unit::bytes, 4) + " of KV per token");
  table.row("replica", format_quantity(setup.chips, Unit::number, 6) + " x " + setup.chip.id,
            format_quantity(roofline.hbm_bytes, Unit::bytes) + " HBM, " +
                format_quantity(plan.hbm_bytes_needed, Unit::bytes) + " used");
  table.row(converged ? "best batch" : "batch (last iterate)",
            format_quantity(plan.batch, Unit::number, 4) + " sequences",
            std::string(to_string(plan.bound)));
  table.row("decode step", milliseconds(plan.step.seconds()),
            plan.step.memory_bound() ? "memory-bound" : "compute-bound");
  table.row("input", format_quantity(input_per_mtok, Unit::usd, 3) + " per Mtok", "prefill");
  table.row("output", format_quantity(output_per_mtok, Unit::usd, 3) + " per Mtok", "decode");
  table.row("output/input", format_quantity(plan.output_input_ratio(), Unit::number, 3));
  table.print(out);
  if (!assumptions.empty()) {
    out << "Assumptions (defaults not given on the command line):\n";
    for (const std::string& a : assumptions) out << "  " << a << "\n";
  }
  return converged ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_roofline_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "roofline", "Inference roofline: critical batch, context crossover, $/Mtok in and out");
  auto args = std::make_shared<RooflineArgs>();
  command->add_option("--hardware", args->hardware, "Chip id (see 'scaleopt hardware')")
      ->type_name("ID");
  command->add_option("--model", args->model, "Model preset (see 'scaleopt models')")
      ->type_name("NAME");
  command->add_option("--context", args->context, "Tokens in each sequence's KV cache")
      ->type_name("COUNT")
      ->default_str("8K (assumed)");
  command
      ->add_option("--chips", args->chips,
                   "Chips per replica (default: smallest count holding the weights twice)")
      ->type_name("COUNT");
  command->add_option("--precision", args->precision, "Weights and compute: bf16, fp8 or int8")
      ->type_name("PRECISION")
      ->default_str("bf16");
  command->add_option("--kv-precision", args->kv_precision, "KV cache: bf16, fp8 or int8")
      ->type_name("PRECISION")
      ->default_str("bf16");
  command->add_option("--batch", args->batch, "Sequences per decode step (default: best batch)")
      ->type_name("COUNT");
  command
      ->add_option("--latency-per-token", args->latency,
                   "Upper bound on one decode step, e.g. 50ms")
      ->type_name("DURATION");
  command->add_option("--price", args->price, "Price per chip-hour (default: catalog, assumed)")
      ->type_name("USD/H");
  command
      ->add_option("--compute-efficiency", args->compute_efficiency,
                   "Fraction of peak FLOP/s reached")
      ->type_name("NUMBER")
      ->default_str("1");
  command
      ->add_option("--bandwidth-efficiency", args->bandwidth_efficiency,
                   "Fraction of peak HBM bandwidth reached")
      ->type_name("NUMBER")
      ->default_str("1");
  command->add_flag("--attention-flops", args->attention_flops,
                    "Count attention FLOPs over the context (off in the DESIGN.md roofline)");
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "One decode step of B sequences at context S: t = max(B 2 N_active / F,\n"
      "(N_total bytes + B S kv_bytes) / W); cost per output token = t price / B. The best\n"
      "batch is the smallest at which decode turns compute-bound, HBM fills or the latency\n"
      "target binds (root finding, TOMS 748). Prefill is compute-bound.\n"
      "Examples:\n"
      "  scaleopt roofline --hardware h100-sxm --model deepseek-v3 --context 200K\n"
      "  scaleopt roofline --hardware h100-sxm --model llama3-70b --precision fp8 --json\n"
      "  scaleopt roofline --hardware b200 --model frontier-100b --price '$4/h' --chips 8\n"
      "  scaleopt roofline --hardware h100-sxm --model llama3-70b --latency-per-token 30ms\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_roofline(*args, out); }; });
}

}  // namespace scaleopt::cli
