// scaleopt roofline: the inference roofline of one model on one chip (docs/model.md,
// "Inference roofline"): critical batch B*, context crossover S*, the best batch at a context,
// cost per million input and output tokens and their ratio.

#include <cmath>
#include <limits>
#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/serving_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/serving/serving_plan.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/pricing_json.hpp"
#include "scaleopt/report/pricing_output.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

constexpr double kTokensPerMillion = 1e6;

struct RooflineArgs {
  ServingFlags serving;
  std::string context;
  RequestFlags request;
  bool json = false;
};

std::string milliseconds(double seconds) {
  return format_scientific(seconds * 1e3, 3) + "ms";
}

int run_roofline(const RooflineArgs& args, std::ostream& out) {
  ServingInputs inputs = resolve_serving(args.serving);
  ServingSetup& setup = inputs.setup;
  const Architecture& model = inputs.model;
  std::vector<std::string>& assumptions = inputs.assumptions;
  if (args.context.empty()) {
    assumptions.insert(assumptions.begin(), "--context 8K (8000 tokens)");
  } else {
    setup.context_tokens = parse_flag("--context", args.context, Unit::count);
  }
  inputs.choose_chips(setup.context_tokens);

  const Roofline roofline = make_roofline(model, setup, "--");
  const ServingPlan plan = plan_serving(roofline, setup, setup.context_tokens, "--");
  const double b_star = critical_batch(roofline);
  const double s_star = crossover_context(roofline);
  const double input_per_mtok = plan.input_token.usd * kTokensPerMillion;
  const double output_per_mtok = plan.output_token.usd * kTokensPerMillion;
  const std::optional<RequestCost> request = resolve_request(args.request, inputs, roofline);
  const bool converged =
      plan.status == Status::converged && (!request || request->status == Status::converged);

  if (args.json) {
    Json json = roofline_answer(inputs, roofline, plan);
    if (request) {
      json["request_usd"] = request->usd();
      json["request"] = request_json(*request);
    }
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
              format_exact_count(setup.context_tokens) + " tokens");
  table.row(
      "critical batch B*", format_quantity(b_star, Unit::number, 4),
      "F * weight bytes read / (2 W N), N without the embedding table: weights amortised above it");
  table.row("crossover context S*",
            std::isfinite(s_star) ? format_quantity(s_star, Unit::count, 4) + " tokens" : "none",
            std::isfinite(s_star) ? "above it decode is memory-bound at any batch"
                                  : "no context makes decode memory-bound at every batch: a "
                                    "large enough batch turns it compute-bound");
  table.row("model",
            format_quantity(roofline.total_params, Unit::count, 4) + " total, " +
                format_quantity(roofline.active_params, Unit::count, 4) + " active",
            format_quantity(roofline.kv_bytes_per_token, Unit::bytes, 4) + " of KV per token");
  table.row(
      "per sequence",
      format_quantity(cached_bytes_per_sequence(roofline, setup.context_tokens), Unit::bytes, 4) +
          " cached",
      format_scientific(decode_flops_per_token(roofline, setup.context_tokens), 4) +
          " FLOPs per decoded token" +
          (roofline.attention_flops ? " (attention included)" : " (no attention FLOPs)"));
  table.row("replica",
            format_quantity(setup.chips, Unit::number, 6) + " x " + setup.chip.id + " (" +
                std::string(inputs.replica_source()) + ")",
            format_quantity(roofline.hbm_bytes, Unit::bytes) + " HBM, " +
                format_quantity(plan.hbm_bytes_needed, Unit::bytes) + " used");
  if (inputs.replica_choice) {
    table.row("sizes tried", replica_sizes_text(*inputs.replica_choice),
              "the lowest cost per output token wins; ties to the smallest");
  }
  table.row(converged ? "best batch" : "batch (last iterate)",
            format_quantity(plan.batch, Unit::number, 4) + " sequences",
            std::string(to_string(plan.bound)));
  table.row("decode step", milliseconds(plan.step.seconds()),
            plan.step.memory_bound() ? "memory-bound" : "compute-bound");
  table.row("input", format_quantity(input_per_mtok, Unit::usd, 3) + " per Mtok",
            plan.prefill.memory_seconds > plan.prefill.compute_seconds
                ? "prefill, bound by the weight read (prompt shorter than B*)"
                : "prefill");
  table.row("output", format_quantity(output_per_mtok, Unit::usd, 3) + " per Mtok", "decode");
  table.row("output/input", format_quantity(plan.output_input_ratio(), Unit::number, 3));
  table.print(out);
  if (request) out << request_text(*request);
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
  add_serving_flags(*command, args->serving, /*with_scenario=*/false);
  command->add_option("--context", args->context, "Context: tokens in each sequence's KV cache")
      ->type_name("COUNT")
      ->default_str("8K (assumed)");
  add_request_flags(*command, args->request);
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "One decode step of B sequences at context S: t = max(B (2 N + attention) / F,\n"
      "(weight bytes + B (row + KV read)) / W), with N the active parameters less the input\n"
      "embedding table (a lookup); cost per output token = t price / B. The best batch is the\n"
      "smallest at which decode turns compute-bound, HBM fills or the latency target binds\n"
      "(root finding, TOMS 748). Without --chips the replica is chosen: every size of whole\n"
      "nodes from the fewest holding the weights and one sequence's KV cache up to\n"
      "--max-replica-nodes, each at its best batch, the cheapest per output token kept (ties\n"
      "within 1e-9 to the smallest). A prompt of S tokens is prefilled in a pass of its own:\n"
      "max(S FLOPs / F, (weights + S KV) / W). --no-attention-flops: the talk's roofline.\n"
      "One request (--input-tokens I --output-tokens O): I input tokens at a prompt of I, and\n"
      "each output token at the context it is decoded at, I to I + O - 1, each at its best\n"
      "batch (or --batch).\n"
      "Examples:\n"
      "  scaleopt roofline --hardware h100-sxm --model deepseek-v3 --context 200K\n"
      "  scaleopt roofline --hardware h100-sxm --model llama3-70b --precision fp8 --json\n"
      "  scaleopt roofline --hardware b200 --model frontier-100b --price '$4/h' --chips 8\n"
      "  scaleopt roofline --hardware h100-sxm --model llama3-70b --latency-per-token 30ms\n"
      "  scaleopt roofline --hardware h100-sxm --model deepseek-v3 --input-tokens 2K \\\n"
      "      --output-tokens 500\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_roofline(*args, out); }; });
}

}  // namespace scaleopt::cli
