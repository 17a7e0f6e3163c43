#pragma once
// The fields of a lifecycle answer, in one table: key, kind, unit, meaning and how to read the
// number from an answer's flat summary (problems/question/question_summary.hpp). The JSON of
// `scaleopt solve` (report/lifecycle_output.hpp), the CSV columns of sweeps and Monte Carlo
// (analysis/lifecycle_csv.hpp), the Python columns with their dtypes and the field list of
// docs/json.md are all generated from it, so they cannot drift apart: a new figure of an answer
// is a line here.
//
// Keys are dotted paths: "cost.pretrain.usd" is {"cost": {"pretrain": {"usd": ...}}} in JSON and
// the column "cost.pretrain.usd" in CSV. A number that does not exist is NaN in the summary,
// null in JSON (with the reason under "unavailable"), an empty CSV cell and NaN in a DataFrame.

#include <span>
#include <string_view>

#include "scaleopt/problems/question/question_summary.hpp"

namespace scaleopt {

enum class AnswerFieldKind : unsigned char {
  number,      // a double
  status,      // converged, infeasible, not_converged, ... (to_string(Status))
  algorithm,   // how the plan was found: NLopt's algorithm, "1-D Newton (Boost.Math)", closed form
  problem,     // the problem kind (JSON only: the same on every row of a file)
  message,     // one line on how the solve ended (JSON only: free text)
  fleet_text,  // the serving fleet's words: "chosen" or "given", what binds the batch (JSON only)
};

// Which answers have the field.
enum class AnswerFieldPresence : unsigned char {
  always,
  rl_returns,    // RL tokens chosen ([rl.returns])
  data_limit,    // limited data (data.unique_tokens or problem.max_pretrain_tokens)
  training_cap,  // the pretraining FLOPs capped (training.deadline on known chips, or
                 // best-at-pretraining-budget)
};

// Why a number may not exist, for the reason given beside it.
enum class AnswerFieldGroup : unsigned char {
  plan,           // the plan's own figures: none when no plan exists (infeasible)
  demand,         // the question's RL and inference tokens: always there
  usd,            // dollars: none in a FLOPs question
  serving_hours,  // RL's and inference's accelerator-hours (and the total): none in a FLOPs
                  // question, which models no serving
  chinchilla,     // the equal-quality Chinchilla-style model: none when it does not exist
  reference,      // the independent method's difference: none when there is none to compare with
  data_limit,     // what limited data does: each figure only where it applies (the reason says)
  training,       // the pretraining run's chips and days: none when nothing sets them
  training_cap,   // the multipliers of the caps on the pretraining FLOPs
  power,          // power and energy: none for a chip of unknown power, and where nothing
                  // sets the chips, the fleet or a price (the reason says)
  law_reach,      // how far the answer lies outside the law's fitted range: none for a law
                  // without a range (given by its coefficients)
  experts,        // the experts chosen: none when the question does not choose them (a law
                  // of N and D alone, or the experts fixed by a key)
  fleet,          // the serving fleet: none in a FLOPs question or at fixed MFUs (no replica is
                  // planned), or without a duration (replicas, utilisation)
  text,           // a text field
};

// Which fields an answer of a question has: its kind, whether the RL tokens are chosen and
// whether the data is limited.
struct AnswerLayout {
  ProblemKind kind = ProblemKind::min_lifetime_cost;
  bool rl_returns = false;
  bool data_limit = false;
  bool training_cap = false;
  constexpr bool has(AnswerFieldPresence presence) const {
    switch (presence) {
      case AnswerFieldPresence::always:
        return true;
      case AnswerFieldPresence::rl_returns:
        return rl_returns;
      case AnswerFieldPresence::data_limit:
        return data_limit;
      case AnswerFieldPresence::training_cap:
        return training_cap;
    }
    return false;
  }
  bool has_optimum() const { return kind == ProblemKind::equal_cost; }
};

struct AnswerField {
  std::string_view key;
  AnswerFieldKind kind;
  std::string_view unit;  // "parameters", "tokens", "nats", "FLOPs", "GPU-hours", "USD", "ratio"
  AnswerFieldPresence presence;
  AnswerFieldGroup group;
  // The number (kind number only): NaN where it does not exist.
  double (*number)(const AnswerSummary&, const AnswerLayout&);
  std::string_view meaning;

  constexpr bool in_csv() const {
    return kind != AnswerFieldKind::problem && kind != AnswerFieldKind::message &&
           kind != AnswerFieldKind::fleet_text;
  }
};

// Every field of one answer, in the order of the JSON keys and of the CSV columns.
std::span<const AnswerField> answer_fields();

// The fields a CSV row of `layout` holds (in_csv() and present in the layout), in table order:
// what a sweep writes per row without testing every field of the table on every row.
std::span<const AnswerField* const> csv_fields(const AnswerLayout& layout);

// A number of a whole solution beside its answers: equal-cost's heuristic_overpay (the CSV
// column after the optimum's, the JSON key after "optimum").
struct SolutionField {
  std::string_view key;
  std::string_view unit;
  double (*number)(const QuestionSummary&);
  std::string_view meaning;
};
std::span<const SolutionField> solution_fields();

// The layout of the answers of `setup`'s question.
struct QuestionSetup;
AnswerLayout answer_layout(const QuestionSetup& setup);

}  // namespace scaleopt
