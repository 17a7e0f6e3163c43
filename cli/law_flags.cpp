#include "cli/law_flags.hpp"

#include "cli/flags.hpp"
#include "cli/law_file.hpp"
#include "costmodel/input_error.hpp"

namespace scaleopt::cli {

void add_law_flags(CLI::App& command, LawFlags& flags, bool with_rule) {
  command
      .add_option("--law", flags.law,
                  "Loss law preset: hoffmann2022, sardana2024 or epoch2024 (see 'scaleopt laws')")
      ->default_str(kDefaultLaw)
      ->type_name("NAME");
  command
      .add_option("--law-file", flags.law_file,
                  "Read the law from the [law] table of a TOML file (e.g. from 'scaleopt fit "
                  "--emit-law')")
      ->type_name("FILE");
  const char* coefficient_help = "Override one coefficient of the law (makes it 'custom')";
  command.add_option("--E", flags.E, coefficient_help)->type_name("NUMBER")->group("Law");
  command.add_option("--A", flags.A, coefficient_help)->type_name("NUMBER")->group("Law");
  command.add_option("--B", flags.B, coefficient_help)->type_name("NUMBER")->group("Law");
  command.add_option("--alpha", flags.alpha, coefficient_help)->type_name("NUMBER")->group("Law");
  command.add_option("--beta", flags.beta, coefficient_help)->type_name("NUMBER")->group("Law");
  if (with_rule) {
    command
        .add_option("--tokens-per-param", flags.tokens_per_param,
                    "Use a fixed ratio D = r N instead of the law's compute-optimal frontier, "
                    "e.g. 20 (Hoffmann et al. 2022, Approach 1); the law then only gives the loss")
        ->type_name("NUMBER");
  }
}

LossLaw resolve_law(const LawFlags& flags) {
  if (!flags.law_file.empty() && flags.law != kDefaultLaw) {
    throw InputError("give --law or --law-file, not both");
  }
  LossLaw law = flags.law_file.empty() ? loss_law_preset(flags.law)
                                       : read_law_file(flags.law_file, "--law-file");
  const std::string base = law.name;
  bool overridden = false;
  const std::pair<const std::string*, double*> overrides[] = {{&flags.E, &law.E},
                                                              {&flags.A, &law.A},
                                                              {&flags.B, &law.B},
                                                              {&flags.alpha, &law.alpha},
                                                              {&flags.beta, &law.beta}};
  const char* names[] = {"--E", "--A", "--B", "--alpha", "--beta"};
  for (std::size_t i = 0; i < std::size(overrides); ++i) {
    if (overrides[i].first->empty()) continue;
    *overrides[i].second = parse_positive_flag(names[i], *overrides[i].first, Unit::number);
    overridden = true;
  }
  if (overridden) {
    law.name = "custom";
    law.source = "user coefficients over " + base;
  }
  law.validate("law");
  return law;
}

AllocationRule resolve_rule(const LawFlags& flags) {
  AllocationRule rule{resolve_law(flags), std::nullopt};
  if (!flags.tokens_per_param.empty()) {
    rule.tokens_per_param =
        parse_positive_flag("--tokens-per-param", flags.tokens_per_param, Unit::number);
  }
  return rule;
}

}  // namespace scaleopt::cli
