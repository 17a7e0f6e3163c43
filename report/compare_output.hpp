#pragma once
// Two scenarios' answers side by side (scaleopt compare A.toml B.toml): each answer's lines as
// `scaleopt solve` prints them, A's beside B's, the lines that differ marked; and the JSON of
// both with the figures that differ and their ratios.

#include <string>

#include "scaleopt/problems/question/question_solve.hpp"
#include "scaleopt/report/json_fwd.hpp"
#include "scaleopt/report/table.hpp"
#include "scaleopt/scenario/scenario.hpp"

namespace scaleopt::report {

// One scenario and its answer.
struct ComparedAnswer {
  const Scenario* scenario = nullptr;
  const QuestionSolution* solution = nullptr;
};

// What a scenario assumes for inference, in one line: "typed MFUs: prefill 0.133, decode 0.133
// of h100-sxm's peak", "the roofline: 88 x h100-sxm, fp8, 8K context, 20ms per token", or for a
// FLOPs problem that it counts FLOPs.
std::string inference_assumption(const Scenario& scenario);

// The figures compared, of each plan (the answer: the heuristic of equal-cost, else the
// optimum; and, when either scenario is equal-cost, the optimum of each): {key, a, b, ratio
// (b / a; null when a is 0), differs (|b - a| > 1e-9 max(|a|, |b|), the solvers' agreement)}.
// Keys: params, active_params, pretrain_tokens, rl_tokens, inference_tokens, loss,
// over_chinchilla, cost_total_flops, cost_total_usd (null for a FLOPs problem),
// cost_total_gpu_hours.
// The document: scenarios [A, B], inference [A's assumption, B's], plans [{plan ("answer" or
// "optimum"), a_label, b_label ("heuristic", "optimum"), figures [...]}], differences (the keys
// of the answer's figures that differ), status (converged when both are), a and b (each as
// `scaleopt solve --json` prints it, without schema_version).
Json compare_json(const ComparedAnswer& a, const ComparedAnswer& b);

// The tables: for each plan, the rows of `solve`'s table with A's value beside B's, "*" in the
// first column where they differ; then what each assumes and its solver's verdict.
std::string compare_text(const ComparedAnswer& a, const ComparedAnswer& b);

}  // namespace scaleopt::report
