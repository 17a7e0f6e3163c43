#include "scaleopt/cli/law_flags.hpp"

#include "scaleopt/cli/flags.hpp"
#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/scenario/law_file.hpp"

namespace scaleopt::cli {
namespace {

LossLaw preset_flag(const std::string& name) {
  try {
    return loss_law_preset(name);
  } catch (const InputError& e) {
    throw field_error("--law", e.what());
  }
}

}  // namespace

void add_law_flags(CLI::App& command, LawFlags& flags, bool with_rule) {
  command
      .add_option("--law", flags.law,
                  "Loss law preset: hoffmann2022, hoffmann2022-a3, sardana2024, epoch2024 or "
                  "muennighoff2023 (see "
                  "'scaleopt laws')")
      ->default_str(kDefaultLaw)
      ->type_name("NAME");
  command
      .add_option("--law-file", flags.law_file,
                  "Read the law from the [law] table of a TOML file (e.g. from 'scaleopt fit "
                  "--emit-law'); not with --law")
      ->type_name("FILE");
  // Each overrides one coefficient of the law, which is then named "custom".
  command.add_option("--E", flags.E, "Irreducible loss E in nats per token (overrides the law's)")
      ->type_name("NUMBER")
      ->group("Law");
  command
      .add_option("--A", flags.A,
                  "Coefficient A of the parameter term A / N^alpha, in nats per token "
                  "(overrides the law's)")
      ->type_name("NUMBER")
      ->group("Law");
  command
      .add_option("--B", flags.B,
                  "Coefficient B of the data term B / D^beta, in nats per token (overrides the "
                  "law's)")
      ->type_name("NUMBER")
      ->group("Law");
  command
      .add_option("--alpha", flags.alpha,
                  "Exponent alpha on parameters, a plain number (overrides the law's)")
      ->type_name("NUMBER")
      ->group("Law");
  command
      .add_option("--beta", flags.beta,
                  "Exponent beta on tokens, a plain number (overrides the law's)")
      ->type_name("NUMBER")
      ->group("Law");
  if (with_rule) {
    command
        .add_option("--tokens-per-param", flags.tokens_per_param,
                    "Use a fixed ratio D = r N (tokens per parameter) instead of the law's "
                    "compute-optimal frontier, e.g. 20 (Hoffmann et al. 2022, Approach 1); the "
                    "law then only gives the loss")
        ->type_name("NUMBER");
  }
}

LossLaw resolve_law(const LawFlags& flags) {
  if (!flags.law_file.empty() && !flags.law.empty()) {
    throw InputError("--law-file: give --law or --law-file, not both (--law " + flags.law +
                     ", --law-file " + flags.law_file + ")");
  }
  LossLaw law = !flags.law_file.empty() ? read_law_file(flags.law_file, "--law-file")
                : flags.law.empty()     ? loss_law_preset(kDefaultLaw)
                                        : preset_flag(flags.law);
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
    // Chinchilla coefficients typed over a joint law's reduction are a law of N and D alone.
    law.joint.reset();
    law.experts.reset();
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
