#pragma once
// A scenario file (TOML): law, architecture, hardware, prices, MFUs and demand in one place.
// Every key is declared once in the registry (scenario/scenario_keys.hpp), which drives reading,
// unknown-key errors, --set overrides, the numeric inputs of sweeps, and docs/scenario.md.
//
//   [law]           the loss law (scenario/law_file.hpp)
//   [architecture]  a preset and/or shape fields
//   [hardware.<id>] chips added to, or overriding, the built-in catalog
//   [training]      pretraining: chip, tokens, MFU, cluster, price
//   [inference]     serving (chip, replica, precision, context, batch, caps) and demand
//   [rl]            rollouts, trained fraction, extra passes
//   [problem]       the question `scaleopt solve` answers (kind, target, shares, budget)
//   [pricing]       a provider's prices in tiers by prompt length (scenario/price_list_file.hpp)
//   [uncertainty]   distributions of inputs for `scaleopt uncertainty`

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scaleopt/costmodel/loss_law.hpp"
#include "scaleopt/costmodel/price_list.hpp"
#include "scaleopt/problems/lifetime/phase_costs.hpp"
#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/problems/serving/replica_choice.hpp"
#include "scaleopt/scenario/input_distribution.hpp"
#include "scaleopt/scenario/law_file.hpp"

namespace scaleopt {

struct Scenario : LifetimeInputs {
  std::string file;            // where it was read from (for messages)
  std::optional<LossLaw> law;  // absent without a [law] table (or --law-file)
  // The file the law was read from (law.file, resolved beside the scenario, or --law-file);
  // empty when the law is the scenario's own. An input: no output may overwrite it.
  std::string law_file;
  std::optional<PriceList> prices;  // absent without a [pricing] table
  ProblemSpec problem;              // meaningful when problem_given
  bool problem_given = false;       // problem.kind was set
  // Defaults the scenario relied on that are assumptions ("training.mfu = 0.4 (assumed)"),
  // printed with every answer. Only keys of tables the file has are listed.
  std::vector<std::string> assumptions;
  // What the file gives that has no effect, one line each ("problem.target_loss is ignored by
  // max-quality"): the library prints nothing, the command line and Python show these.
  std::vector<std::string> warnings;
  // The registry keys the file (or --set) gave a value, in reading order ("training.mfu"), for
  // reports that say where each input came from.
  std::vector<std::string> keys_given;
  // Distributions of inputs for Monte Carlo ([uncertainty], scenario/uncertainty_table.hpp).
  UncertaintySpec uncertainty;
  // Model presets whose serving cost against context is drawn beside each other
  // (inference.compare_models; `plot cost-vs-context-models` and the report).
  std::vector<std::string> compare_models;
  // 64-bit FNV-1a of the file's TOML after --set, less its numeric inputs, printed by toml++
  // (sorted, no comments): what scenario/scenario_fingerprint.hpp adds to the numeric inputs'
  // values to identify the question. 0 for a scenario not read from a document.
  std::uint64_t document_digest = 0;
};

// Reads and validates a scenario file. `overrides` are "--set KEY=VALUE" arguments, applied to
// the document before it is read, so that they are validated like the file itself (errors
// name "set"). `law_source` says where else the law may come from (--law-file, and whether
// law.file may name a file: scenario/law_file.hpp). Throws InputError "FILE:LINE: KEY: what is
// wrong" for bad input.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {},
                       const LawSource& law_source = {});

// Same, from text (tests, the report, which quotes the text it read). `name` is the file's
// path when it has one: law.file is resolved beside it.
Scenario load_scenario_text(std::string_view text, const std::string& name,
                            const std::vector<std::string>& overrides = {},
                            const LawSource& law_source = {});

}  // namespace scaleopt
