// scaleopt pricing curve: cost per input and output token against context length at the best
// batch of each context, the crossover S*, the knee where HBM fills first, and where a tiered
// price list sits over the curve (docs/pricing.md, "The curve").

#include <algorithm>
#include <cmath>
#include <memory>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/limits.hpp"
#include "scaleopt/cli/pricing_commands.hpp"
#include "scaleopt/cli/serving_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/pricing/pricing_curve.hpp"
#include "scaleopt/report/csv_output.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/atomic_file.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct CurveArgs {
  ServingFlags serving;
  std::string context = "1K..1M";
  int points = 25;
  bool points_given = false;
  std::string out;
  RequestFlags request;
  bool json = false;
};

struct Marked {
  double context;
  std::string marker;  // "", "S*", "knee", "price step"
};

// The log-spaced grid plus S*, the knee and the price steps that fall inside it, ascending.
std::vector<Marked> curve_contexts(const FlagRange& range, int points, double s_star, double knee,
                                   const std::optional<PriceList>& prices) {
  std::vector<Marked> contexts;
  for (double c : log_spaced_contexts(range.first, range.last, points)) contexts.push_back({c, ""});
  auto mark = [&](double context, const std::string& marker) {
    if (std::isfinite(context) && context >= range.first && context <= range.last) {
      contexts.push_back({context, marker});
    }
  };
  mark(s_star, "S*");
  mark(knee, "knee");
  if (prices) {
    for (const PriceTier& tier : prices->tiers) mark(tier.max_context_tokens, "price step");
  }
  std::stable_sort(contexts.begin(), contexts.end(),
                   [](const Marked& a, const Marked& b) { return a.context < b.context; });
  return contexts;
}

std::string context_text(double context) {
  return std::isfinite(context) ? format_quantity(context, Unit::count, 4) + " tokens" : "none";
}

// Without given chips, one replica for the whole curve, chosen at the longest context: the
// cost per output token never rises with the size and is flat in it once the batch reaches the
// compute ridge (problems/serving/replica_choice.hpp), and a shorter context reaches the ridge
// on fewer chips, so the replica chosen there gives every shorter row the lowest cost any size
// gives it. When no size within the cap serves the longest context, the shortest chooses, and
// the rows it cannot serve are marked.
void choose_curve_replica(ServingInputs& inputs, const FlagRange& range) {
  try {
    inputs.choose_chips(range.last);
  } catch (const InputError&) {
    if (range.first == range.last) throw;
    inputs.choose_chips(range.first);
  }
}

int run_curve(const CurveArgs& args, std::ostream& out) {
  ServingInputs inputs = resolve_serving(args.serving);
  const FlagRange range = parse_range_flag("--context", args.context, Unit::count);
  const bool one_context = range.first == range.last;
  if (one_context && args.points_given) {
    throw InputError("--points: spreads rows over a --context range FIRST..LAST, but --context " +
                     args.context + " is one context");
  }
  if (!one_context && args.points < 2) {
    throw InputError("--points: needs at least 2 for a range, got " + std::to_string(args.points));
  }
  choose_curve_replica(inputs, range);
  const Roofline roofline = inputs.roofline();
  const double s_star = crossover_context(roofline);
  const KneeResult knee = hbm_knee_context(roofline);
  const std::vector<Marked> marked = curve_contexts(range, one_context ? 1 : args.points, s_star,
                                                    knee.context_tokens, inputs.prices);
  std::vector<double> contexts;
  for (const Marked& m : marked) contexts.push_back(m.context);
  PricingCurve curve;
  try {
    curve = pricing_curve(roofline, inputs.setup, contexts, inputs.prefix);
  } catch (const InputError& e) {
    throw InputError((inputs.file.empty() ? "" : inputs.file + ": ") + e.what());
  }
  const std::optional<RequestCost> request = resolve_request(args.request, inputs, roofline);
  const bool converged =
      curve.status == Status::converged && (!request || request->status == Status::converged);

  Json rows = Json::array();
  for (std::size_t i = 0; i < curve.points.size(); ++i) {
    rows.push_back(curve_point_json(curve.points[i], marked[i].marker, inputs.prices));
  }
  // A price of 1e300 per chip-hour made costs of inf: refused, never printed or written.
  refuse_non_finite(rows, extreme_serving_inputs(inputs),
                    inputs.file.empty() ? "" : inputs.file + ": ");
  if (!args.out.empty()) {
    write_file_atomically(args.out, csv_from_rows(rows), "--out",
                          {{args.serving.scenario, "the scenario file"}});
  }

  if (args.json) {
    const ServingPlan replica_plan =
        inputs.replica_choice ? inputs.replica_choice->plan : curve.points.front().plan;
    Json json = pricing_curve_answer(inputs, roofline, curve, rows, replica_plan);
    if (request) {
      json["request_usd"] = request->usd();
      json["request"] = request_json(*request);
    }
    out << json.dump(2) << "\n";
    return converged ? kExitOk : kExitNotConverged;
  }

  if (!converged) {
    out << "STATUS: " << to_string(curve.status) << ": " << curve.message << "\n"
        << "Rows whose status is not converged are not at the best batch.\n";
  }
  out << "Cost per token against context: " << inputs.model.name << " on "
      << describe_replica(inputs) << "\n";
  if (inputs.replica_choice) {
    out << "Replica chosen at context "
        << format_quantity(inputs.replica_choice->plan.context_tokens, Unit::count, 4) << " of "
        << replica_sizes_text(*inputs.replica_choice)
        << ": the lowest cost per output token there, and at every shorter context\n";
  }
  Table table;
  std::vector<std::string> header{"context",    "batch",       "bound",  "$/Mtok in",
                                  "$/Mtok out", "large-B out", "KV term"};
  if (inputs.prices) header.insert(header.end(), {"price in", "price out", "out markup"});
  header.push_back("");
  table.header(header);
  std::size_t unfit = 0;
  for (std::size_t i = 0; i < curve.points.size(); ++i) {
    const Json& row = rows[i];
    std::vector<std::string> cells{format_quantity(row["context"].get<double>(), Unit::count, 4)};
    if (!curve.points[i].feasible()) {
      ++unfit;
      cells.insert(cells.end(), {"-", "does not fit", "-", "-", "-", "-"});
      if (inputs.prices) cells.insert(cells.end(), {"-", "-", "-"});
      cells.push_back(marked[i].marker);
      table.cells(cells);
      continue;
    }
    cells.insert(cells.end(),
                 {format_quantity(row["batch"].get<double>(), Unit::number, 4),
                  row["batch_bound"].get<std::string>(),
                  usd_per_mtok_text(row["usd_per_mtok_input"].get<double>()),
                  usd_per_mtok_text(row["usd_per_mtok_output"].get<double>()),
                  usd_per_mtok_text(row["usd_per_mtok_output_large_batch"].get<double>()),
                  usd_per_mtok_text(row["kv_usd_per_mtok_output"].get<double>())});
    if (inputs.prices) {
      cells.push_back(usd_per_mtok_text(row["price_usd_per_mtok_input"].get<double>()));
      cells.push_back(usd_per_mtok_text(row["price_usd_per_mtok_output"].get<double>()));
      cells.push_back(row["markup_output"].is_null()
                          ? "-"
                          : format_quantity(row["markup_output"].get<double>(), Unit::number, 3) +
                                "x");
    }
    cells.push_back(marked[i].marker);
    table.cells(cells);
  }
  table.print(out);
  if (unfit > 0) {
    const auto first = std::find_if(curve.points.begin(), curve.points.end(),
                                    [](const CurvePoint& p) { return !p.feasible(); });
    out << "Rows marked \"does not fit\": " << first->plan.message << "\n";
  }
  Table summary;
  summary.row("critical batch B*", format_quantity(curve.critical_batch, Unit::number, 4),
              "weights amortised above it");
  summary.row("crossover S*", context_text(curve.crossover_context),
              std::isfinite(curve.crossover_context)
                  ? "large batch: flat below, slope = KV term above"
                  : "no context makes decode memory-bound at every batch: a large enough batch "
                    "turns it compute-bound");
  summary.row("knee", context_text(curve.knee_context),
              std::isfinite(curve.knee_context)
                  ? "best batch: above it HBM fills before decode turns compute-bound"
                  : "at the best batch decode turns compute-bound before HBM fills, at every "
                    "context up to 1e12 tokens");
  summary.row("KV per token", format_quantity(cached_bytes_per_token(roofline), Unit::bytes, 4));
  if (inputs.prices) {
    summary.row("price list", inputs.prices->name.empty() ? "[pricing]" : inputs.prices->name,
                price_list_text(*inputs.prices));
  }
  summary.print(out);
  if (request) out << request_text(*request);
  if (!args.out.empty()) out << "Wrote " << rows.size() << " rows to " << args.out << "\n";
  print_assumptions(out, inputs.assumptions);
  return converged ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_pricing_curve_command(CLI::App& pricing, Action& chosen) {
  auto* command = pricing.add_subcommand(
      "curve", "Cost per input and output token against context, S*, and a price list over it");
  auto args = std::make_shared<CurveArgs>();
  add_serving_flags(*command, args->serving, /*with_scenario=*/true);
  command
      ->add_option("--context", args->context,
                   "Context in tokens: a range FIRST..LAST (log-spaced rows), or one context")
      ->type_name("RANGE")
      ->default_str("1K..1M");
  command
      ->add_option("--points", args->points, "Rows of the log-spaced grid over a --context range")
      ->type_name("COUNT")
      ->transform(count_check(2, kMaxCurvePoints))
      ->default_str("25")
      ->each([args](const std::string&) { args->points_given = true; });
  command->add_option("--out", args->out, "Also write the rows as CSV (columns = JSON keys)")
      ->type_name("FILE.csv")
      ->check(refuse_empty_file_name);
  add_request_flags(*command, args->request);
  command->add_flag("--json", args->json, "Print one JSON object instead of tables");
  command->footer(
      "Each row is the best batch at that context (HBM and latency limits, root finding);\n"
      "rows at S*, the knee and price steps are added. Without --chips one replica is chosen,\n"
      "at the longest context: the whole-node size with the lowest cost per output token up\n"
      "to --max-replica-nodes, which no smaller size beats at a shorter context either.\n"
      "The large-batch column is the roofline with weights amortised: flat below S*, rising\n"
      "by the KV term above.\n"
      "--input-tokens I --output-tokens O adds the cost of one request: I input tokens at a\n"
      "prompt of I, each output token at the context it is decoded at (I to I + O - 1).\n"
      "Examples:\n"
      "  scaleopt pricing curve --hardware h200 --model deepseek-v3 --context 1K..1M\n"
      "  scaleopt pricing curve examples/gemini_200k.toml --out curve.csv\n"
      "  scaleopt pricing curve --hardware b200 --price 5/h --model frontier-100b --json\n"
      "  scaleopt pricing curve examples/gemini_200k.toml --input-tokens 150K --output-tokens "
      "2K\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_curve(*args, out); }; });
}

}  // namespace scaleopt::cli
