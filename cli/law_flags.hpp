#pragma once
// The flags that choose a loss law (--law and per-coefficient overrides) and, optionally, a
// fixed tokens-per-parameter rule. Shared by every command that needs a law.

#include <CLI/CLI.hpp>
#include <string>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/problems/compute_optimal/compute_optimal.hpp"

namespace scaleopt::cli {

// The default law when none is named: the Epoch AI refit, the one whose frontier matches the
// ~20 tokens per parameter practice (an assumption, printed with every answer).
inline constexpr const char* kDefaultLaw = "epoch2024";

struct LawFlags {
  std::string law;                   // empty: kDefaultLaw (so that "--law epoch2024" is seen)
  std::string law_file;              // a TOML file with a [law] table; replaces --law
  std::string E, A, B, alpha, beta;  // overrides; empty when not given
  std::string tokens_per_param;      // empty: follow the law's frontier
};

void add_law_flags(CLI::App& command, LawFlags& flags, bool with_rule);

// The preset with any overrides applied (named "custom" when overridden), validated.
LossLaw resolve_law(const LawFlags& flags);

// The law and, when --tokens-per-param was given, the fixed rule.
AllocationRule resolve_rule(const LawFlags& flags);

}  // namespace scaleopt::cli
