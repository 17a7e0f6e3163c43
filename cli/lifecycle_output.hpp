#pragma once
// How a lifecycle solution is shown: one screen that tells the story (demand, tokens,
// over-Chinchilla factor, costs by phase, the heuristic beside its optimum), or JSON.

#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/scenario.hpp"
#include "problems/lifecycle_problem.hpp"

namespace scaleopt::cli {

// Keys (each answer): problem, params, active_params, pretrain_tokens, rl_tokens,
// inference_tokens, loss, cost {pretrain, rl, inference, total: {flops, gpu_hours, usd}},
// cost_shares, chinchilla_tokens, over_chinchilla, vs_chinchilla {params, tokens, cost},
// status, message, kkt_residual, constraint_violation, reference_relative_difference; for
// equal-cost `optimum` holds the same keys for the true optimum and `heuristic_overpay` the
// heuristic's excess cost. Also unit, law, rule, scenario, assumptions.
nlohmann::ordered_json solution_json(const Scenario& scenario, const LossLaw& law,
                                     const LifecycleSolution& solution);

void print_solution(std::ostream& out, const Scenario& scenario, const LossLaw& law,
                    const LifecycleSolution& solution);

}  // namespace scaleopt::cli
