// scaleopt pricing ratio: the output/input cost ratio the roofline implies, and the inverse:
// from a published price ratio (e.g. $15 / $3 = 5x), how memory-bound decode is and the batch
// that makes it so (docs/pricing.md, "Output over input").

#include <cmath>
#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/pricing_commands.hpp"
#include "scaleopt/cli/serving_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/pricing/price_ratio.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/table.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct RatioArgs {
  ServingFlags serving;
  std::string context;
  std::string price_ratio;
  bool json = false;
};

// Batches shown for the forward ratio, for display only (the best batch comes from the plan):
// powers of 4 from 1 up to the first at which decode is compute-bound or HBM is full.
std::vector<double> display_batches(const Roofline& r, double context) {
  std::vector<double> batches;
  for (double batch = 1.0; batch <= 1e15; batch *= 4.0) {
    batches.push_back(batch);
    if (!decode_step(r, batch, context).memory_bound() ||
        hbm_bytes_needed(r, batch, context) >= r.hbm_bytes) {
      break;
    }
  }
  return batches;
}

int run_ratio(const RatioArgs& args, std::ostream& out) {
  ServingInputs inputs = resolve_serving(args.serving);
  if (!args.context.empty()) {
    inputs.setup.context_tokens = parse_positive_flag("--context", args.context, Unit::count);
  } else if (inputs.file.empty()) {
    inputs.assumptions.insert(inputs.assumptions.begin(), "--context 8K");
  }
  const double context = inputs.setup.context_tokens;
  inputs.choose_chips(context);
  const Roofline roofline = inputs.roofline();
  const ServingPlan plan = inputs.plan(roofline, context);

  // The published ratio: the flag, or the scenario's price list at this context.
  std::optional<double> price_ratio;
  std::string ratio_source;
  if (!args.price_ratio.empty()) {
    price_ratio = parse_positive_flag("--price-ratio", args.price_ratio, Unit::number);
    ratio_source = "--price-ratio";
  } else if (inputs.prices) {
    const PriceTier& tier = inputs.prices->tier_for(context);
    price_ratio = tier.output_input_ratio();
    ratio_source = inputs.file + ": [pricing] at " + format_exact_count(context) + " (" +
                   usd_per_mtok_text(tier.usd_per_mtok_output) + " / " +
                   usd_per_mtok_text(tier.usd_per_mtok_input) + ")";
  }
  std::optional<BatchForRatio> inverse;
  if (price_ratio) {
    inverse = batch_for_price_ratio(roofline, *price_ratio, context);
    if (inverse->status == Status::infeasible) {
      throw InputError((ratio_source == "--price-ratio" ? "--price-ratio" : ratio_source) + ": " +
                       inverse->message);
    }
  }
  const bool converged =
      plan.status == Status::converged && (!inverse || inverse->status == Status::converged);
  const double b_star = critical_batch(roofline);

  const Json by_batch = ratio_by_batch_json(roofline, context, display_batches(roofline, context));
  // A context of 1e-300 tokens made the ratio inf: refused, never printed.
  refuse_non_finite(Json{{"critical_batch", b_star},
                         {"batch", plan.batch},
                         {"output_input_ratio", plan.output_input_ratio()},
                         {"ratio_by_batch", by_batch},
                         {"hbm_full_batch", inverse ? Json(inverse->hbm_full_batch) : Json()}},
                    extreme_serving_inputs(inputs), inputs.file.empty() ? "" : inputs.file + ": ");
  if (args.json) {
    out << pricing_ratio_answer(inputs, roofline, plan, by_batch, price_ratio, ratio_source,
                                inverse)
               .dump(2)
        << "\n";
    return converged ? kExitOk : kExitNotConverged;
  }

  if (!converged) {
    out << "STATUS: not_converged: " << (inverse ? inverse->message : plan.message) << "\n";
  }
  Table table("Output/input cost ratio of " + inputs.model.name + " on " +
              describe_replica(inputs) + ", context " + format_exact_count(context));
  table.row("critical batch B*", format_quantity(b_star, Unit::number, 4));
  if (inputs.replica_choice) {
    table.row(
        "replica (chosen)", format_quantity(inputs.setup.chips, Unit::number, 6) + " chips",
        "of " + replica_sizes_text(*inputs.replica_choice) + ", the lowest cost per output token");
  }
  table.row(plan.bound == BatchBound::given ? "batch (given)" : "best batch",
            format_quantity(plan.batch, Unit::number, 4), std::string(to_string(plan.bound)));
  table.row("output/input", format_quantity(plan.output_input_ratio(), Unit::number, 4),
            "t_step / B over the prefill time per token");
  table.print(out);
  Table sweep;
  sweep.header({"batch", "output/input", "t_memory/t_compute"});
  for (const Json& row : by_batch) {
    sweep.cells({format_quantity(row["batch"].get<double>(), Unit::count, 4),
                 format_quantity(row["output_input_ratio"].get<double>(), Unit::number, 4),
                 format_quantity(row["memory_bound_factor"].get<double>(), Unit::number, 4)});
  }
  sweep.print(out);
  if (inverse) {
    Table back("From the published ratio");
    back.row("price ratio", format_quantity(*price_ratio, Unit::number, 4) + "x", ratio_source);
    back.row("decode memory-bound by",
             format_quantity(inverse->memory_bound_factor, Unit::number, 4) + "x",
             "t_memory / t_compute");
    back.row(inverse->status == Status::converged ? "implied batch" : "batch (last iterate)",
             format_quantity(inverse->batch, Unit::number, 4),
             "B* / batch = " + format_quantity(b_star / inverse->batch, Unit::number, 3));
    back.row("HBM holds", format_quantity(inverse->hbm_full_batch, Unit::number, 4) + " sequences",
             inverse->batch <= inverse->hbm_full_batch
                 ? "the implied batch fits"
                 : "the implied batch does not fit this replica");
    back.print(out);
  }
  print_assumptions(out, inputs.assumptions);
  return converged ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_pricing_ratio_command(CLI::App& pricing, Action& chosen) {
  auto* command = pricing.add_subcommand(
      "ratio", "Output/input cost ratio from the roofline, and the batch a price ratio implies");
  auto args = std::make_shared<RatioArgs>();
  add_serving_flags(*command, args->serving, /*with_scenario=*/true);
  args->serving.price_cancels = true;  // a ratio of chip-times: no dollars printed
  command->add_option("--context", args->context, "Context: tokens in each sequence's KV cache")
      ->type_name("COUNT")
      ->default_str("8K (assumed), or the scenario's");
  command
      ->add_option("--price-ratio", args->price_ratio,
                   "Published price per output token / price per input token, e.g. 5 (default: "
                   "the scenario's [pricing] at the context)")
      ->type_name("NUMBER");
  command->add_flag("--json", args->json, "Print one JSON object instead of tables");
  command->footer(
      "Prefill is compute-bound; decode costs t_step / B per token, max(1, t_memory /\n"
      "t_compute) times its FLOPs, and t_memory / t_compute = B*/B + S/S* for dense\n"
      "attention. A published ratio R gives the batch where the roofline's ratio is R\n"
      "(TOMS 748 on ln B). Without --chips the replica is chosen at the context: the\n"
      "whole-node size with the lowest cost per output token, up to --max-replica-nodes.\n"
      "Examples:\n"
      "  scaleopt pricing ratio --hardware h100-sxm --model llama3-70b --price-ratio 8\n"
      "  scaleopt pricing ratio examples/gemini_200k.toml\n"
      "  scaleopt pricing ratio --hardware b200 --model frontier-100b --batch 64 --json\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_ratio(*args, out); }; });
}

}  // namespace scaleopt::cli
