#include "scaleopt/cli/serving_flags.hpp"

#include <cmath>

#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/costmodel/architecture_presets.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/shipped_formats.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"
#include "scaleopt/scenario/input_spec.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::cli {
namespace {

constexpr double kDefaultContextTokens = 8000.0;  // "8K": counts are decimal

// `text` as `unit`, within `range`; checked here so that the error names the flag as typed
// (the setup's own check would name its field, usd_per_chip_hour for --price).
double flag_in_range(std::string_view flag, const std::string& text, Unit unit,
                     const Range& range) {
  const double value = parse_flag(flag, text, unit);
  if (!range.contains(value)) {
    throw field_error(std::string(flag), range.refusal(value, flag));
  }
  return value;
}

// Without a scenario: the defaults of `roofline`.
ServingInputs from_flags(const ServingFlags& flags) {
  if (flags.hardware.empty()) throw InputError("--hardware: required (see 'scaleopt hardware')");
  if (flags.model.empty()) throw InputError("--model: required (see 'scaleopt models')");
  ServingInputs in;
  in.prefix = "--";
  in.setup.context_tokens = kDefaultContextTokens;
  return in;
}

}  // namespace

void add_serving_flags(CLI::App& command, ServingFlags& flags, bool with_scenario) {
  if (with_scenario) {
    command
        .add_option("scenario", flags.scenario,
                    "Scenario file (TOML, docs/scenario.md): model, [inference], [pricing]")
        ->type_name("SCENARIO.toml");
    command
        .add_option("--set", flags.overrides,
                    "Override a key of the scenario, e.g. --set inference.chips=16 (repeatable)")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
  }
  // Without a scenario both are needed; roofline has no scenario, so there they are required.
  const char* needed = with_scenario ? "; required without a scenario" : "";
  auto* hardware = command.add_option("--hardware", flags.hardware,
                                      std::string("Chip id (see 'scaleopt hardware')") + needed);
  hardware->type_name("ID");
  auto* model = command.add_option("--model", flags.model,
                                   std::string("Model preset (see 'scaleopt models')") + needed);
  model->type_name("NAME");
  if (!with_scenario) {
    hardware->required();
    model->required();
  }
  command
      .add_option("--chips", flags.chips,
                  "Chips per replica, a whole count (default: chosen, the whole-node size with "
                  "the lowest cost per output token at the context, from the fewest nodes "
                  "holding the weights and one sequence's KV cache up to --max-replica-nodes)")
      ->type_name("COUNT");
  command
      .add_option("--max-replica-nodes", flags.max_replica_nodes,
                  "Largest replica considered without --chips, in whole nodes of the chip (its "
                  "node_chips, 8 when the catalog gives none)")
      ->type_name("COUNT")
      ->default_str("32 (assumed)");
  command
      .add_option("--precision", flags.precision,
                  "Weights and compute: bf16, fp8 or int8, one format for every weight "
                  "(default: as the model ships, e.g. deepseek-v3 fp8, deepseek-v4-pro fp8 "
                  "with FP4 routed experts; bf16 for a model without a shipped format)")
      ->type_name("PRECISION");
  command
      .add_option("--kv-precision", flags.kv_precision,
                  "KV cache: bf16, fp8 or int8, every element of a row (default: as the model "
                  "ships, e.g. deepseek-v4-pro fp8 with bf16 RoPE dims, 576 bytes per row)")
      ->type_name("PRECISION");
  command
      .add_option("--batch", flags.batch,
                  "Sequences per decode step, a whole count (default: the best batch)")
      ->type_name("COUNT");
  command
      .add_option("--latency-per-token", flags.latency,
                  "Upper bound on one decode step, a duration, e.g. 50ms")
      ->type_name("DURATION");
  command
      .add_option("--price", flags.price,
                  "Price in USD per chip-hour, e.g. '$2/h' (default: the catalog's, assumed)")
      ->type_name("USD/H");
  command
      .add_option("--compute-efficiency", flags.compute_efficiency,
                  "Fraction of peak FLOP/s reached, in [0.001, 1]")
      ->type_name("NUMBER")
      ->default_str("1");
  command
      .add_option("--bandwidth-efficiency", flags.bandwidth_efficiency,
                  "Fraction of peak HBM bandwidth reached, in [0.001, 1]")
      ->type_name("NUMBER")
      ->default_str("1");
  command.add_flag("--attention-flops", flags.attention_flops,
                   "Count attention FLOPs over the context (the default when the model has a "
                   "shape)");
  command.add_flag("--no-attention-flops", flags.no_attention_flops,
                   "Leave them out: the talk's roofline, t_compute = B 2 N / F");
}

ServingInputs resolve_serving(const ServingFlags& flags) {
  ServingInputs in = flags.scenario.empty()
                         ? from_flags(flags)
                         : serving_inputs(load_scenario(flags.scenario, flags.overrides));
  ServingSetup& setup = in.setup;
  if (!flags.hardware.empty()) {
    setup.chip =
        flag_value("--hardware", [&] { return find_hardware(builtin_hardware(), flags.hardware); });
  }
  if (!flags.model.empty()) {
    in.model = flag_value("--model", [&] { return architecture_preset(flags.model); });
  }
  if (!flags.precision.empty()) {
    setup.precision = flag_value("--precision", [&] { return parse_precision(flags.precision); });
  }
  if (!flags.kv_precision.empty()) {
    setup.kv_precision =
        flag_value("--kv-precision", [&] { return parse_precision(flags.kv_precision); });
  }
  {
    // What neither a flag nor the scenario gave is the model's shipped format (again, for a
    // model --model changed).
    const bool from_scenario = !flags.scenario.empty();
    const ShippedChoice shipped =
        apply_shipped_formats(in.model, setup, !flags.precision.empty() || in.precision_given,
                              !flags.kv_precision.empty() || in.kv_precision_given);
    const std::string weights_name = from_scenario ? "inference.precision" : "--precision";
    const std::string kv_name = from_scenario ? "inference.kv_precision" : "--kv-precision";
    std::erase_if(in.assumptions, [&](const std::string& line) {
      return line.starts_with(weights_name + " ") || line.starts_with(kv_name + " ");
    });
    const std::string is = from_scenario ? " = " : " ";
    if (!shipped.weights.empty()) in.assumptions.push_back(weights_name + is + shipped.weights);
    if (!shipped.kv.empty()) in.assumptions.push_back(kv_name + is + shipped.kv);
  }
  if (!flags.chips.empty()) {
    setup.chips = static_cast<double>(parse_count_flag("--chips", flags.chips, 1, kMaxShapeCount));
    in.chips_given = true;
  }
  if (!flags.max_replica_nodes.empty()) {
    if (in.chips_given) {
      const std::string given = flags.chips.empty() ? in.file + " gives inference.chips"
                                                    : "--chips " + flags.chips + " is given";
      throw InputError(
          "--max-replica-nodes: bounds the replica chosen when the chips are not "
          "given, but " +
          given + " (give one or the other)");
    }
    in.max_replica_nodes = static_cast<double>(
        parse_count_flag("--max-replica-nodes", flags.max_replica_nodes, 1, kMaxShapeCount));
    in.max_replica_nodes_given = true;
  }
  if (!flags.batch.empty()) {
    setup.batch = static_cast<double>(parse_count_flag("--batch", flags.batch, 1, kMaxShapeCount));
  }
  if (!flags.latency.empty()) {
    setup.latency_per_token_seconds =
        flag_in_range("--latency-per-token", flags.latency, Unit::seconds, kPositive);
  }
  if (!flags.price.empty()) {
    setup.usd_per_chip_hour =
        flag_in_range("--price", flags.price, Unit::usd_per_hour, kNonNegative);
  } else if (!setup.usd_per_chip_hour && setup.chip.usd_per_hour) {
    if (flags.scenario.empty() || !flags.hardware.empty()) {
      in.assumptions.push_back("--price " +
                               format_quantity(*setup.chip.usd_per_hour, Unit::usd_per_hour) +
                               " per chip: " + setup.chip.price_note);
    }
  } else if (!setup.usd_per_chip_hour && flags.price_cancels) {
    setup.usd_per_chip_hour = 1.0;  // any price: it cancels, and no dollars are printed
    in.assumptions.push_back("no --price needed: " + setup.chip.id +
                             " has none in the catalog, and a ratio of chip-times does not "
                             "depend on it");
  } else if (!setup.usd_per_chip_hour) {
    throw InputError("--price: required: " + setup.chip.id +
                     " has no price in the catalog (e.g. --price '$3/h')");
  }
  if (!flags.compute_efficiency.empty()) {
    setup.compute_efficiency =
        flag_in_range("--compute-efficiency", flags.compute_efficiency, Unit::number, kEfficiency);
  }
  if (!flags.bandwidth_efficiency.empty()) {
    setup.bandwidth_efficiency = flag_in_range("--bandwidth-efficiency", flags.bandwidth_efficiency,
                                               Unit::number, kEfficiency);
  }
  if (flags.attention_flops && flags.no_attention_flops) {
    throw InputError("--no-attention-flops: contradicts --attention-flops (give one)");
  }
  if (flags.attention_flops) setup.attention_flops = true;
  if (flags.no_attention_flops) setup.attention_flops = false;
  if (!setup.attention_flops) {
    in.assumptions.push_back(
        "attention FLOPs not counted (--no-attention-flops): t_compute = B 2 N / F, the talk's "
        "roofline");
  } else if (!in.model.has_shape()) {
    in.assumptions.push_back("attention FLOPs not counted: " + in.model.name +
                             " has no shape (only direct totals)");
  } else {
    in.assumptions.push_back(
        "attention FLOPs counted: q.k and values over the attended context, the indexer's "
        "scoring (--no-attention-flops leaves them out)");
  }
  return in;
}

void add_request_flags(CLI::App& command, RequestFlags& flags) {
  command
      .add_option("--input-tokens", flags.input_tokens,
                  "One request: its prompt tokens, prefilled in one pass (with --output-tokens), "
                  "e.g. 2K")
      ->type_name("COUNT")
      ->group("One request");
  command
      .add_option("--output-tokens", flags.output_tokens,
                  "One request: its output tokens, each priced at the context it is decoded at "
                  "(from the prompt's length up), e.g. 500")
      ->type_name("COUNT")
      ->group("One request");
}

std::optional<RequestCost> resolve_request(const RequestFlags& flags, const ServingInputs& inputs,
                                           const Roofline& roofline) {
  if (flags.input_tokens.empty() && flags.output_tokens.empty()) return std::nullopt;
  if (flags.input_tokens.empty() || flags.output_tokens.empty()) {
    throw InputError(
        std::string(flags.input_tokens.empty() ? "--output-tokens" : "--input-tokens") +
        ": give --input-tokens and --output-tokens together, e.g. --input-tokens 2K "
        "--output-tokens 500");
  }
  return request_cost(
      roofline, inputs.setup, parse_flag("--input-tokens", flags.input_tokens, Unit::count),
      parse_flag("--output-tokens", flags.output_tokens, Unit::count), inputs.prefix);
}

}  // namespace scaleopt::cli
