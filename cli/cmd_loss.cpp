// scaleopt loss: the loss and training compute of a given (N, D), and how far D is from the
// law's compute-optimal tokens for that N.

#include <memory>
#include <optional>

#include "scaleopt/cli/app.hpp"
#include "scaleopt/cli/command.hpp"
#include "scaleopt/cli/flags.hpp"
#include "scaleopt/cli/law_flags.hpp"
#include "scaleopt/costmodel/quantity.hpp"
#include "scaleopt/problems/data_limit/data_limited_allocation.hpp"
#include "scaleopt/report/allocation_output.hpp"
#include "scaleopt/report/json.hpp"
#include "scaleopt/report/overflow.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/extreme_inputs.hpp"

namespace scaleopt::cli {
using namespace report;  // what the commands print is built by report/
namespace {

struct LossArgs {
  LawFlags law;
  std::string params, tokens, unique_tokens;
  bool json = false;
};

int run_loss(const LossArgs& args, std::ostream& out) {
  const LossLaw law = resolve_law(args.law);
  const double params = parse_positive_flag("--params", args.params, Unit::count);
  const double tokens = parse_positive_flag("--tokens", args.tokens, Unit::count);
  const Allocation point = evaluate_allocation(law, params, tokens);
  const Allocation frontier = optimal_for_params({law, std::nullopt}, params);
  const double over = tokens / frontier.tokens;
  // --params 1e300 gave compute = inf, --beta 1e-300 an over-Chinchilla factor of inf.
  refuse_non_finite(Json{{"loss", point.loss},
                         {"compute_flops", point.compute_flops},
                         {"tokens_per_param", point.tokens_per_param()},
                         {"chinchilla_tokens", frontier.tokens},
                         {"over_chinchilla", over}},
                    {{"--params", params},
                     {"--tokens", tokens},
                     {"law E", law.E},
                     {"law A", law.A},
                     {"law B", law.B},
                     {"law alpha", law.alpha},
                     {"law beta", law.beta}});
  std::optional<DataLimitedPoint> limited;
  if (!args.unique_tokens.empty()) {
    const double unique = parse_positive_flag("--unique-tokens", args.unique_tokens, Unit::count);
    limited = data_limited_point(law, params, tokens, unique);
  }
  Allocation shown = point;
  if (limited) shown.loss = limited->loss;
  if (args.json) {
    out << (limited ? data_limited_loss_answer(shown, law, frontier.tokens, over, *limited)
                    : loss_answer(point, law, frontier.tokens, over))
               .dump(2)
        << "\n";
    return kExitOk;
  }
  Table table("Loss of N = " + format_quantity(params, Unit::count, 4) +
              " parameters trained on D = " + format_quantity(tokens, Unit::count, 4) + " tokens");
  table.row("loss", format_quantity(shown.loss, Unit::number, 6),
            limited ? "nats/token, with repeated data" : "nats/token");
  if (limited) {
    table.row("fresh-data loss", format_quantity(limited->fresh_loss, Unit::number, 6),
              "the law's loss had every token been new (+" +
                  format_quantity(limited->loss - limited->fresh_loss, Unit::number, 4) +
                  " nats for the limit)");
    table.row("epochs", format_quantity(limited->epochs, Unit::number, 4), "D / unique tokens");
    table.row("effective tokens", format_quantity(limited->effective_tokens, Unit::count, 4),
              "D': the fresh tokens the repeated ones are worth (Muennighoff et al. 2023)");
    table.row("effective params", format_quantity(limited->effective_params, Unit::count, 4),
              "N': parameters beyond what the unique data feeds are worth less");
  }
  table.row("compute", format_scientific(point.compute_flops, 4), "FLOPs (6 N D)");
  table.row("tokens per param", format_quantity(point.tokens_per_param(), Unit::number, 4));
  table.row(
      "chinchilla tokens", format_scientific(frontier.tokens, 4),
      format_quantity(frontier.tokens, Unit::count) + ", the law's compute-optimal D for this N");
  table.row("over chinchilla", format_quantity(over, Unit::number, 4) + "x",
            "D / chinchilla tokens");
  table.row("law", law.name, describe_coefficients(law));
  table.print(out);
  return kExitOk;
}

}  // namespace

void add_loss_command(CLI::App& app, Action& chosen) {
  auto* command =
      app.add_subcommand("loss", "Loss and compute of a model of N parameters on D tokens");
  auto args = std::make_shared<LossArgs>();
  command->add_option("--params", args->params, "Parameters N (a count, e.g. 70B)")
      ->type_name("COUNT")
      ->required();
  command->add_option("--tokens", args->tokens, "Training tokens D (a count, e.g. 1T)")
      ->type_name("COUNT")
      ->required();
  command
      ->add_option("--unique-tokens", args->unique_tokens,
                   "Unique tokens U_D in the data (a count, e.g. 25B): tokens beyond them repeat "
                   "and are worth less each epoch (Muennighoff et al. 2023)")
      ->type_name("COUNT");
  add_law_flags(*command, args->law, /*with_rule=*/false);
  command->add_flag("--json", args->json, "Print one JSON object instead of a table");
  command->footer(
      "Examples:\n  scaleopt loss --params 70B --tokens 1T --law sardana2024\n"
      "  scaleopt loss --params 8.67B --tokens 178B --unique-tokens 25B --law muennighoff2023\n");
  command->callback(
      [args, &chosen] { chosen = [args](std::ostream& out) { return run_loss(*args, out); }; });
}

}  // namespace scaleopt::cli
