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
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/data_limit/data_limited_allocation.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct OptimalArgs {
  LawFlags law;
  std::string compute, params, loss, unique_tokens;
  SolverOptions solver;
  bool json = false;
};

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
  if (!args.compute.empty()) {
    given_value = parse_positive_flag("--compute", args.compute, Unit::count);
    given_flag = "--compute";
    limited = optimal_for_compute_with_unique_tokens(rule.law, given_value, unique, args.solver);
    title = "Compute-optimal model for C = " + format_scientific(given_value, 4) + " FLOPs with " +
            format_quantity(unique, Unit::count, 4) + " unique tokens";
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
    out << data_limited_optimal_answer(limited, rule).dump(2) << "\n";
  } else {
    print_allocation(out, title, allocation, rule);
    if (allocation.solve.converged()) out << data_limit_text(limited);
  }
  return allocation.solve.converged() ? kExitOk : kExitNotConverged;
}

int run_optimal(const OptimalArgs& args, std::ostream& out) {
  const int given = !args.compute.empty() + !args.params.empty() + !args.loss.empty();
  if (given != 1) {
    throw InputError("optimal: give exactly one of --compute, --params or --loss");
  }
  const AllocationRule rule = resolve_rule(args.law);
  if (!args.unique_tokens.empty()) return run_data_limited(args, rule, out);
  Allocation allocation;
  std::string title;
  std::string_view given_flag;  // the one of --compute, --params, --loss, and its value
  double given_value = 0.0;
  if (!args.compute.empty()) {
    const double compute = parse_positive_flag("--compute", args.compute, Unit::count);
    given_flag = "--compute";
    given_value = compute;
    allocation = optimal_for_compute(rule, compute, args.solver);
    title = "Compute-optimal model for C = " + format_scientific(compute, 4) + " FLOPs";
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
    out << optimal_answer(allocation, rule).dump(2) << "\n";
  } else {
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
