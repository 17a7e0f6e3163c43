// scaleopt optimal: the compute-optimal (N, D) for a budget, a model size or a target loss.

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/law_flags.hpp"
#include "scaleopt/cli/print.hpp"
#include "scaleopt/cli/solver_flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/costmodel/precision.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/costmodel/training_budget.hpp"
#include "scaleopt/problems/data_limit/data_limited_allocation.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/json_number.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"
#include "scaleopt/scenario/hardware_catalog.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct OptimalArgs {
  LawFlags law;
  std::string compute, params, loss, unique_tokens;
  // A budget in dollars or accelerator-hours, converted to FLOPs on a chip (costmodel/
  // training_budget.hpp); --hardware with --compute prints the hours and dollars it costs.
  std::string budget_usd, gpu_hours, hardware, precision, mfu, goodput, usd_per_hour;
  SolverOptions solver;
  bool json = false;
};

// The chip the budget is converted on, and the defaults it took (printed as assumptions).
struct BudgetChip {
  TrainingSetup training;
  std::vector<std::string> assumptions;
};

BudgetChip budget_chip(const OptimalArgs& args) {
  BudgetChip chip;
  TrainingSetup& t = chip.training;
  const auto assumed = [&](const std::string& line) { chip.assumptions.push_back(line); };
  t.chip = find_hardware(builtin_hardware(), args.hardware.empty() ? "h100-sxm" : args.hardware);
  if (args.hardware.empty()) assumed("--hardware h100-sxm");
  if (!args.precision.empty()) {
    t.precision = flag_value("--precision", [&] { return parse_precision(args.precision); });
  } else {
    assumed("--precision bf16");
  }
  if (!args.mfu.empty()) {
    t.mfu = parse_positive_flag("--mfu", args.mfu, Unit::number);
  } else {
    assumed("--mfu 0.4 (Llama 3 405B reports 38-43%)");
  }
  if (!args.goodput.empty())
    t.goodput = parse_positive_flag("--goodput", args.goodput, Unit::number);
  if (!args.usd_per_hour.empty()) {
    t.usd_per_chip_hour =
        parse_positive_flag("--usd-per-hour", args.usd_per_hour, Unit::usd_per_hour);
  } else if (t.chip.usd_per_hour) {
    assumed("--usd-per-hour " + format_quantity(*t.chip.usd_per_hour, Unit::usd_per_hour) +
            " (the catalog price of " + t.chip.id + ")");
  }
  // The prefix "--" names the setup's fields as this command's flags (--mfu, --goodput).
  t.validate("--");
  return chip;
}

// The compute the flags give: --compute, or a budget converted on the chip.
struct ComputeGiven {
  double flops = 0.0;
  std::string_view flag;
  double value = 0.0;  // as given, in the flag's unit
  std::optional<TrainingBudget> conversion;
  std::vector<std::string> assumptions;
};

std::optional<ComputeGiven> compute_given(const OptimalArgs& args) {
  ComputeGiven given;
  const bool converts =
      !args.budget_usd.empty() || !args.gpu_hours.empty() || !args.hardware.empty();
  if (!args.compute.empty()) {
    given.flag = "--compute";
    given.value = parse_positive_flag("--compute", args.compute, Unit::count);
  } else if (!args.budget_usd.empty()) {
    given.flag = "--budget-usd";
    given.value = parse_positive_flag("--budget-usd", args.budget_usd, Unit::usd);
  } else if (!args.gpu_hours.empty()) {
    given.flag = "--gpu-hours";
    given.value = parse_positive_flag("--gpu-hours", args.gpu_hours, Unit::count);
  } else {
    return std::nullopt;
  }
  given.flops = given.value;
  if (!converts) return given;
  BudgetChip chip = budget_chip(args);
  given.assumptions = std::move(chip.assumptions);
  if (given.flag == "--budget-usd") {
    given.conversion = training_budget_from_usd(given.value, chip.training, "--budget-usd");
  } else if (given.flag == "--gpu-hours") {
    given.conversion = training_budget_from_gpu_hours(given.value, chip.training, "--gpu-hours");
  } else {
    given.conversion = training_budget_from_flops(given.value, chip.training, "--compute");
  }
  given.flops = given.conversion->flops;
  return given;
}

// "$30M / $2.50/h = 12M GPU-hours x 3600 s x 3.956e14 FLOP/s (989T peak x MFU 0.4 x goodput 1)
// = 1.709e25 FLOPs".
std::string conversion_text(const ComputeGiven& given, const OptimalArgs& args) {
  const TrainingBudget& b = *given.conversion;
  std::string text;
  if (given.flag == "--budget-usd") {
    text = format_quantity(b.usd, Unit::usd) + " / " +
           format_quantity(b.usd_per_gpu_hour, Unit::usd_per_hour) + " = ";
  }
  text += format_quantity(b.gpu_hours, Unit::count) + " GPU-hours x 3600 s x " +
          format_scientific(b.flop_per_second, 4) + " FLOP/s per chip (peak x MFU x goodput" +
          (args.hardware.empty() ? ", h100-sxm" : ", " + args.hardware) +
          ") = " + format_scientific(b.flops, 4) + " FLOPs";
  if (given.flag != "--budget-usd" && std::isfinite(b.usd)) {
    text += ", costing " + format_quantity(b.usd, Unit::usd) + " at " +
            format_quantity(b.usd_per_gpu_hour, Unit::usd_per_hour);
  }
  return text;
}

Json conversion_json(const ComputeGiven& given) {
  const TrainingBudget& b = *given.conversion;
  return Json{{"given", std::string(given.flag)},
              {"usd", finite_or_null(b.usd)},
              {"gpu_hours", b.gpu_hours},
              {"compute_flops", b.flops},
              {"usd_per_gpu_hour", finite_or_null(b.usd_per_gpu_hour)},
              {"flop_per_second_per_chip", b.flop_per_second},
              {"assumptions", given.assumptions}};
}

void print_conversion(std::ostream& out, const ComputeGiven& given, const OptimalArgs& args) {
  if (!given.conversion) return;
  out << "Budget converted: " << conversion_text(given, args) << "\n";
  for (const std::string& line : given.assumptions) out << "  assumed: " << line << "\n";
}

// The figures printed as the answer must be numbers (--params 1e300 gave compute = inf): one
// that is not is refused, naming the flags given and the law's coefficients it came from.
void refuse_non_finite_allocation(const Allocation& allocation,
                                  std::pair<const char*, double> derived,
                                  const AllocationRule& rule,
                                  std::vector<std::pair<std::string_view, double>> inputs) {
  inputs.insert(inputs.end(), {{"law E", rule.law.E},
                               {"law A", rule.law.A},
                               {"law B", rule.law.B},
                               {"law alpha", rule.law.alpha},
                               {"law beta", rule.law.beta}});
  refuse_non_finite(Json{{"params", allocation.params},
                         {"tokens", allocation.tokens},
                         {"compute_flops", allocation.compute_flops},
                         {"loss", allocation.loss},
                         {derived.first, derived.second}},
                    inputs);
}

// --unique-tokens: NLopt on the problem with repeated data, checked by the 1-D reduction.
int run_data_limited(const OptimalArgs& args, const AllocationRule& rule, std::ostream& out) {
  if (!args.params.empty()) {
    throw InputError(
        "--unique-tokens: give --compute or --loss (with --params the tokens are "
        "the law's frontier, which knows no stock of data)");
  }
  const double unique = parse_positive_flag("--unique-tokens", args.unique_tokens, Unit::count);
  DataLimitedAllocation limited;
  std::string title;
  std::string_view given_flag;
  double given_value = 0.0;
  const std::optional<ComputeGiven> compute = compute_given(args);
  if (compute) {
    given_value = compute->value;
    given_flag = compute->flag;
    limited = optimal_for_compute_with_unique_tokens(rule.law, compute->flops, unique, args.solver);
    title = "Compute-optimal model for C = " + format_scientific(compute->flops, 4) +
            " FLOPs with " + format_quantity(unique, Unit::count, 4) + " unique tokens";
  } else {
    given_value = parse_positive_flag("--loss", args.loss, Unit::number);
    given_flag = "--loss";
    limited = optimal_for_loss_with_unique_tokens(rule.law, given_value, unique, args.solver);
    title = "Cheapest model reaching loss " + format_quantity(given_value, Unit::number, 6) +
            " with " + format_quantity(unique, Unit::count, 4) + " unique tokens";
  }
  const Allocation& allocation = limited.allocation;
  if (allocation.solve.status == Status::infeasible) throw InputError(allocation.solve.message);
  refuse_non_finite_allocation(allocation, {"epochs", limited.epochs}, rule,
                               {{given_flag, given_value}, {"--unique-tokens", unique}});
  if (args.json) {
    Json json = data_limited_optimal_answer(limited, rule);
    if (compute && compute->conversion) json["budget"] = conversion_json(*compute);
    out << json.dump(2) << "\n";
  } else {
    if (compute) print_conversion(out, *compute, args);
    print_allocation(out, title, allocation, rule);
    if (allocation.solve.converged()) out << data_limit_text(limited);
  }
  return allocation.solve.converged() ? kExitOk : kExitNotConverged;
}

int run_optimal(const OptimalArgs& args, std::ostream& out) {
  const int given = !args.compute.empty() + !args.budget_usd.empty() + !args.gpu_hours.empty() +
                    !args.params.empty() + !args.loss.empty();
  if (given != 1) {
    throw InputError(
        "optimal: give exactly one of --compute, --budget-usd, --gpu-hours, --params or --loss");
  }
  const bool budget = !args.compute.empty() || !args.budget_usd.empty() || !args.gpu_hours.empty();
  if (!budget && (!args.hardware.empty() || !args.precision.empty() || !args.mfu.empty() ||
                  !args.goodput.empty() || !args.usd_per_hour.empty())) {
    throw InputError(
        "--hardware, --precision, --mfu, --goodput and --usd-per-hour convert a budget: give "
        "--budget-usd, --gpu-hours or --compute with them");
  }
  const AllocationRule rule = resolve_rule(args.law);
  if (!args.unique_tokens.empty()) return run_data_limited(args, rule, out);
  Allocation allocation;
  std::string title;
  std::string_view given_flag;  // the flag given, and its value
  double given_value = 0.0;
  const std::optional<ComputeGiven> compute = compute_given(args);
  if (compute) {
    given_flag = compute->flag;
    given_value = compute->value;
    allocation = optimal_for_compute(rule, compute->flops, args.solver);
    title = "Compute-optimal model for C = " + format_scientific(compute->flops, 4) + " FLOPs";
  } else if (!args.params.empty()) {
    const double params = parse_positive_flag("--params", args.params, Unit::count);
    given_flag = "--params";
    given_value = params;
    allocation = optimal_for_params(rule, params);
    title =
        "Compute-optimal tokens for N = " + format_quantity(params, Unit::count, 4) + " parameters";
  } else {
    const double loss = parse_positive_flag("--loss", args.loss, Unit::number);
    given_flag = "--loss";
    given_value = loss;
    allocation = optimal_for_loss(rule, loss, args.solver);
    title = "Cheapest model reaching loss " + format_quantity(loss, Unit::number, 6);
  }
  if (allocation.solve.status == Status::infeasible) throw InputError(allocation.solve.message);
  refuse_non_finite_allocation(allocation, {"tokens_per_param", allocation.tokens_per_param()},
                               rule, {{given_flag, given_value}});
  if (args.json) {
    Json json = optimal_answer(allocation, rule);
    if (compute && compute->conversion) json["budget"] = conversion_json(*compute);
    out << json.dump(2) << "\n";
  } else {
    if (compute) print_conversion(out, *compute, args);
    print_allocation(out, title, allocation, rule);
  }
  return allocation.solve.converged() ? kExitOk : kExitNotConverged;
}

}  // namespace

void add_optimal_command(CLI::App& app, Action& chosen) {
  auto* command = app.add_subcommand(
      "optimal",
      "Compute-optimal parameters and tokens (Chinchilla) for a budget, a size or a loss");
  auto args = std::make_shared<OptimalArgs>();
  command
      ->add_option("--compute", args->compute,
                   "Training compute budget C in FLOPs, e.g. 1e24 (exactly one of --compute, "
                   "--params, --loss)")
      ->type_name("COUNT");
  command
      ->add_option("--budget-usd", args->budget_usd,
                   "Pretraining budget in dollars, e.g. $30M: converted to FLOPs at --usd-per-hour "
                   "on --hardware at --precision, --mfu and --goodput (the conversion is printed)")
      ->type_name("USD");
  command
      ->add_option("--gpu-hours", args->gpu_hours,
                   "Pretraining budget in accelerator-hours, e.g. 30.84M: converted to FLOPs as "
                   "--budget-usd is")
      ->type_name("COUNT");
  command
      ->add_option("--hardware", args->hardware,
                   "Chip the budget buys (see 'scaleopt hardware'; default h100-sxm, assumed); "
                   "with --compute, prints the hours and dollars the compute costs")
      ->type_name("ID");
  command->add_option("--precision", args->precision, "Training precision: bf16 (default), fp8")
      ->type_name("NAME");
  command
      ->add_option("--mfu", args->mfu,
                   "Model-FLOPs utilization of pretraining (default 0.4, assumed; see 'scaleopt "
                   "training-runs' for the MFUs published runs imply)")
      ->type_name("NUMBER");
  command
      ->add_option("--goodput", args->goodput,
                   "Fraction of paid time doing useful steps (default 1; not below 1 with an MFU "
                   "implied by published GPU-hours, which already counts the losses)")
      ->type_name("NUMBER");
  command
      ->add_option("--usd-per-hour", args->usd_per_hour,
                   "Price per chip-hour, e.g. $2.5/h (default: the chip's catalog price, assumed)")
      ->type_name("PRICE");
  command
      ->add_option("--params", args->params,
                   "Model size N in parameters, e.g. 70B: the compute-optimal D and C for it")
      ->type_name("COUNT");
  command
      ->add_option("--loss", args->loss,
                   "Target loss in nats per token, e.g. 1.95: the cheapest (N, D) that reaches it")
      ->type_name("NUMBER");
  command
      ->add_option("--unique-tokens", args->unique_tokens,
                   "Unique tokens U_D available (a count, e.g. 25B; with --compute or --loss): "
                   "beyond them data repeats and is worth less each epoch (Muennighoff et al. "
                   "2023); solved by NLopt and checked by a 1-D reduction, no closed form")
      ->type_name("COUNT");
  add_law_flags(*command, args->law, /*with_rule=*/true);
  add_solver_flags(*command, args->solver);
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "Solves min L(N, D) s.t. 6 N D = C (or min 6 N D s.t. L = target) with NLopt SLSQP in\n"
      "log space and checks the answer against the closed form of Hoffmann et al. (Eq. 4).\n"
      "Examples:\n"
      "  scaleopt optimal --compute 1e24 --law epoch2024\n"
      "  scaleopt optimal --budget-usd '$30M' --hardware h100-sxm --usd-per-hour 2.5 --mfu 0.4\n"
      "  scaleopt optimal --gpu-hours 30.84M --hardware h100-sxm\n"
      "  scaleopt optimal --params 70B\n"
      "  scaleopt optimal --loss 1.947 --law sardana2024 --json\n"
      "  scaleopt optimal --compute 5.76e23 --tokens-per-param 20\n"
      "  scaleopt optimal --compute 1e22 --unique-tokens 25B --law muennighoff2023\n");
  command->callback([args, &chosen] {
    chosen = [args](std::ostream& out, std::ostream&, const RunContext& context) {
      args->solver.stop = context.stop;
      return run_optimal(*args, out);
    };
  });
}

}  // namespace scaleopt::cli
