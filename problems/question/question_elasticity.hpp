#pragma once
// Elasticities of a lifecycle answer, d ln y / d ln p, for the outputs y (total parameters,
// pretraining tokens, loss, total cost in the problem's unit, over-Chinchilla factor) and one
// input p of the scenario (docs/sensitivity.md):
//
// - at an optimum (min-lifetime-*, max-quality, the true optimum of equal-cost) the
//   implicit-function theorem on the KKT system (solver/implicit_sensitivity.hpp) gives
//   dx*/d ln p without re-solving, and y(x*(p), p) is differentiated along it;
// - the equal-cost heuristic is a closed form of p: its outputs are differenced directly.
//
// The problem at a perturbed p comes from a ScaledSetup (the scenario with p multiplied by
// e^s), so any input that reaches the problem's functions (prices, MFUs, demand, chips, the law,
// the target) can be differentiated. Derivatives in ln p use a central stencil, or a one-sided
// one where p cannot move one way (an MFU of 1, active parameters equal to the total).

#include <array>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "scaleopt/problems/question/question_setup.hpp"
#include "scaleopt/problems/question/question_summary.hpp"
#include "scaleopt/solver/implicit_sensitivity.hpp"

namespace scaleopt {

inline constexpr std::array<std::string_view, 5> kElasticityOutputs = {
    "params", "pretrain_tokens", "loss", "cost_total", "over_chinchilla"};
using OutputValues = std::array<double, 5>;

// The outputs of the plan (N, D) = (e^log_params, e^log_tokens) under `setup`: total parameters,
// D, L(N, D), the lifetime cost in the setup's unit, D over the rule's D for N.
// With [rl.returns] the loss includes the gain of the setup's RL tokens (at least one).
OutputValues outputs_at(const QuestionSetup& setup, double log_params, double log_tokens);
// With [rl.returns], at the RL tokens e^log_rl_tokens (the third variable of the optimum).
OutputValues outputs_at(const QuestionSetup& setup, double log_params, double log_tokens,
                        double log_rl_tokens);

// At a point x of the setup's decision layout, (ln N, ln D[, ln D_RL][, ln m]) (the experts
// chosen: total parameters N m, the loss and the rule at E(m)).
OutputValues outputs_at(const QuestionSetup& setup, std::span<const double> x);

// The same outputs of a solved answer, in `unit` (Monte Carlo's samples, the tornado's solves).
OutputValues outputs_of(const AnswerSummary& answer, CostUnit unit);

// The setup with the input scaled by e^log_scale. Throws InputError when the scaled value is
// not allowed (out of range, or breaking a rule between keys).
using ScaledSetup = std::function<QuestionSetup(double log_scale)>;

struct ElasticityOptions {
  // Step in ln p of the stencils. The outputs are smooth in ln p: truncation ~step^2 and
  // rounding ~1e-16 / step meet near 1e-5, both ~1e-10.
  double log_step = 1e-5;
  SensitivityOptions kkt;
  void validate() const;  // throws InputError naming the field
};

struct Elasticity {
  // converged; invalid_input when p can move neither way; not_converged when the KKT matrix is
  // singular. `message` says why when not converged.
  Status status = Status::not_converged;
  std::string message;
  OutputValues values{};     // d ln y / d ln p, in the order of kElasticityOutputs
  std::string_view stencil;  // "central", "forward" or "backward"
};

// At the optimum x* of `base` (its decision layout: ln N*, ln D*[, ln D_RL*][, ln m*]), solved
// beforehand.
Elasticity optimum_elasticity(const QuestionSetup& base, std::span<const double> optimum,
                              const ScaledSetup& scaled, const ElasticityOptions& options = {});

// Of the equal-cost heuristic's plan (closed form).
Elasticity heuristic_elasticity(const ScaledSetup& scaled, const ElasticityOptions& options = {});

}  // namespace scaleopt
